"""The view (§8, R2): what each seat and a spectator may know, and nothing more."""

from __future__ import annotations

import json
import random

from app.games.realms import GAME, rules
from app.games.realms.options import RealmsOptions
from app.games.realms.state import all_slugs
from app.games.realms.view import hidden_from, view
from tests.games.realms.helpers import (
    NO_CHOICE_HANDS,
    ended_state,
    filler,
    log_texts,
    make_state,
    play,
    strings,
)

TAKE_DECK = {"action": "take", "source": "deck"}

KEYS = {
    "game",
    "seat",
    "seats",
    "mode",
    "options",
    "phase",
    "first_player",
    "active_seat",
    "to_act",
    "turns_played",
    "deck_size",
    "discard_area",
    "hand_sizes",
    "hand",
    "turn",
    "prompt",
    "moves",
    "final_choices",
    "hands",
    "result",
    "scores",
    "log",
}


def three() -> list[list[str]]:
    cards = filler(21)
    return [cards[:7], cards[7:14], cards[14:]]


def test_view_shape_and_public_counts() -> None:
    state = rules.setup(4, RealmsOptions(), random.Random(5))
    for seat in (None, 0, 1, 2, 3):
        v = view(state, seat)
        assert set(v) == KEYS
        assert v["deck_size"] == 25 and v["hand_sizes"] == [7, 7, 7, 7]
        assert v["discard_area"] == [] and v["phase"] == "play"
        assert v["active_seat"] == state.first_player
        json.dumps(v)  # JSON-ready
    assert view(state, 2)["hand"] == sorted(state.hands[2], key=list(all_slugs()).index)
    assert view(state, None)["hand"] is None


def test_view_never_shows_other_hands_or_deck() -> None:
    state = rules.setup(5, RealmsOptions(), random.Random(8))
    for seat in (None, 0, 1, 2, 3, 4):
        seen = strings(view(state, seat))
        for other, hand in enumerate(state.hands):
            if other != seat:
                assert not seen & set(hand)
        assert not seen & set(state.deck)


def test_view_discard_area_in_discard_order() -> None:
    hands = three()
    pile = filler(3, exclude=[c for h in hands for c in h])[::-1]
    state = make_state(hands, discard_area=pile)
    assert view(state, None)["discard_area"] == pile


def test_view_prompts() -> None:
    hands = three()
    state = make_state(hands, active=1)
    assert view(state, 1)["prompt"] == {"text": "Take the top card of the deck.", "params": {}}
    assert view(state, 0)["prompt"] == {
        "text": "Waiting for %(player)s.",
        "params": {"seat": 1, "player": "Seat 2"},
    }
    took = play(state, 1, TAKE_DECK)
    assert view(took, 1)["prompt"]["text"] == "Discard a card."
    seed = make_state([[], ["dragon"]], active=0)
    seed = play(seed, 0, TAKE_DECK)
    assert view(seed, 0)["prompt"]["text"] == "Take a second card."
    seed = make_state([["dragon"], []], active=0)
    seed = play(seed, 0, TAKE_DECK)
    assert view(seed, 0)["prompt"]["text"] == "Take a second card, or discard a card to swap."
    seed = play(seed, 0, TAKE_DECK)
    assert view(seed, 0)["prompt"]["text"] == "Discard one of the two cards you took this turn."
    pub = make_state([[], []], two_player_variant="published")
    assert view(pub, 0)["prompt"]["text"] == "Take a card from the discard area, or draw two from the deck."
    pub = play(pub, 0, {"action": "draw_two"})
    assert view(pub, 0)["prompt"]["text"] == "Discard one of the two cards you drew."


def test_view_turn_shows_the_taken_card_to_the_taker_only() -> None:
    hands = three()
    state = make_state(hands, active=1, deck_top=["dragon"])
    state = play(state, 1, TAKE_DECK)
    assert view(state, 1)["turn"]["taken"] == [{"source": "deck", "card": "dragon"}]
    assert view(state, 0)["turn"]["taken"] == [{"source": "deck"}]
    assert view(state, None)["turn"]["taken"] == [{"source": "deck"}]
    assert view(state, 1)["hand_sizes"] == [7, 8, 7]


