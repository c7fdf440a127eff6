"""The game-flow examples of spec §11.8 (F1-F15), one test each. Spec seats are numbered from 1; the
server numbers them from 0, so "seat 2" is index 1, P1 is index 0 and P2 index 1."""

from __future__ import annotations

import json

from app.games.realms import rules
from app.games.realms.state import RealmsState, all_slugs
from app.games.realms.view import view
from tests.games.realms.helpers import filler, log_texts, make_state, play, rejected

TAKE_DECK = {"action": "take", "source": "deck"}
CONFIRM = {"action": "final_choices_confirm"}


def take(card: str) -> dict[str, str]:
    return {"action": "take", "source": "discard", "card": card}


def discard(card: str) -> dict[str, str]:
    return {"action": "discard", "card": card}


def f1_state(**options: object) -> RealmsState:
    """Standard game, 4 players; seat 2 starts. Discard area empty, deck 25. Dragon on top of the deck."""
    cards = filler(28, exclude=["dragon"])
    hands = [cards[i * 7 : (i + 1) * 7] for i in range(4)]
    state = make_state(hands, active=1, deck_top=["dragon"], **options)  # type: ignore[arg-type]
    assert len(state.deck) == 25
    return state


def test_f1_take_from_empty_discard_area() -> None:
    err = rejected(f1_state(), 1, take("dragon"))
    assert err.message == "The discard area is empty: take the top card of the deck."


def test_f2_discard_first() -> None:
    state = f1_state()
    err = rejected(state, 1, discard(state.hands[1][0]))
    assert err.message == "Take a card first (deck or discard area)."


def test_f3_out_of_turn() -> None:
    err = rejected(f1_state(), 2, TAKE_DECK)
    assert err.message == "It is not your turn."


def test_f4_take_from_deck_and_discard_it() -> None:
    state = f1_state()
    hand_before = state.hands[1]
    state = play(state, 1, TAKE_DECK)
    assert state.turn.taken[0].card == "dragon"
    state = play(state, 1, discard("dragon"))
    assert sorted(state.hands[1]) == sorted(hand_before)
    assert len(state.deck) == 24
    assert state.discard_area == ("dragon",)
    for seat in (None, 0, 1, 2, 3):
        texts = log_texts(view(state, seat))
        assert any(t.startswith("Seat 2 took the top card of the deck") for t in texts)
        assert "Seat 2 discarded Dragon." in texts
    assert state.active == 2


def f5_state(**options: object) -> RealmsState:
    cards = filler(27, exclude=["dragon", "mountain"])
    hands = [cards[0:7], cards[7:14], ["mountain", *cards[14:20]], cards[20:27]]
    state = make_state(hands, active=2, discard_area=["dragon"], deck_size=24, **options)  # type: ignore[arg-type]
    return state


def test_f5_take_the_discarded_card() -> None:
    state = f5_state()
    state = play(state, 2, take("dragon"))
    state = play(state, 2, discard("mountain"))
    assert state.discard_area == ("mountain",)
    assert len(state.deck) == 24
    texts = log_texts(view(state, 0))
    assert "Seat 3 took Dragon from the discard area." in texts
    assert "Seat 3 discarded Mountain." in texts
    strict = play(f5_state(may_discard_taken_card=False), 2, take("dragon"))
    err = rejected(strict, 2, discard("dragon"))
    assert err.message == "You cannot discard the card you just took from the discard area."


def test_f6_nine_cards_game_continues() -> None:
    cards = filler(28 + 9)
    hands = [cards[i * 7 : (i + 1) * 7] for i in range(4)]
    state = make_state(hands, discard_area=cards[28:], active=0)
    state = play(state, 0, take(cards[30]))
    assert len(state.discard_area) == 8
    state = play(state, 0, discard(hands[0][0]))
    assert len(state.discard_area) == 9
    assert state.phase == "play" and state.active == 1


