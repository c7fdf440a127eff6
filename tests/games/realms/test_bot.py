"""The bot: always legal, deterministic given the rng, sensible, and blind to what its seat cannot see."""

from __future__ import annotations

import random

import pytest

from app.games.realms import GAME, rules
from app.games.realms.options import RealmsOptions
from app.games.realms.state import RealmsState
from tests.games.realms.helpers import NO_CHOICE_HANDS, dumped, ended_state, filler, make_state, play


def bot_game(seats: int, seed: int, **options: object) -> tuple[RealmsState, int]:
    rng = random.Random(seed)
    state = GAME.setup(seats, RealmsOptions(**options), rng)  # type: ignore[arg-type]
    moves = 0
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        move = GAME.bot_move(state, seat, rng)
        assert move in GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, move, rng)
        moves += 1
        assert moves < 500
    return state, moves


@pytest.mark.parametrize(
    ("seats", "variant"),
    [
        (2, "seed"),
        (2, "published"),
        (2, "none"),
        (3, "seed"),
        (4, "seed"),
        (5, "seed"),
        (6, "seed"),
    ],
)
def test_bot_plays_whole_games(seats: int, variant: str) -> None:
    state, _ = bot_game(seats, 17, two_player_variant=variant)
    assert state.phase == "finished"
    result = GAME.result(state)
    assert result is not None and len(result.seats) == seats and result.winners


def test_bot_is_deterministic_given_the_rng() -> None:
    a, n_a = bot_game(4, 99)
    b, n_b = bot_game(4, 99)
    assert GAME.dump_state(a) == GAME.dump_state(b) and n_a == n_b


def test_bot_takes_a_card_that_improves_its_hand() -> None:
    # King makes Knights lose their penalty, Warhorse gain +14 and pays +5 per Army
    hand = [
        "knights",
        "light-cavalry",
        "dwarvish-infantry",
        "elven-archers",
        "rangers",
        "warhorse",
        "magic-wand",
    ]
    others = filler(14, exclude=[*hand, "king"])
    state = make_state([hand, others[:7], others[7:]], discard_area=["king"])
    move = GAME.bot_move(state, 0, random.Random(1))
    assert dumped([move]) == [{"action": "take", "source": "discard", "card": "king"}]


def test_bot_discards_the_card_that_hurts_least() -> None:
    # Great Flood would blank every Army and Land of this hand
    hand = ["king", "queen", "knights", "light-cavalry", "dwarvish-infantry", "elven-archers", "warhorse"]
    others = filler(14, exclude=[*hand, "great-flood"])
    state = make_state([hand, others[:7], others[7:]], deck_top=["great-flood"])
    state = play(state, 0, {"action": "take", "source": "deck"})
    move = GAME.bot_move(state, 0, random.Random(1))
    assert dumped([move]) == [{"action": "discard", "card": "great-flood"}]


def test_bot_grows_its_hand_in_the_seed_variant() -> None:
    state = make_state([["dragon"], []])
    state = play(state, 0, {"action": "take", "source": "deck"})
    move = GAME.bot_move(state, 0, random.Random(3))
    assert isinstance(move, rules.Take)  # a second take rather than a swap


def test_bot_confirms_its_final_choices() -> None:
    hands = [["mirage", *NO_CHOICE_HANDS[0][:6]], NO_CHOICE_HANDS[1], NO_CHOICE_HANDS[2]]
    state = ended_state(hands)
    move = GAME.bot_move(state, 0, random.Random(0))
    assert isinstance(move, rules.FinalChoicesConfirm)
    with pytest.raises(ValueError):
        GAME.bot_move(state.model_copy(update={"phase": "finished"}), 0, random.Random(0))


def test_bot_does_not_look_at_hidden_cards() -> None:
    hand = [
        "knights",
        "light-cavalry",
        "dwarvish-infantry",
        "elven-archers",
        "rangers",
        "warhorse",
        "magic-wand",
    ]
    others = filler(14, exclude=[*hand, "king", "hydra"])
    a = make_state([hand, others[:7], others[7:]], discard_area=["king", "hydra"])
    swapped = [others[7:], others[:7]]
    b = make_state([hand, *swapped], discard_area=["king", "hydra"])
    b = b.model_copy(update={"deck": tuple(reversed(b.deck))})
    for seed in range(5):
        assert GAME.bot_move(a, 0, random.Random(seed)) == GAME.bot_move(b, 0, random.Random(seed))
