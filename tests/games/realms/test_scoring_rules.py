"""One test per card rule (C0.x, C1-C54) and scoring step (E12-E21) of the spec.
Expected values are worked out by hand from the rule text."""

from __future__ import annotations

import pytest

from app.games.realms.options import RealmsOptions
from app.games.realms.scoring import (
    CHOICE_KEYS,
    ChoiceError,
    breakdown_lines,
    choice_keys,
    choice_values,
    rank,
    ranking,
    validate_choices,
)
from tests.games.realms._realms_helpers import card, choices, hand, per_card, points, score

B = "book_of_changes"


# --- conventions C0.x -------------------------------------------------------------------------


def test_c0_2_counts_only_active_cards():
    # Smoke has no Flame, blanks itself, and is then not an "other Weather" for Air Elemental.
    assert points(score("Air Elemental, Smoke")) == {"Air Elemental": 4, "Smoke": 0}


def test_c0_5_with_is_paid_once():
    r = score("Bell Tower, Necromancer, Warlock Lord")
    assert card(r, "Bell Tower").total == 23


def test_c0_5_card_meets_its_own_suit_condition():
    assert points(score("Bell Tower, Book of Changes", {B: ("Bell Tower", "Wizard")})) == {
        "Bell Tower": 23,
        "Book of Changes": 3,
    }


def test_c0_6_alternatives_pay_the_larger_only():
    assert per_card(score("King, Queen, Knights")) == [28, 26, 20]


def test_c0_7_card_score_is_base_bonus_penalty():
    c = card(score("Empress, Knights, King"), "Empress")
    assert (c.base, c.bonus, c.penalty, c.total) == (15, 10, -5, 20)


def test_c0_10_blanked_card_scores_zero_and_has_no_suit():
    r = score("Great Flood, Forest, Earth Elemental")
    assert per_card(r) == [32, 0, 0]
    assert card(r, "Forest").status == "blanked"


def test_c0_11_copy_of_mountain_does_not_clear():
    assert score("Mirage, Great Flood, Knights", {"mirage": "Mountain"}).total == 32


def test_c0_12_unused_wild_has_no_suit():
    assert per_card(score("Mirage, Air Elemental")) == [0, 4]
    assert per_card(score("Mirage, Air Elemental", unused_wild_suit="wild")) == [0, 4]


def test_c0_13_duplicate_names_count_once_for_collector():
    assert (
        score(
            "Collector, Shield of Keth, Gem of Order, Shapeshifter, Doppelgänger",
            {"doppelganger": "Shield of Keth", "shapeshifter": "Shield of Keth"},
        ).total
        == 20
    )


# --- cards C1-C53 -----------------------------------------------------------------------------


def test_c01_mountain_bonus_with_smoke_and_wildfire():
    assert per_card(score("Mountain, Smoke, Wildfire")) == [59, 27, 40]


def test_c01_mountain_clears_every_flood():
    assert per_card(score("Mountain, Swamp, Knights")) == [9, 18, 12]


def test_c02_cavern_bonus_with_dragon():
    assert per_card(score("Cavern, Dragon")) == [31, -10]


def test_c02_cavern_clears_every_weather():
    assert per_card(score("Cavern, Smoke")) == [6, 27]


def test_c03_bell_tower_with_any_wizard():
    assert per_card(score("Bell Tower, Necromancer")) == [23, 3]
    assert per_card(score("Bell Tower")) == [8]


def test_c04_forest_per_beast_and_elven_archers():
    assert per_card(score("Forest, Unicorn, Hydra, Elven Archers")) == [43, 9, 12, 15]


def test_c05_earth_elemental_per_other_land():
    assert per_card(score("Earth Elemental, Mountain, Cavern")) == [34, 9, 6]


def test_c06_fountain_of_life_adds_highest_base_of_one_card():
    assert per_card(score("Fountain of Life")) == [2]
    assert per_card(score("Fountain of Life, Swamp, Knights")) == [19, 15, 12]


