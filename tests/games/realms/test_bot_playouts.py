"""Bot-only games on many fixed seeds, every player count and two-player
variant: the bot never raises and every game reaches a result. (Bot-vs-bot
playouts found a search bound that crashed on a 2-card hand.)"""

from __future__ import annotations

import random

import pytest

from app.games.realms import GAME
from app.games.realms.options import RealmsOptions

CASES = [(2, v, seed) for v in ("seed", "published", "none") for seed in range(25)] + [
    (n, "seed", seed) for n in (3, 4, 5, 6) for seed in range(4)
]


@pytest.mark.parametrize(("players", "variant", "seed"), CASES)
def test_bot_only_game_reaches_a_result(players, variant, seed):
    rng = random.Random(seed)
    state = GAME.setup(players, RealmsOptions(two_player_variant=variant), rng)
    for _ in range(1000):
        if not GAME.to_act(state):
            break
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.bot_move(state, seat, rng), rng)
    result = GAME.result(state)
    assert result is not None and len(result.seats) == players
