"""The conventions C0.1, C0.3, C0.4 and C0.8 (spec §5.1), each worked out by hand
from the rule text and the printed cards."""

from __future__ import annotations

from app.games.realms.options import RealmsOptions
from app.games.realms.scoring import score_hand, validate_choices
from tests.games.realms._realms_helpers import hand, points, score

H01 = "Mountain, Great Flood, Smoke, Whirlwind, Air Elemental, Wildfire, Mirage"


def test_c0_1_mirage_names_a_card_outside_the_hand_and_the_hand_scores_alone():
    # Rainstorm is in nobody's hand here: Mirage may still become it (C0.1, A20).
    chosen = validate_choices(hand(H01), {"mirage": "rainstorm"}, RealmsOptions())
    assert chosen["mirage"] == "rainstorm"
    assert score_hand(hand(H01), {"mirage": "rainstorm"}, RealmsOptions()).total == 260


def test_c0_3_suit_tests_use_the_current_suit():
    # The Book of Changes makes the Enchantress a Land: she now counts as a Land
    # for her own "+5 per Land" (C0.3 with C0.4): 5 + 5, and the Book scores 3.
    assert points(score("Enchantress, Book of Changes", {"book_of_changes": ("Enchantress", "Land")})) == {
        "Enchantress": 10,
        "Book of Changes": 3,
    }


def test_c0_4_per_other_leaves_the_card_itself_out():
    assert points(score("Earth Elemental")) == {"Earth Elemental": 4}
    assert points(score("Earth Elemental, Mountain")) == {"Earth Elemental": 19, "Mountain": 9}


def test_c0_4_per_counts_every_active_match():
    # Enchantress: +5 per Land, Weather, Flood and Flame: Mountain, Rainstorm, Swamp.
    # Rainstorm: +10 per Flood (Swamp). Swamp: -3 per Army and per Flame (none).
    assert points(score("Enchantress, Mountain, Rainstorm, Swamp")) == {
        "Enchantress": 20,
        "Mountain": 9,
        "Rainstorm": 18,
        "Swamp": 18,
    }


def test_c0_8_clearing_removes_the_penalty_and_keeps_the_bonus():
    # Without Cavern, Rainstorm blanks the Fire Elemental. Cavern clears every
    # Weather's penalty: the blank is gone, Rainstorm keeps +10 for the Flood.
    without = points(score("Rainstorm, Water Elemental, Fire Elemental"))
    assert without == {"Rainstorm": 18, "Water Elemental": 4, "Fire Elemental": 0}
    cleared = points(score("Rainstorm, Cavern, Water Elemental, Fire Elemental"))
    assert cleared == {"Rainstorm": 18, "Cavern": 6, "Water Elemental": 4, "Fire Elemental": 4}


def test_c0_8_protection_rune_clears_negative_points_too():
    assert points(score("Warlock Lord, King")) == {"Warlock Lord": 15, "King": 8}
    assert points(score("Warlock Lord, King, Protection Rune")) == {
        "Warlock Lord": 25,
        "King": 8,
        "Protection Rune": 1,
    }