def test_f7_tenth_discard_ends_the_game_at_once() -> None:
    cards = filler(28 + 9)
    hands = [cards[i * 7 : (i + 1) * 7] for i in range(4)]
    state = make_state(hands, discard_area=cards[28:], active=1, first_player=0)
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, discard(hands[1][0]))
    assert len(state.discard_area) == 10
    assert state.phase == "final_choices"
    assert rejected(state, 2, TAKE_DECK).code == "game_over"
    assert rejected(state, 3, TAKE_DECK).code == "game_over"


def test_f8_seed_empty_hand_takes_two() -> None:
    state = make_state([[], []], deck_top=["swamp", "hydra"])
    assert len(state.deck) == 53
    state = play(state, 0, TAKE_DECK)
    assert state.hands[0] == ("swamp",)
    err = rejected(state, 0, discard("swamp"))
    assert err.message == "You had no cards at the start of your turn: take a second card."
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard("swamp"))
    assert state.hands[0] == ("hydra",)
    assert state.discard_area == ("swamp",)
    assert len(state.deck) == 51


def test_f9_seed_discard_a_card_held_by_the_other_player() -> None:
    def start() -> RealmsState:
        s = make_state([["hydra"], []], active=1, discard_area=["swamp"], deck_top=["knights"])
        s = play(s, 1, take("swamp"))
        return play(s, 1, TAKE_DECK)

    state = start()
    err = rejected(state, 1, discard("hydra"))
    assert err.message == "You do not hold that card."
    after = play(state, 1, discard("knights"))
    assert after.hands[1] == ("swamp",) and after.discard_area == ("knights",)
    after = play(start(), 1, discard("swamp"))
    assert after.hands[1] == ("knights",) and after.discard_area == ("swamp",)


def test_f10_seed_swap() -> None:
    state = make_state([["hydra", "forge", "candle"], []], active=0)
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard("forge"))
    assert len(state.hands[0]) == 3
    assert state.discard_area == ("forge",)


def test_f11_seed_two_takes_then_an_older_card() -> None:
    hand = ["hydra", "forge", "candle", "king"]
    state = make_state([hand, []], active=0, discard_area=["swamp"])
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, take("swamp"))
    err = rejected(state, 0, discard("king"))
    assert err.message == "Discard one of the two cards you took this turn."


def test_f12_seed_end_when_both_hands_full() -> None:
    cards = filler(7 + 6 + 14)
    p1, p2, pile = cards[:7], cards[7:13], cards[13:]
    state = make_state([p1, p2], active=0, discard_area=pile)
    state = play(state, 0, TAKE_DECK)
    err = rejected(state, 0, TAKE_DECK)
    assert err.message == "With 7 cards you take one card and discard one."
    state = play(state, 0, discard(p1[0]))
    assert len(state.discard_area) == 15
    assert state.phase == "play" and state.active == 1
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, discard(state.turn.taken[0].card))
    assert len(state.discard_area) == 16
    assert [len(h) for h in state.hands] == [7, 7]
    assert state.phase == "final_choices"


def test_f13_published_draw_two() -> None:
    state = make_state([[], []], active=0, deck_top=["knights", "queen"], two_player_variant="published")
    err = rejected(state, 0, take("knights"))
    assert err.message == "The discard area is empty: draw two from the deck."
    state = play(state, 0, {"action": "draw_two"})
    assert set(view(state, 0)["hand"]) == {"knights", "queen"}
    state = play(state, 0, discard("knights"))
    assert state.hands[0] == ("queen",)
    state = play(state, 1, take("knights"))
    assert state.hands[1] == ("knights",)
    assert state.discard_area == ()
    assert state.active == 0


ANN = ["mirage", "whirlwind", "air-elemental", "smoke", "wildfire", "mountain", "great-flood"]
BEN = ["light-cavalry", "dwarvish-infantry", "warlock-lord", "swamp", "knights", "hydra", "empress"]
CAT = ["forge", "blizzard", "unicorn", "lightning", "war-dirigible", "warlord", "sword-of-keth"]


