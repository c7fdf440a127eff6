"""game timeouts

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 12:39:56.793417
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('timer_key', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('timer_due_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_tables_timer_due_at'), ['timer_due_at'], unique=False)




def downgrade() -> None:

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tables_timer_due_at'))
        batch_op.drop_column('timer_due_at')
        batch_op.drop_column('timer_key')