def test_c07_swamp_per_army_and_flame():
    assert per_card(score("Swamp, Knights, Fire Elemental")) == [12, 12, 4]


def test_c08_great_flood_blanks_armies_lands_flames_except_mountain_lightning():
    assert per_card(score("Great Flood, Lightning, Knights, Forest, Candle, Unicorn")) == [32, 11, 0, 0, 0, 9]
    r = score("Mirage, Great Flood, Knights", {"mirage": "Mountain"})
    assert card(r, "Mirage").status == "active"


def test_c09_island_clears_a_flood_or_flame():
    assert per_card(score("Island, Swamp, Knights", {"island": "Swamp"})) == [14, 18, 12]
    assert per_card(score("Island, Swamp, Knights")) == [14, 15, 12]


def test_c10_water_elemental_per_other_flood():
    assert per_card(score("Water Elemental, Swamp, Island")) == [34, 18, 14]


def test_c11_rainstorm_per_flood_and_blanks_flames_except_lightning():
    assert per_card(score("Rainstorm, Swamp, Candle, Lightning")) == [18, 15, 0, 41]


def test_c12_blizzard_blanks_floods_and_counts_leaders_beasts_flames_armies():
    assert per_card(score("Blizzard, Island, King, Knights")) == [20, 0, 13, 20]


def test_c13_smoke_blanked_without_flame():
    assert per_card(score("Smoke")) == [0]
    assert per_card(score("Smoke, Candle")) == [27, 2]


def test_c14_whirlwind_with_rainstorm_and_blizzard_or_great_flood():
    assert per_card(score("Whirlwind, Rainstorm, Blizzard")) == [53, 8, 30]
    assert per_card(score("Whirlwind, Rainstorm, Great Flood")) == [53, 18, 32]
    assert per_card(score("Whirlwind, Rainstorm")) == [13, 8]


def test_c15_air_elemental_per_other_weather():
    assert per_card(score("Air Elemental, Smoke, Whirlwind, Candle")) == [34, 27, 13, 2]


def test_c16_wildfire_blanks_all_but_listed_suits_and_names():
    assert per_card(score("Wildfire, Knights, Unicorn, Forest, Mountain, Queen")) == [40, 0, 9, 0, 9, 0]


def test_c16_wildfire_not_stopped_by_rangers():
    assert per_card(score("Wildfire, Rangers, Knights")) == [40, 0, 0]


def test_c16_wildfire_spares_unused_wild_option():
    assert card(score("Wildfire, Mirage"), "Mirage").status == "active"
    assert card(score("Wildfire, Mirage", wildfire_spares_unused_wild=False), "Mirage").status == "blanked"


def test_c17_candle_with_book_bell_tower_and_wizard():
    assert per_card(score("Candle, Book of Changes, Bell Tower, Necromancer")) == [102, 3, 23, 3]
    assert per_card(score("Candle, Book of Changes, Bell Tower")) == [2, 3, 8]


def test_c18_forge_per_weapon_and_artifact():
    assert per_card(score("Forge, Magic Wand, Shield of Keth")) == [27, 1, 4]


def test_c19_lightning_with_rainstorm():
    assert per_card(score("Lightning, Rainstorm")) == [41, 8]


def test_c20_fire_elemental_per_other_flame():
    assert per_card(score("Fire Elemental, Candle, Forge")) == [34, 2, 9]


def test_c21_knights_minus_8_without_leader():
    assert per_card(score("Knights")) == [12]
    assert per_card(score("Knights, King")) == [20, 13]


def test_c22_elven_archers_plus_5_without_weather():
    assert per_card(score("Elven Archers")) == [15]
    assert per_card(score("Elven Archers, Whirlwind")) == [10, 13]


def test_c23_light_cavalry_minus_2_per_land():
    assert per_card(score("Light Cavalry, Mountain, Cavern")) == [13, 9, 6]


