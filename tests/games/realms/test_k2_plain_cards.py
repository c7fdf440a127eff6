"""Behaviour of the K2 card dicts of hands with no choice made.

`HandScore.to_dict()` builds the "cards" of such a hand straight from the lean
evaluation's state (`_plain_k2_cards`); once the breakdown (`cards`) has been read,
it is built from the breakdown instead. Both must give the same body, key order
included, under every option: numbers, statuses, reasons and notes.

No timing here: speed is measured by bench/realms_bench.py."""

from __future__ import annotations

import json
import random

import pytest

from app.games.realms import scoring as sc
from app.games.realms.options import RealmsOptions
from tests.games.realms.test_perf_lean_scoring import ALL_OPTIONS, HOT, SLUGS


def both_paths(cards: list[str], choices: dict | None, options: RealmsOptions) -> tuple[str, str]:
    """The K2 body as built from the lean state, and as built from the breakdown."""
    lean = sc.score_hand(cards, choices, options)
    via_lean = json.dumps(lean.to_dict())
    readable = sc.score_hand(cards, choices, options)
    assert readable.cards  # the breakdown is built: to_dict() now reads it
    return via_lean, json.dumps(readable.to_dict())


def random_hand(rng: random.Random) -> list[str]:
    pool = HOT if rng.random() < 0.6 else SLUGS
    n = rng.choice([7, 7, 7, 8, 5, 3, 1])
    return rng.sample(sorted(set(pool) | set(rng.sample(SLUGS, 8))), n)


@pytest.mark.parametrize("seed", range(3))
def test_plain_hands_give_the_same_body_from_the_lean_state_and_from_the_breakdown(seed):
    rng = random.Random(seed)
    for _ in range(700):
        cards = random_hand(rng)
        options = rng.choice(ALL_OPTIONS)
        choices = rng.choice([None, {}, dict.fromkeys(sc.choice_keys(cards))])
        via_lean, via_breakdown = both_paths(cards, choices, options)
        assert via_lean == via_breakdown, (cards, options)


def test_a_plain_hand_takes_the_lean_path_and_a_chosen_one_the_breakdown():
    cards = ["mountain", "great-flood", "smoke", "whirlwind", "air-elemental", "wildfire", "mirage"]
    assert sc.score_hand(cards)._lean is not None
    assert sc.score_hand(cards, {"mirage": None})._lean is not None
    assert sc.score_hand(cards, {"mirage": "rainstorm"})._lean is None


def test_to_dict_returns_fresh_lists_and_dicts():
    cards = ["king", "queen", "knights", "elven-archers", "rangers", "forest", "unicorn"]
    result = sc.score_hand(cards)
    first = result.to_dict()
    first["cards"][0]["notes"].append("changed")
    first["options"]["gem_mode"] = "changed"
    assert result.to_dict() == sc.score_hand(cards).to_dict()
    assert "changed" not in json.dumps(result.to_dict())


@pytest.mark.parametrize(
    ("cards", "mode", "reasons"),
    [
        # E16 resolves by position: a card after one blanker and before another is
        # blanked by the first alone; the reference scorer names both
        (["rainstorm", "candle", "great-flood"], "layered", [None, "blanked by Rainstorm", None]),
        (
            ["rainstorm", "candle", "great-flood"],
            "reference_scorer",
            [None, "blanked by Rainstorm, Great Flood (reference scorer)", None],
        ),
        (
            ["candle", "rainstorm", "great-flood"],
            "layered",
            ["blanked by Rainstorm, Great Flood", None, None],
        ),
    ],
)
def test_blanked_by_names_the_blankers_as_the_breakdown_does(cards, mode, reasons):
    options = RealmsOptions(blanking_resolution=mode)
    body = sc.score_hand(cards, {}, options).to_dict()
    assert [c["reason"] for c in body["cards"]] == reasons
    assert json.dumps(body) == both_paths(cards, {}, options)[1]


@pytest.mark.parametrize(
    "cards",
    [
        # blankers matched by blankers (mutual blanks, chains)
        ["great-flood", "blizzard", "wildfire", "basilisk", "rainstorm", "candle", "knights"],
        ["blizzard", "great-flood", "rangers", "swamp", "island", "forge", "lightning"],
        ["wildfire", "basilisk", "unicorn", "dragon", "hydra", "warhorse", "king"],
        # self-blanking, clears and the word Army
        ["smoke", "war-dirigible", "warship", "swamp", "dwarvish-infantry", "rangers", "air-elemental"],
        ["protection-rune", "great-flood", "smoke", "warship", "dragon", "knights", "basilisk"],
        ["mountain", "cavern", "beastmaster", "swamp", "blizzard", "basilisk", "war-dirigible"],
        # unused wild cards, the Collector, the Gem of Order, the World Tree
        ["doppelganger", "mirage", "shapeshifter", "collector", "gem-of-order", "world-tree", "wildfire"],
    ],
)
def test_hot_hands_give_the_same_body_under_every_option(cards):
    for options in ALL_OPTIONS:
        via_lean, via_breakdown = both_paths(cards, {}, options)
        assert via_lean == via_breakdown, options


def test_breakdown_lines_are_unchanged_by_reading_the_k2_body_first():
    rng = random.Random(5)
    for _ in range(200):
        cards = random_hand(rng)
        options = rng.choice(ALL_OPTIONS)
        first = sc.score_hand(cards, {}, options)
        first.to_dict()
        assert sc.breakdown_lines(first) == sc.breakdown_lines(sc.score_hand(cards, {}, options))