def test_f14_final_choices_confirmation_and_deadline() -> None:
    pile = filler(9, exclude=[*ANN, *BEN, *CAT, "rainstorm", "rangers"])
    state = make_state([ANN, BEN, CAT], discard_area=pile, active=2, first_player=0, deck_top=["rangers"])
    state = play(state, 2, TAKE_DECK)
    state = play(state, 2, discard(state.turn.taken[0].card))
    assert state.phase == "final_choices"
    assert state.final[2].preselection == {}  # Cat holds no choice card

    state = play(state, 1, CONFIRM)  # Ben at once
    state = play(state, 0, {"action": "final_choices_update", "choices": {"mirage": "rainstorm"}})
    preview = view(state, 0)["final_choices"]["mine"]["preview"]
    assert preview["choices"]["mirage"] == "rainstorm"
    state = play(state, 0, CONFIRM)

    for seat in (None, 1, 2):
        v = view(state, seat)
        assert v["final_choices"]["status"] == [
            {"seat": 0, "confirmed": True},
            {"seat": 1, "confirmed": True},
            {"seat": 2, "confirmed": False},
        ]
        text = json.dumps(v)
        for card in [*ANN, "rainstorm"]:
            assert json.dumps(card) not in text, (seat, card)
        if seat != 1:
            for card in BEN:
                assert json.dumps(card) not in text
        assert v["hands"] is None and v["result"] is None

    # the deadline passes: the platform confirms the waiting seats (E9)
    state = play(state, 1, {"action": "force_final_choices"}, host=True)
    assert state.phase == "finished"
    assert state.final[2].draft == {} and state.final[2].automatic
    texts = log_texts(view(state, None))
    assert "Seat 3 was confirmed automatically (best choice)." in texts
    spectator = view(state, None)
    slug_order = list(all_slugs())
    assert spectator["hands"] == [sorted(h, key=slug_order.index) for h in (ANN, BEN, CAT)]
    assert spectator["scores"][0]["choices"] == {"mirage": "rainstorm"}
    assert [s["seat"] for s in spectator["result"]["seats"]] == [0, 1, 2]
    assert all(s["lines"] for s in spectator["result"]["seats"])
    assert {s["rank"] for s in spectator["result"]["seats"]} >= {1}


def test_f15_hidden_deck_card() -> None:
    cards = filler(21, exclude=["dragon"])
    ann, ben, cat = cards[:7], cards[7:14], cards[14:21]
    pile = filler(3, exclude=[*cards, "dragon"])
    state = make_state([ann, ben, cat], active=1, discard_area=pile, deck_top=["dragon"])
    state = play(state, 1, TAKE_DECK)
    v = view(state, 0)
    assert v["hand"] == sorted(ann, key=list(all_slugs()).index)
    assert v["hand_sizes"] == [7, 8, 7]
    assert v["deck_size"] == len(state.deck)
    assert v["discard_area"] == pile
    assert "Seat 2 took the top card of the deck." in log_texts(v)
    assert '"dragon"' not in json.dumps(v) and "Dragon" not in json.dumps(v)
    spectator = view(state, None)
    assert spectator == {**v, "seat": None, "hand": None}
    assert "Seat 2 took the top card of the deck (Dragon)." in log_texts(view(state, 1))
    # discarded: now public
    state = play(state, 1, discard("dragon"))
    v = view(state, 0)
    assert v["hand_sizes"] == [7, 7, 7]
    assert "Seat 2 discarded Dragon." in log_texts(v)
    # kept: never shown
    state = make_state([ann, ben, cat], active=1, discard_area=pile, deck_top=["dragon"])
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, discard(ben[0]))
    for seat in (None, 0, 2):
        assert "Dragon" not in json.dumps(view(state, seat)) and '"dragon"' not in json.dumps(
            view(state, seat)
        )
    assert rules.to_act(state) == {2}