def test_c24_dwarvish_infantry_minus_2_per_other_army():
    assert per_card(score("Dwarvish Infantry, Knights")) == [13, 12]
    assert per_card(score("Dwarvish Infantry, Knights, Rangers")) == [15, 12, 5]


def test_c25_rangers_per_land():
    assert per_card(score("Rangers, Mountain, Cavern")) == [25, 9, 6]


def test_c25_rangers_remove_army_even_when_blanked():
    # Wildfire blanks Rangers, yet the Dirigible still needs no Army (C0.2, C0.9).
    assert per_card(score("Wildfire, Rangers, War Dirigible")) == [40, 0, 35]
    assert per_card(score("Wildfire, Knights, War Dirigible")) == [40, 0, 0]


def test_c26_collector_sum_over_suits_and_best_suit():
    names = "Collector, Beastmaster, Enchantress, Unicorn, Warhorse, Dragon, Hydra"
    assert card(score(names), "Collector").total == 57
    assert card(score(names, collector_mode="best_suit"), "Collector").total == 47


def test_c27_beastmaster_per_beast_and_clears_beasts():
    assert per_card(score("Beastmaster, Basilisk, Knights")) == [18, 35, 12]


def test_c28_necromancer_extra_card_stays_when_necromancer_blanked():
    r = score(
        "Necromancer, Book of Changes, Great Flood", {"necromancer": "King", B: ("Necromancer", "Land")}
    )
    assert per_card(r) == [0, 3, 32, 8]
    assert r.legal_hand is False  # 4 cards: a partial hand, still scored


def test_c29_warlock_lord_per_leader_and_other_wizard():
    assert per_card(score("Warlock Lord, Necromancer, King")) == [5, 3, 8]


def test_c30_enchantress_per_land_weather_flood_flame():
    assert per_card(score("Enchantress, Mountain, Island, Candle")) == [20, 9, 14, 2]


def test_c31_king_per_army_more_with_queen():
    assert per_card(score("King, Knights")) == [13, 20]
    assert per_card(score("King, Queen, Knights")) == [28, 26, 20]


def test_c32_queen_per_army_more_with_king():
    assert per_card(score("Queen, Knights")) == [11, 20]


def test_c33_princess_per_army_wizard_other_leader():
    assert per_card(score("Princess, Knights, Necromancer, King")) == [26, 20, 3, 13]


def test_c34_warlord_sums_army_strengths():
    assert per_card(score("Warlord, Knights, Light Cavalry")) == [41, 20, 17]
    assert per_card(score("Warlord, Knights, Doppelgänger", {"doppelganger": "Knights"})) == [44, 20, 20]
    assert per_card(score("Warlord, Knights, Mirage", {"mirage": "Knights"})) == [24, 20, 0]


def test_c35_empress_per_army_minus_other_leaders():
    assert per_card(score("Empress, Knights, King")) == [20, 20, 13]


def test_c36_unicorn_princess_or_empress_queen_enchantress():
    assert per_card(score("Unicorn, Princess")) == [39, 2]
    assert per_card(score("Unicorn, Enchantress")) == [24, 5]
    assert per_card(score("Unicorn, Princess, Queen")) == [39, 10, 6]


def test_c37_basilisk_blanks_armies_leaders_other_beasts():
    assert per_card(score("Basilisk, Knights, King, Unicorn, Forest")) == [35, 0, 0, 0, 19]


def test_c38_warhorse_with_leader_or_wizard():
    assert per_card(score("Warhorse, King")) == [20, 8]
    assert per_card(score("Warhorse")) == [6]


def test_c39_dragon_minus_40_without_wizard():
    assert per_card(score("Dragon")) == [-10]
    assert per_card(score("Dragon, Necromancer")) == [30, 3]


def test_c40_hydra_with_swamp():
    assert per_card(score("Hydra, Swamp")) == [40, 18]


