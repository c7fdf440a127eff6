"""Property tests over random games, both modes and every player count: the game ends, cards are
conserved, no view shows another hand, the deck, or whether anyone holds a Fée."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.base import IllegalMove
from app.games.fantasy import GAME, auto_move, rules
from app.games.fantasy.cards import printed_race
from app.games.fantasy.options import FantasyOptions, FantasyPrefs
from app.games.fantasy.state import FantasyState
from tests.games.fantasy.helpers import canonical, random_playout

VARIANTS = {
    "korrigan_take": ["random", "victim_chooses", "actor_chooses"],
    "replenish_take": ["random", "giver_chooses"],
    "farfadet_mode": ["auto", "forests", "places"],
    "end_rule": ["auto", "final_round", "replenish"],
    "final_round_anchor": ["after_trigger", "complete_round"],
    "secret_placement": ["any", "absent_only"],
    "fee_reactors": ["any_other", "affected_only"],
    "elfe_copy_scope": ["own", "any"],
    "hommes_block_own": [False, True],
    "biere_followup": ["target_forest", "any"],
    "must_play": [True, False],
    "tiebreak": ["fewest_cards", "shared"],
}


def house_rules() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in VARIANTS.items()})


def base_tables() -> st.SearchStrategy[tuple[int, dict[str, Any]]]:
    small = st.tuples(st.integers(2, 4), st.just({}))
    large = st.tuples(st.integers(5, 6), st.just({"large_base": True}))
    return st.tuples(st.one_of(small, large), house_rules()).map(lambda t: (t[0][0], {**t[0][1], **t[1]}))


def expansion_tables() -> st.SearchStrategy[tuple[int, dict[str, Any]]]:
    return st.tuples(st.integers(2, 6), house_rules()).map(lambda t: (t[0], {"expansion": True, **t[1]}))


def _check_finished(state: FantasyState, n: int) -> None:
    assert state.end is not None, "the game did not end"
    result = GAME.result(state)
    assert result is not None and sorted(s.seat for s in result.seats) == list(range(n))
    assert result.winners and all(s.rank >= 1 for s in result.seats)
    assert GAME.to_act(state) == frozenset()
    for entry in state.log:  # every log line formats with its params
        texts = [(entry["text"], entry["params"]), *entry["private"].values()]
        for text, params in texts:
            text % {k: str(v) for k, v in params.items()}


@settings(max_examples=6, deadline=None)
@given(table=base_tables(), seed=st.integers(0, 2**32 - 1))
def test_property_base_games_end_and_keep_the_invariants(
    table: tuple[int, dict[str, Any]], seed: int
) -> None:
    n, opts = table
    _check_finished(random_playout(n, FantasyOptions(**opts), seed), n)


@settings(max_examples=6, deadline=None)
@given(table=expansion_tables(), seed=st.integers(0, 2**32 - 1))
def test_property_expansion_games_end_and_keep_the_invariants(
    table: tuple[int, dict[str, Any]], seed: int
) -> None:
    n, opts = table
    _check_finished(random_playout(n, FantasyOptions(**opts), seed), n)


def _swap_fee(state: FantasyState) -> tuple[int, FantasyState] | None:
    """The same state with one held Fée exchanged for a non-Fée card of the deck (or None)."""
    spare = [c for c in state.deck if printed_race(c) != "fee"]
    for seat, hand in enumerate(state.hands):
        fees = [c for c in hand if printed_race(c) == "fee"]
        if fees and spare:
            fee, other = fees[0], spare[0]
            hands = list(state.hands)
            hands[seat] = tuple(sorted([c for c in hand if c != fee] + [other]))
            deck = tuple(fee if c == other else c for c in state.deck)
            return seat, state.model_copy(update={"hands": tuple(hands), "deck": deck})
    return None


@settings(max_examples=8, deadline=None)
@given(expansion=st.booleans(), n=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_property_a_fee_in_hand_is_invisible_to_the_others(expansion: bool, n: int, seed: int) -> None:
    """R9: at every window of a random game, holding a Fée or not changes nothing others see or wait for."""
    rng = random.Random(seed)
    state = GAME.setup(n, FantasyOptions(expansion=expansion), random.Random(seed))
    prefs = [FantasyPrefs(react_pref=p) for p in ("ask_when_affected", "ask_always", "never")]
    windows = 0
    for _ in range(400):
        if state.end is not None:
            break
        if state.window is not None:
            swapped = _swap_fee(state)
            if swapped is not None:
                holder, other = swapped
                windows += 1
                assert GAME.to_act(state) == GAME.to_act(other)
                assert GAME.timeout(state) == GAME.timeout(other)
                for seat in [None, *range(n)]:
                    if seat != holder:
                        assert GAME.view(state, seat) == GAME.view(other, seat)
                for seat in range(n):
                    for p in prefs:
                        assert auto_move(state, seat, p) == auto_move(other, seat, p)
                view_a, view_b = GAME.view(state, holder), GAME.view(other, holder)
                assert view_a["prompt"] == view_b["prompt"] and view_a["window"] == view_b["window"]
        _auto_moves_read_only_hand_sizes(state, prefs)
        seat = rng.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, rng.choice(legal), rng)


def _auto_moves_read_only_hand_sizes(state: FantasyState, prefs: list[FantasyPrefs]) -> None:
    """Give every hand other cards of the same count: the service's answers must not change."""
    pool = list(state.deck)
    hands = []
    for hand in state.hands:
        take, pool = pool[: len(hand)], pool[len(hand) :]
        hands.append(tuple(sorted(take)) if len(take) == len(hand) else hand)
    other = state.model_copy(update={"hands": tuple(hands)})
    for seat in range(state.seats):
        for p in [None, *prefs]:
            assert auto_move(state, seat, p) == auto_move(other, seat, p)


@settings(max_examples=10, deadline=None)
@given(
    table=st.one_of(base_tables(), expansion_tables()),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 80),
)
def test_property_every_legal_move_is_accepted_and_others_have_none(
    table: tuple[int, dict[str, Any]], seed: int, steps: int
) -> None:
    n, opts = table
    rng = random.Random(seed)
    state = GAME.setup(n, FantasyOptions(**opts), random.Random(seed))
    for _ in range(steps):
        acting = sorted(GAME.to_act(state))
        if not acting:
            break
        for seat in range(n):
            legal = GAME.legal_moves(state, seat)
            assert bool(legal) == (seat in acting)
            for move in legal[:40]:
                data = json.loads(json.dumps(GAME.Move.dump_python(move, mode="json")))
                parsed = GAME.Move.validate_python(data)
                assert parsed == move
                GAME.apply(state, seat, parsed, random.Random(0))
        seat = rng.choice(acting)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)), rng)


def test_property_illegal_moves_change_nothing():
    rng = random.Random(4)
    state = GAME.setup(3, FantasyOptions(expansion=True), random.Random(4))
    for _ in range(60):
        if state.end is not None:
            break
        before = GAME.dump_state(state)
        for attempt in (
            {"action": "end_turn"},
            {"action": "react_pass"},
            {"action": "play_creature", "card": "nope-1"},
        ):
            for seat in range(3):
                try:
                    new = GAME.apply(state, seat, attempt, random.Random(0))
                except IllegalMove as err:
                    assert err.code in rules.CODES
                    assert GAME.dump_state(state) == before
                else:
                    assert canonical(GAME.Move.validate_python(attempt), state) in [
                        canonical(m, state) for m in GAME.legal_moves(state, seat)
                    ]
                    assert new is not state
        seat = rng.choice(sorted(GAME.to_act(state)))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)), rng)
