"""async play: notices, presence, per-turn deadlines and seat votes

Notice channels, settings and outbox; table notes; server secrets (VAPID keys).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29 14:28:54.338980
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('server_secrets',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('value', sa.String(length=2000), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    op.create_table('notice_channels',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('url', sa.String(length=2000), nullable=False),
    sa.Column('keys', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.Column('last_ok_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.String(length=500), nullable=True),
    sa.Column('last_error_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('notice_channels', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_channels_user_id'), ['user_id'], unique=False)

    op.create_table('notice_settings',
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('events', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('quiet_start', sa.Integer(), nullable=True),
    sa.Column('quiet_end', sa.Integer(), nullable=True),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('digest_hour', sa.Integer(), nullable=True),
    sa.Column('digest_sent_on', sa.String(length=10), nullable=True),
    sa.Column('skip_when_visible', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id')
    )
    op.create_table('notice_outbox',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('dedupe', sa.String(length=120), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('channel_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('table_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('event', sa.String(length=16), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('body', sa.String(length=2000), nullable=False),
    sa.Column('link', sa.String(length=300), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_try_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('claimed_by', sa.String(length=32), nullable=True),
    sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('error', sa.String(length=500), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['channel_id'], ['notice_channels.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('dedupe')
    )
    with op.batch_alter_table('notice_outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_outbox_channel_id'), ['channel_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_outbox_next_try_at'), ['next_try_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_outbox_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_outbox_table_id'), ['table_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_outbox_user_id'), ['user_id'], unique=False)

    op.create_table('presence',
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('table_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('visible', sa.Boolean(), nullable=False),
    sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'table_id')
    )
    op.create_table('seat_votes',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('table_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('voter_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('choice', sa.String(length=8), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['voter_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'seat', 'voter_id', name='uq_seat_votes_voter')
    )
    with op.batch_alter_table('seat_votes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_votes_table_id'), ['table_id'], unique=False)

    op.create_table('table_notes',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('table_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('text', sa.String(length=200), nullable=False),
    sa.Column('params', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('table_notes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_table_notes_table_id'), ['table_id'], unique=False)

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('turn_hours', sa.Integer(), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('turn_hours')

    with op.batch_alter_table('table_notes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_table_notes_table_id'))

    op.drop_table('table_notes')
    with op.batch_alter_table('seat_votes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_votes_table_id'))

    op.drop_table('seat_votes')
    op.drop_table('presence')
    with op.batch_alter_table('notice_outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_outbox_user_id'))
        batch_op.drop_index(batch_op.f('ix_notice_outbox_table_id'))
        batch_op.drop_index(batch_op.f('ix_notice_outbox_status'))
        batch_op.drop_index(batch_op.f('ix_notice_outbox_next_try_at'))
        batch_op.drop_index(batch_op.f('ix_notice_outbox_channel_id'))

    op.drop_table('notice_outbox')
    op.drop_table('notice_settings')
    with op.batch_alter_table('notice_channels', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_channels_user_id'))

    op.drop_table('notice_channels')
    op.drop_table('server_secrets')
