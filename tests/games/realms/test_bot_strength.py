"""The bot plays sensibly: over fixed seeds it clearly beats a player who
picks random legal moves (a bot that played at random would not)."""

from __future__ import annotations

import random

from app.games.realms import GAME
from app.games.realms.options import RealmsOptions


def _play(seed: int, bot_seat: int, variant: str) -> tuple[int, int]:
    rng = random.Random(seed)
    options = RealmsOptions(two_player_variant=variant, final_choices="automatic")
    state = GAME.setup(2, options, rng)
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        if seat == bot_seat:
            move = GAME.bot_move(state, seat, rng)
        else:
            move = rng.choice(GAME.legal_moves(state, seat))
        state = GAME.apply(state, seat, move, rng)
    result = GAME.result(state)
    assert result is not None
    scores = {s.seat: s.score for s in result.seats}
    return scores[bot_seat], scores[1 - bot_seat]


def test_bot_beats_random_play_in_most_games():
    wins = 0
    games = 0
    for seed in range(12):
        for variant in ("none", "seed"):
            bot, other = _play(seed, seed % 2, variant)
            wins += bot > other
            games += 1
    assert wins >= games * 3 // 4, f"the bot won only {wins} of {games}"