def test_c41_warship_blanked_without_flood():
    assert per_card(score("Warship")) == [0]
    assert per_card(score("Warship, Island")) == [23, 14]


def test_c41_warship_removes_army_from_floods():
    assert per_card(score("Warship, Swamp, Knights")) == [23, 18, 12]


def test_c42_magic_wand_with_wizard():
    assert per_card(score("Magic Wand, Necromancer")) == [26, 3]


def test_c43_sword_of_keth_leader_and_shield():
    assert per_card(score("Sword of Keth")) == [7]
    assert per_card(score("Sword of Keth, King")) == [17, 8]
    assert per_card(score("Sword of Keth, King, Shield of Keth")) == [47, 8, 44]


def test_c44_elven_longbow_with_archers_warlord_or_beastmaster():
    assert per_card(score("Elven Longbow, Warlord")) == [33, 4]


def test_c45_war_dirigible_needs_army_and_no_weather():
    assert per_card(score("War Dirigible")) == [0]
    assert per_card(score("War Dirigible, Knights")) == [35, 12]
    assert per_card(score("War Dirigible, Knights, Whirlwind")) == [0, 12, 13]


def test_c46_shield_of_keth_with_leader():
    assert per_card(score("Shield of Keth, Queen")) == [19, 6]


def test_c47_gem_of_order_runs():
    # 3-4-5 (Longbow 3, Shield 4, Gem 5) is one run of 3.
    assert card(score("Gem of Order, Elven Longbow, Shield of Keth"), "Gem of Order").total == 15
    assert (
        card(
            score("Shield of Keth, Gem of Order, Cavern, Earth Elemental, Rangers, Queen"), "Gem of Order"
        ).total
        == 25
    )


def test_c48_world_tree_all_suits_different():
    assert per_card(score("World Tree, Mountain, Island")) == [52, 9, 14]
    assert per_card(score("World Tree, Mountain, Cavern")) == [2, 9, 6]


def test_c49_book_of_changes_may_target_unused_wild():
    assert per_card(score("Book of Changes, Mirage, Earth Elemental", {B: ("Mirage", "Land")})) == [3, 0, 19]


def test_c49_book_of_changes_wild_target_house_rule():
    with pytest.raises(ChoiceError):
        score("Book of Changes, Mirage, Earth Elemental", {B: ("Mirage", "Land")}, book_may_target_wild=False)


def test_c50_protection_rune_clears_every_penalty():
    assert per_card(score("Protection Rune, Smoke")) == [1, 27]


def test_c51_shapeshifter_takes_name_and_suit():
    r = score("Shapeshifter, Sword of Keth", {"shapeshifter": "King"})
    assert per_card(r) == [0, 17]
    assert (card(r, "Shapeshifter").acts_as_name, card(r, "Shapeshifter").suit) == ("King", "leader")


def test_c52_mirage_takes_name_and_suit():
    r = score("Mirage, Lightning", {"mirage": "Rainstorm"})
    assert per_card(r) == [0, 41]


def test_c53_doppelganger_copies_printed_card_of_an_unused_wild():
    assert per_card(score("Doppelgänger, Mirage, World Tree, Mountain", {"doppelganger": "Mirage"})) == [
        0,
        0,
        52,
        9,
    ]


def test_c53_doppelganger_copies_penalty_not_bonus():
    assert per_card(score("Water Elemental, Doppelgänger", {"doppelganger": "Water Elemental"})) == [19, 4]


def test_c54_choice_keys_in_order():
    assert CHOICE_KEYS == (
        "necromancer",
        "doppelganger",
        "mirage",
        "shapeshifter",
        "book_of_changes",
        "island",
    )
    assert choice_keys(hand("Island, Mirage, Necromancer, Knights")) == ["necromancer", "mirage", "island"]


