"""Property tests over random games: every player count 2-6, every 2-player variant, random legal moves,
bot moves and illegal moves."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.base import IllegalMove
from app.games.realms import GAME, rules
from app.games.realms.options import RealmsOptions
from app.games.realms.state import RealmsState, all_slugs
from tests.games.realms.helpers import strings

MAX_MOVES = 600


def table_setups() -> st.SearchStrategy[tuple[int, dict[str, Any]]]:
    two = st.tuples(st.just(2), st.sampled_from(["seed", "published", "none"]))
    more = st.tuples(st.integers(3, 6), st.just("seed"))
    return st.tuples(
        st.one_of(two, more),
        st.booleans(),
        st.sampled_from(["players_choose", "automatic"]),
    ).map(
        lambda t: (
            t[0][0],
            {
                "two_player_variant": t[0][1],
                "may_discard_taken_card": t[1],
                "final_choices": t[2],
            },
        )
    )


def random_move(rng: random.Random, state: RealmsState, seat: int) -> dict[str, Any]:
    """A move that is often illegal: any action, any card, any seat's card."""
    slug = rng.choice([*all_slugs(), "not-a-card"])
    return rng.choice(
        [
            {"action": "take", "source": "deck"},
            {"action": "take", "source": "discard", "card": slug},
            {"action": "discard", "card": slug},
            {"action": "draw_two"},
            {"action": "final_choices_confirm"},
            {"action": "final_choices_update", "choices": {"mirage": slug}},
            {"action": "final_choices_update", "choices": {"island": slug, "necromancer": None}},
            {
                "action": "final_choices_update",
                "choices": {"book_of_changes": {"target": slug, "suit": "wizard"}},
            },
            {"action": "force_final_choices"},
        ]
    )


def check_invariants(state: RealmsState) -> None:
    cards = [*state.deck, *state.discard_area, *(c for h in state.hands for c in h)]
    assert sorted(cards) == sorted(all_slugs())
    data = json.loads(json.dumps(GAME.dump_state(state)))
    assert GAME.load_state(data) == state
    for seat in [None, *range(state.seats)]:
        hidden = GAME.hidden_from(state, seat).values
        view = GAME.view(state, seat)
        leaked = strings(json.loads(json.dumps(view))) & hidden
        assert not leaked, (seat, state.phase, leaked)


def play_random_game(seats: int, options: dict[str, Any], seed: int, bot_share: float) -> RealmsState:
    rng = random.Random(seed)
    state = GAME.setup(seats, RealmsOptions(**options), random.Random(seed))
    check_invariants(state)
    for _ in range(MAX_MOVES):
        acting = sorted(GAME.to_act(state))
        if not acting:
            break
        seat = rng.choice(acting)
        # an illegal (or unexpected) move: refused without touching the state, or accepted
        if rng.random() < 0.3:
            before = GAME.dump_state(state)
            attempt = random_move(rng, state, rng.randrange(seats))
            try:
                move = GAME.Move.validate_python(attempt)
                actor = rng.randrange(seats)
                state_after = GAME.apply(state, actor, move, random.Random(0), host=False)
            except IllegalMove:
                assert GAME.dump_state(state) == before
            else:
                assert GAME.dump_state(state) == before  # apply never mutates its input
                assert move in GAME.legal_moves(state, actor)  # only legal moves are accepted
                state = state_after
                check_invariants(state)
            continue
        if rng.random() < bot_share:
            move = GAME.bot_move(state, seat, rng)
        else:
            legal = GAME.legal_moves(state, seat)
            confirm = [m for m in legal if isinstance(m, rules.FinalChoicesConfirm)]
            if confirm and rng.random() < 0.4:
                move = confirm[0]
            elif state.phase == "final_choices" and rng.random() < 0.05:
                state = GAME.apply(state, seat, rules.ForceFinalChoices(), rng, host=True)
                check_invariants(state)
                continue
            else:
                move = rng.choice(legal)
        assert move in GAME.legal_moves(state, seat)
        before = GAME.dump_state(state)
        state_after = GAME.apply(state, seat, move, rng)
        assert GAME.dump_state(state) == before
        state = state_after
        check_invariants(state)
    return state


@settings(max_examples=40, deadline=None)
@given(setup=table_setups(), seed=st.integers(0, 2**32 - 1), bot_share=st.sampled_from([0.0, 0.5, 1.0]))
def test_random_games_end_and_keep_the_invariants(
    setup: tuple[int, dict[str, Any]], seed: int, bot_share: float
) -> None:
    seats, options = setup
    state = play_random_game(seats, options, seed, bot_share)
    assert state.phase == "finished", f"no end after {MAX_MOVES} moves"
    result = GAME.result(state)
    assert result is not None
    assert sorted(s.seat for s in result.seats) == list(range(seats))
    assert all(s.rank >= 1 for s in result.seats) and 1 in {s.rank for s in result.seats}
    if state.mode == "standard":
        assert len(state.discard_area) == 10
    else:
        assert all(len(h) == 7 for h in state.hands) and len(state.discard_area) >= 12


@settings(max_examples=25, deadline=None)
@given(setup=table_setups(), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_every_legal_move_is_accepted_and_illegal_ones_change_nothing(
    setup: tuple[int, dict[str, Any]], seed: int, steps: int
) -> None:
    seats, options = setup
    rng = random.Random(seed)
    state = GAME.setup(seats, RealmsOptions(**options), random.Random(seed))
    for _ in range(steps):
        acting = sorted(GAME.to_act(state))
        if not acting:
            break
        seat = acting[0]
        legal = GAME.legal_moves(state, seat)
        assert legal
        for move in legal:
            GAME.apply(state, seat, move, random.Random(0))
        for other in range(seats):
            if other not in acting:
                assert GAME.legal_moves(state, other) == []
        state = GAME.apply(state, seat, rng.choice(legal), rng)