def test_view_moves_for_the_active_seat_only() -> None:
    state = make_state(three(), active=2)
    assert view(state, 2)["moves"] == [{"action": "take", "source": "deck", "card": None}]
    assert view(state, 0)["moves"] == [] and view(state, None)["moves"] == []


def test_view_log_private_lines() -> None:
    state = make_state(three(), active=0, deck_top=["dragon"])
    state = play(state, 0, TAKE_DECK)
    assert "Seat 1 took the top card of the deck (Dragon)." in log_texts(view(state, 0))
    for seat in (None, 1, 2):
        texts = log_texts(view(state, seat))
        assert "Seat 1 took the top card of the deck." in texts
        assert not any("Dragon" in t for t in texts)


def test_view_final_choices_private_and_public_parts() -> None:
    hands = [["mirage", *NO_CHOICE_HANDS[0][:6]], NO_CHOICE_HANDS[1], NO_CHOICE_HANDS[2]]
    state = ended_state(hands)
    own = view(state, 0)["final_choices"]
    assert own["status"] == [{"seat": s, "confirmed": False} for s in range(3)]
    assert own["deadline_minutes"] == 1440
    mine = own["mine"]
    assert mine["has_choices"] and mine["confirmed"] is False
    assert [c["key"] for c in mine["controls"]] == ["mirage"]
    control = mine["controls"][0]
    assert control["card"] == "mirage" and None in control["values"]
    assert "rainstorm" in control["values"] and "king" not in control["values"]
    assert isinstance(mine["preview"]["total"], int)
    assert view(state, 0)["prompt"]["text"] == "Make your end-of-game choices, then confirm."
    other = view(state, 1)
    assert other["final_choices"]["mine"]["has_choices"] is False
    assert other["prompt"]["text"] == "You have no end-of-game choices; confirm to reveal your hand"
    assert view(state, None)["final_choices"]["mine"] is None
    assert view(state, None)["prompt"]["text"] == "The players are making their end-of-game choices."
    assert "mirage" not in strings(other) and "mirage" not in strings(view(state, None))


def test_view_public_part_frozen_during_final_choices() -> None:
    # R2: a Necromancer draft changes neither the shown discard area nor the hand sizes
    hand = ["necromancer", *filler(6, exclude=["necromancer", "knights"])]
    pile = ["knights", *filler(8, exclude=[*hand, "knights"])]
    cards = filler(14, exclude=[*hand, *pile])
    state = make_state([hand, cards[:7], cards[7:]], discard_area=pile, active=1)
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, {"action": "discard", "card": state.turn.taken[0].card})
    before = {k: view(state, None)[k] for k in ("discard_area", "hand_sizes", "deck_size", "log")}
    state = play(state, 0, {"action": "final_choices_update", "choices": {"necromancer": "knights"}})
    after = {k: view(state, None)[k] for k in ("discard_area", "hand_sizes", "deck_size", "log")}
    assert before == after
    assert view(state, 0)["final_choices"]["mine"]["draft"]["necromancer"] == "knights"


def test_view_after_reveal_shows_everything() -> None:
    state = ended_state(NO_CHOICE_HANDS, final_choices="automatic")
    for seat in (None, 0, 2):
        v = view(state, seat)
        assert v["phase"] == "finished"
        assert v["prompt"]["text"] == "The game is over."
        assert [len(h) for h in v["hands"]] == [7, 7, 7]
        assert [s["seat"] for s in v["scores"]] == [0, 1, 2]
        assert {"total", "rank", "choices", "cards", "tie_break", "hand"} <= set(v["scores"][0])
        assert v["result"]["winners"] == [2]


def test_hidden_from_during_play() -> None:
    state = make_state(three(), active=0)
    hidden = hidden_from(state, 0).values
    assert hidden == frozenset([*state.hands[1], *state.hands[2], *state.deck])
    assert hidden_from(state, None).values == frozenset([*state.hands[0], *hidden])
    assert GAME.hidden_from(state, 1).values == frozenset([*state.hands[0], *state.hands[2], *state.deck])


def test_hidden_from_after_reveal_is_the_deck() -> None:
    state = ended_state(NO_CHOICE_HANDS, final_choices="automatic")
    for seat in (None, 0, 1):
        assert hidden_from(state, seat).values == frozenset(state.deck)