def test_c54_checked_in_order_first_error_wins():
    with pytest.raises(ChoiceError) as err:
        validate_choices(
            hand("Mirage, Doppelgänger"), choices({"mirage": "King", "doppelganger": "Doppelgänger"})
        )
    assert str(err.value) == "The Doppelgänger cannot copy itself."


def test_c54_choice_values_follow_the_draft():
    cards = hand("Island, Book of Changes, Dragon")
    assert choice_values("island", cards, {}) == [None, "island"]
    assert choice_values("island", cards, choices({B: ("Dragon", "Flood")})) == [None, "island", "dragon"]


# --- scoring steps E12-E21 ---------------------------------------------------------------------


def test_e12_assemble_adds_the_necromancer_card():
    seven = "Bell Tower, Candle, Necromancer, Book of Changes, Sword of Keth, Shield of Keth, Gem of Order"
    r = score(seven, {"necromancer": "Warhorse", B: ("Bell Tower", "Leader")})
    assert r.total == 397 and len(r.cards) == 8 and r.legal_hand


def test_e13_doppelganger_resolves_before_mirage():
    # The Doppelgänger copies the printed Mirage (no suit), not the Mirage's Rainstorm.
    r = score("Doppelgänger, Mirage, Lightning", {"doppelganger": "Mirage", "mirage": "Rainstorm"})
    assert card(r, "Doppelgänger").acts_as_name == "Mirage" and card(r, "Doppelgänger").suit is None
    assert card(r, "Lightning").total == 41


def test_e14_book_of_changes_sets_current_suit():
    assert score("Wildfire, Book of Changes, Rainstorm, Blizzard", {B: ("Blizzard", "Flood")}).total == 11


def test_e15_clears_act_before_blanking():
    assert score("Cavern, Great Flood, Blizzard, Wildfire").total == 62


def test_e16_layered_blanking():
    assert score("Great Flood, Rainstorm, Wildfire, Book of Changes", {B: ("Rainstorm", "Beast")}).total == 53


def test_e17_reference_scorer_blanking():
    assert (
        score(
            "Great Flood, Rainstorm, Wildfire, Book of Changes",
            {B: ("Rainstorm", "Beast")},
            blanking_resolution="reference_scorer",
        ).total
        == 35
    )


def test_e18_self_blanking_passes_never_unblank():
    assert (
        score("Smoke, Warship, War Dirigible, Book of Changes, Knights", {B: ("Warship", "Flame")}).total
        == 15
    )


def test_e19_total_may_be_negative():
    assert score("Dragon, Knights").total == -10 + 12


def test_e20_shared_ranks_skip_places():
    hands = [score("Hydra, Swamp"), score("Knights"), score("Knights"), score("Magic Wand")]
    assert rank(hands, RealmsOptions()) == [1, 2, 2, 4]
    assert ranking(hands, RealmsOptions()).shared


def test_e21_breakdown_lines():
    r = score(
        "Mountain, Great Flood, Smoke, Whirlwind, Air Elemental, Wildfire, Mirage", {"mirage": "Rainstorm"}
    )
    lines = breakdown_lines(r)
    assert [ln.points for ln in lines] == [59, 32, 27, 53, 49, 40, 0]
    assert lines[-1].label == "Mirage → Rainstorm (Weather)"
    assert "copies Rainstorm" in lines[-1].detail
    assert "penalty cleared by Mountain" in lines[1].detail
    blanked = breakdown_lines(score("Great Flood, Forest"))
    assert blanked[1].struck and blanked[1].points == 0 and "blanked by Great Flood" in blanked[1].detail
    gem = breakdown_lines(score("Gem of Order, Book of Changes", {B: ("Gem of Order", "Wizard")}))
    assert gem[0].label == "Gem of Order → Wizard (Book of Changes)"


def test_e21_breakdown_reason_penalty_cleared_by_cavern():
    lines = breakdown_lines(score("Cavern, Blizzard, Island"))
    assert "penalty cleared by Cavern" in lines[1].detail
