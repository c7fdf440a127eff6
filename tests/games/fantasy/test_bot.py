"""The bot: sensible, stronger than random play, never stuck."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.fantasy import GAME, rules, scoring
from app.games.fantasy.options import FantasyOptions
from app.games.fantasy.rules import ReactFee
from tests.games.fantasy.helpers import ANA, BOB, CID, creature, make, play


def test_bot_prefers_growing_its_forest_and_hitting_the_leader():
    s = make(
        3,
        hands={ANA: ["dryade-1", "fee-1"], BOB: ["gnome-9"], CID: ["gnome-8"]},
        forests={BOB: ["lutin-1", "lutin-2", "lutin-3"], CID: ["elfe-1"]},
        deck=["elfe-8"],
    )
    move = GAME.bot_move(s, ANA, random.Random(0))
    assert move.card == "dryade-1" and move.target_player == BOB


def test_bot_answers_with_a_fee_when_it_is_hurt():
    s = make(
        3,
        hands={ANA: ["dryade-1"], BOB: ["fee-1", "gnome-2"], CID: ["gnome-3"]},
        forests={BOB: ["lutin-1", "lutin-2"]},
        deck=["elfe-8"],
    )
    w = play(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1"))
    assert GAME.bot_move(w, BOB, random.Random(0)) == ReactFee(card="fee-1")


def _play(n: int, opts: FantasyOptions, seed: int, bots: set[int]) -> list[int]:
    rng = random.Random(seed)
    s = GAME.setup(n, opts, random.Random(seed))
    for _ in range(3000):
        acting = sorted(GAME.to_act(s))
        if not acting:
            break
        seat = rng.choice(acting)
        move = GAME.bot_move(s, seat, rng) if seat in bots else rng.choice(GAME.legal_moves(s, seat))
        s = GAME.apply(s, seat, move, rng)
    assert s.end is not None
    return [scoring.score(s, i) for i in range(n)]


def test_bot_beats_random_play():
    wins = 0
    games = 8
    for seed in range(games):
        opts = FantasyOptions(expansion=seed % 2 == 1)
        scores = _play(2, opts, seed, bots={seed % 2})
        wins += scores[seed % 2] > scores[1 - seed % 2]
    assert wins >= 6, wins


@settings(max_examples=4, deadline=None)
@given(expansion=st.booleans(), n=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_bot_never_crashes(expansion: bool, n: int, seed: int):
    opts = FantasyOptions(
        expansion=expansion, large_base=True, korrigan_take="victim_chooses", replenish_take="giver_chooses"
    )
    scores = _play(n, opts, seed, bots=set(range(n)))
    assert len(scores) == n


def test_bot_moves_are_legal_in_decisions():
    s = make(
        2,
        hands={ANA: ["korrigan-1"], BOB: ["elfe-1", "fee-2", "biere-1"]},
        opts=FantasyOptions(korrigan_take="victim_chooses"),
    )
    s = play(play(s, ANA, creature("korrigan-1", target_player=BOB)), BOB, rules.ReactPass())
    move = GAME.bot_move(s, BOB, random.Random(0))
    assert move in GAME.legal_moves(s, BOB) and "fee-2" not in move.cards
    assert CID == 2


def _golden(n: int, expansion: bool) -> tuple[int, list[int], str]:
    rng = random.Random(2026)
    s = GAME.setup(n, FantasyOptions(expansion=expansion), random.Random(2026))
    moves = 0
    while GAME.to_act(s):
        seat = min(GAME.to_act(s))
        s = GAME.apply(s, seat, GAME.bot_move(s, seat, rng), rng)
        moves += 1
    return moves, [scoring.score(s, i) for i in range(n)], s.end.reason


def test_golden_playouts():
    """Bots in every seat with a fixed seed: any rule change that moves these numbers must be deliberate."""
    assert _golden(3, False) == (121, [15, 17, 15], "final_round")
    assert _golden(4, True) == (282, [31, 24, 23, 18], "replenish_failed")
