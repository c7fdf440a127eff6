"""Every scoring / choice / ranking worked example of spec §11.1-11.7, verbatim:
hand, choices, options, expected total and per-card points as the spec prints them."""

from __future__ import annotations

import pytest

from app.games.realms.options import RealmsOptions
from app.games.realms.scoring import (
    ChoiceError,
    best_choices,
    rank,
    ranking,
    update_choices,
    validate_choices,
)
from tests.games.realms._realms_helpers import card, choices, hand, per_card, score

B = "book_of_changes"
REF = {"blanking_resolution": "reference_scorer"}

# id, hand, choices, options, expected total, per-card totals in hand order
EXAMPLES = [
    # 11.1 official Q&A
    ("EX-QA1", "Great Flood, Blizzard, Wildfire", {}, {}, 65, [0, 25, 40]),
    ("EX-QA2", "Cavern, Great Flood, Blizzard, Wildfire", {}, {}, 62, [0, 32, 30, 0]),
    # 11.2 small rule probes
    ("R01", "Blizzard, Great Flood, Elven Archers", {}, {}, 35, [25, 0, 10]),
    ("R02", "Smoke, Dwarvish Infantry, War Dirigible", {}, {}, 50, [0, 15, 35]),
    ("R03", "Candle, Smoke, Dwarvish Infantry, War Dirigible", {}, {}, 44, [2, 27, 15, 0]),
    ("R04", "Basilisk, Doppelgänger", {"doppelganger": "Basilisk"}, {}, 0, [0, 0]),
    ("R05", "Dwarvish Infantry, Doppelgänger", {"doppelganger": "Dwarvish Infantry"}, {}, 26, [13, 13]),
    ("R06", "Island, Blizzard, Wildfire, Basilisk", {"island": "Wildfire"}, {}, 95, [0, 20, 40, 35]),
    ("R07", "Water Elemental, Doppelgänger", {"doppelganger": "Water Elemental"}, {}, 23, [19, 4]),
    (
        "R08",
        "Collector, Shield of Keth, Gem of Order, Shapeshifter, Doppelgänger",
        {"doppelganger": "Shield of Keth", "shapeshifter": "Shield of Keth"},
        {},
        20,
        [7, 4, 5, 0, 4],
    ),
    (
        "R09",
        "Shield of Keth, Gem of Order, Cavern, Earth Elemental, Rangers, Queen",
        {},
        {},
        105,
        [19, 25, 6, 19, 25, 11],
    ),
    (
        "R10",
        "Wildfire, Book of Changes, Rainstorm, Blizzard",
        {B: ("Blizzard", "Flood")},
        {},
        11,
        [0, 3, 8, 0],
    ),
    (
        "R11",
        "Blizzard, Great Flood, Wildfire, Book of Changes",
        {B: ("Blizzard", "Beast")},
        {},
        3,
        [0, 0, 0, 3],
    ),
    (
        "R12",
        "Book of Changes, Warship, Basilisk, Knights",
        {B: ("Basilisk", "Flood")},
        {},
        73,
        [3, 23, 35, 12],
    ),
    (
        "R13",
        "Book of Changes, Warship, Dwarvish Infantry, Elven Archers",
        {B: ("Dwarvish Infantry", "Flood")},
        {},
        56,
        [3, 23, 15, 15],
    ),
    (
        "R14",
        "Book of Changes, Warship, Fountain of Life, Great Flood, Elven Archers",
        {B: ("Great Flood", "Wizard")},
        {},
        82,
        [3, 23, 24, 32, 0],
    ),
    ("R15", "Great Flood, Blizzard, Wildfire", {}, {}, 65, [0, 25, 40]),
    ("R16", "Cavern, Great Flood, Blizzard, Wildfire", {}, {}, 62, [0, 32, 30, 0]),
    (
        "R17",
        "Cavern, Great Flood, Blizzard, Wildfire, Book of Changes",
        {B: ("Blizzard", "Beast")},
        {},
        9,
        [6, 0, 0, 0, 3],
    ),
    (
        "R18",
        "Book of Changes, Warship, War Dirigible, Light Cavalry, Air Elemental",
        {B: ("War Dirigible", "Flood")},
        {},
        24,
        [3, 0, 0, 17, 4],
    ),
    ("R19", "Book of Changes, Warship, War Dirigible", {B: ("War Dirigible", "Flood")}, {}, 61, [3, 23, 35]),
    ("R20", "Book of Changes, War Dirigible, Rangers", {B: ("Rangers", "Land")}, {}, 53, [3, 35, 15]),
    ("R21", "Knights, War Dirigible, Smoke", {}, {}, 47, [12, 35, 0]),
    ("R22", "Smoke, War Dirigible, Knights", {}, {}, 47, [0, 35, 12]),
    ("R23", "Smoke, Candle, Great Flood", {}, {}, 32, [0, 0, 32]),
    ("R24", "Swamp, Knights, Fire Elemental, Rangers", {}, {}, 36, [15, 12, 4, 5]),
    (
        "R25",
        "Collector, Knights, Elven Archers, Light Cavalry, Dwarvish Infantry, Doppelgänger",
        {"doppelganger": "Elven Archers"},
        {},
        108,
        [47, 12, 15, 17, 7, 10],
    ),
    (
        "R26",
        "Fountain of Life, Swamp, Great Flood, Island, Water Elemental",
        {},
        {},
        161,
        [33, 18, 32, 14, 64],
    ),
    ("R27", "Doppelgänger, Empress, King", {"doppelganger": "Empress"}, {}, 18, [5, 5, 8]),
    # 11.3 full hands
    (
        "H01",
        "Mountain, Great Flood, Smoke, Whirlwind, Air Elemental, Wildfire, Mirage",
        {"mirage": "Rainstorm"},
        {},
        260,
        [59, 32, 27, 53, 49, 40, 0],
    ),
    (
        "H02",
        "Bell Tower, Candle, Queen, Sword of Keth, Shield of Keth, Gem of Order, Book of Changes",
        {B: ("Gem of Order", "Wizard")},
        {},
        380,
        [23, 102, 6, 47, 44, 155, 3],
    ),
    (
        "H03",
        "Knights, Dwarvish Infantry, Rangers, King, Queen, Sword of Keth, Shield of Keth",
        {},
        {},
        265,
        [20, 15, 5, 68, 66, 47, 44],
    ),
    (
        "H04",
        "Fountain of Life, Swamp, Great Flood, Island, Water Elemental, Rainstorm, Collector",
        {},
        {},
        326,
        [33, 18, 32, 14, 64, 58, 107],
    ),
    (
        "H05",
        "Forge, Elven Archers, King, Queen, Sword of Keth, Shield of Keth, Gem of Order",
        {},
        {},
        351,
        [36, 15, 28, 26, 47, 44, 155],
    ),
    (
        "H06",
        "Collector, Beastmaster, Enchantress, Unicorn, Warhorse, Dragon, Hydra",
        {},
        {},
        193,
        [57, 45, 5, 24, 20, 30, 12],
    ),
    (
        "H06-best_suit",
        "Collector, Beastmaster, Enchantress, Unicorn, Warhorse, Dragon, Hydra",
        {},
        {"collector_mode": "best_suit"},
        183,
        [47, 45, 5, 24, 20, 30, 12],
    ),
    (
        "H07",
        "Elven Archers, King, Unicorn, Sword of Keth, Elven Longbow, Shield of Keth, Gem of Order",
        {},
        {},
        206,
        [15, 13, 9, 47, 33, 44, 45],
    ),
    (
        "H07-longest_run",
        "Elven Archers, King, Unicorn, Sword of Keth, Elven Longbow, Shield of Keth, Gem of Order",
        {},
        {"gem_mode": "longest_run"},
        196,
        [15, 13, 9, 47, 33, 44, 35],
    ),
    (
        "H08",
        "Bell Tower, Candle, Necromancer, Book of Changes, Sword of Keth, Shield of Keth, Gem of Order, "
        "Warhorse",
        {"necromancer": "Warhorse", B: ("Bell Tower", "Leader")},
        {},
        397,
        [23, 102, 3, 3, 47, 44, 155, 20],
    ),
    (
        "H09",
        "Necromancer, Warlock Lord, King, Queen, Warlord, Shapeshifter, Doppelgänger, Empress",
        {"necromancer": "Empress", "doppelganger": "Warlock Lord", "shapeshifter": "King"},
        {},
        -74,
        [3, -45, 8, 6, 4, 0, -45, -5],
    ),
    (
        "H10",
        "Collector, Unicorn, Bell Tower, Magic Wand, Smoke, Warlord, Warlock Lord",
        {},
        {},
        74,
        [7, 9, 23, 26, 0, 4, 5],
    ),
    (
        "H11",
        "Forest, Elven Archers, Enchantress, King, Fire Elemental, World Tree, Blizzard",
        {},
        {},
        133,
        [19, 10, 20, 13, 4, 52, 15],
    ),
    (
        "H12",
        "Forge, Blizzard, Unicorn, Rainstorm, War Dirigible, Warlord, Sword of Keth",
        {},
        {},
        58,
        [0, 20, 9, 8, 0, 4, 17],
    ),
    (
        "H13",
        "Dragon, Fire Elemental, Blizzard, Candle, Queen, Elven Archers, World Tree",
        {},
        {},
        39,
        [-10, 19, 5, 2, 11, 10, 2],
    ),
    (
        "H14",
        "Warlock Lord, Warhorse, Fountain of Life, Beastmaster, Gem of Order, Rangers, Empress",
        {},
        {},
        80,
        [5, 20, 2, 18, 5, 5, 25],
    ),
    (
        "H15",
        "Candle, Protection Rune, Elven Longbow, Forge, Warship, Earth Elemental, Blizzard",
        {},
        {},
        99,
        [2, 1, 3, 36, 23, 4, 30],
    ),
    (
        "H16",
        "Mountain, Cavern, Wildfire, Rangers, Beastmaster, Basilisk, Warship",
        {},
        {},
        58,
        [9, 0, 40, 0, 9, 0, 0],
    ),
    ("H17", "Dragon, Unicorn, Basilisk, Smoke, Swamp, Hydra, Forest", {}, {}, 72, [0, 0, 35, 0, 18, 0, 19]),
    (
        "H18",
        "Enchantress, Cavern, Bell Tower, World Tree, Water Elemental, Fire Elemental, Forest",
        {},
        {},
        76,
        [30, 6, 23, 2, 4, 4, 7],
    ),
    (
        "H19",
        "Mountain, Great Flood, Rainstorm, Smoke, Whirlwind, Wildfire, Enchantress",
        {},
        {},
        137,
        [9, 32, 18, 0, 53, 0, 25],
    ),
    (
        "H20",
        "Dwarvish Infantry, World Tree, Unicorn, Great Flood, Forest, Empress, Warship",
        {},
        {},
        171,
        [15, 52, 24, 32, 0, 25, 23],
    ),
    (
        "H21",
        "Shield of Keth, Basilisk, Protection Rune, Mirage, Whirlwind, Blizzard, Shapeshifter",
        {"mirage": "Rainstorm", "shapeshifter": "King"},
        {},
        138,
        [19, 35, 1, 0, 53, 30, 0],
    ),
    (
        "H22",
        "World Tree, Gem of Order, Warlord, Bell Tower, Dragon, Book of Changes, Warlock Lord",
        {B: ("Dragon", "Army")},
        {},
        142,
        [2, 35, 34, 23, 30, 3, 15],
    ),
    (
        "H23",
        "Wildfire, Light Cavalry, Warship, Mirage, Smoke, King, Empress",
        {"mirage": "Great Flood"},
        {},
        90,
        [40, 0, 23, 0, 27, 0, 0],
    ),
    (
        "H23-swamp",
        "Wildfire, Light Cavalry, Warship, Mirage, Smoke, King, Empress",
        {"mirage": "Swamp"},
        {},
        67,
        None,
    ),
    (
        "H24",
        "Warhorse, Fountain of Life, Water Elemental, Hydra, Rainstorm, Air Elemental, Basilisk",
        {},
        {},
        110,
        [0, 9, 19, 0, 28, 19, 35],
    ),
    (
        "H25",
        "Beastmaster, Forge, Unicorn, Princess, Bell Tower, Book of Changes, Candle",
        {B: ("Princess", "Weapon")},
        {},
        222,
        [18, 27, 39, 10, 23, 3, 102],
    ),
    (
        "H25-bell-weapon",
        "Beastmaster, Forge, Unicorn, Princess, Bell Tower, Book of Changes, Candle",
        {B: ("Bell Tower", "Weapon")},
        {},
        222,
        None,
    ),
    (
        "H25-bell-beast",
        "Beastmaster, Forge, Unicorn, Princess, Bell Tower, Book of Changes, Candle",
        {B: ("Bell Tower", "Beast")},
        {},
        222,
        None,
    ),
    # 11.4 options
    (
        "EX-O1a",
        "Collector, Beastmaster, Enchantress, Unicorn, Warhorse, Dragon, Hydra",
        {},
        {},
        193,
        [57, 45, 5, 24, 20, 30, 12],
    ),
    (
        "EX-O1b",
        "Collector, Beastmaster, Enchantress, Unicorn, Warhorse, Dragon, Hydra",
        {},
        {"collector_mode": "best_suit"},
        183,
        [47, 45, 5, 24, 20, 30, 12],
    ),
    (
        "EX-O2a",
        "Elven Archers, King, Unicorn, Sword of Keth, Elven Longbow, Shield of Keth, Gem of Order",
        {},
        {},
        206,
        [15, 13, 9, 47, 33, 44, 45],
    ),
    (
        "EX-O2b",
        "Elven Archers, King, Unicorn, Sword of Keth, Elven Longbow, Shield of Keth, Gem of Order",
        {},
        {"gem_mode": "longest_run"},
        196,
        [15, 13, 9, 47, 33, 44, 35],
    ),
    (
        "EX-O3",
        "Shield of Keth, Gem of Order, Cavern, Earth Elemental, Rangers, Queen",
        {},
        {"gem_mode": "longest_run"},
        95,
        [19, 15, 6, 19, 25, 11],
    ),
    ("EX-O4a", "Wildfire, Mirage, Shapeshifter, World Tree", {}, {}, 92, [40, 0, 0, 52]),
    (
        "EX-O4b",
        "Wildfire, Mirage, Shapeshifter, World Tree",
        {},
        {"unused_wild_suit": "wild"},
        42,
        [40, 0, 0, 2],
    ),
    (
        "EX-O4c",
        "Wildfire, Mirage, Shapeshifter, World Tree",
        {},
        {"wildfire_spares_unused_wild": False},
        92,
        [40, 0, 0, 52],
    ),
    (
        "EX-O4d",
        "Wildfire, Mirage, Shapeshifter, World Tree",
        {},
        {"wildfire_spares_unused_wild": False, "unused_wild_suit": "wild"},
        92,
        [40, 0, 0, 52],
    ),
    ("EX-O5a", "Wildfire, Mirage, Magic Wand, Candle, Gem of Order", {}, {}, 58, [40, 0, 1, 2, 15]),
    (
        "EX-O5b",
        "Wildfire, Mirage, Magic Wand, Candle, Gem of Order",
        {},
        {"wildfire_spares_unused_wild": False},
        48,
        [40, 0, 1, 2, 5],
    ),
    # 11.5 blanking, clearing, copying
    (
        "EX-D1a",
        "Great Flood, Rainstorm, Wildfire, Book of Changes",
        {B: ("Rainstorm", "Beast")},
        {},
        53,
        [32, 18, 0, 3],
    ),
    (
        "EX-D1b",
        "Great Flood, Rainstorm, Wildfire, Book of Changes",
        {B: ("Rainstorm", "Beast")},
        REF,
        35,
        [32, 0, 0, 3],
    ),
    (
        "EX-D2a",
        "Great Flood, Blizzard, Knights, Light Cavalry, Basilisk, Dragon, Book of Changes",
        {B: ("Blizzard", "Army")},
        {},
        70,
        [32, 0, 0, 0, 35, 0, 3],
    ),
    (
        "EX-D2b",
        "Great Flood, Blizzard, Knights, Light Cavalry, Basilisk, Dragon, Book of Changes",
        {B: ("Blizzard", "Army")},
        REF,
        38,
        [0, 0, 0, 0, 35, 0, 3],
    ),
    (
        "EX-D3a",
        "Beastmaster, Basilisk, Book of Changes, Doppelgänger",
        {"doppelganger": "Basilisk", B: ("Doppelgänger", "Leader")},
        {},
        56,
        [18, 35, 3, 0],
    ),
    (
        "EX-D3b",
        "Beastmaster, Basilisk, Book of Changes, Doppelgänger",
        {"doppelganger": "Basilisk", B: ("Doppelgänger", "Leader")},
        REF,
        12,
        [9, 0, 3, 0],
    ),
    (
        "EX-D4",
        "Great Flood, Wildfire, Basilisk, Book of Changes",
        {B: ("Great Flood", "Army")},
        {},
        43,
        [0, 40, 0, 3],
    ),
    (
        "EX-D4-reference",
        "Great Flood, Wildfire, Basilisk, Book of Changes",
        {B: ("Great Flood", "Army")},
        REF,
        43,
        [0, 40, 0, 3],
    ),
    (
        "EX-D5",
        "Bell Tower, Earth Elemental, Great Flood, Blizzard, Wildfire, Rangers, Book of Changes",
        {B: ("Blizzard", "Land")},
        {},
        43,
        [0, 0, 0, 0, 40, 0, 3],
    ),
    (
        "EX-D5-reference",
        "Bell Tower, Earth Elemental, Great Flood, Blizzard, Wildfire, Rangers, Book of Changes",
        {B: ("Blizzard", "Land")},
        REF,
        43,
        [0, 0, 0, 0, 40, 0, 3],
    ),
    ("EX-D6", "Great Flood, Book of Changes, Knights", {B: ("Great Flood", "Land")}, {}, 15, [0, 3, 12]),
    (
        "EX-D7a",
        "Smoke, Warship, War Dirigible, Book of Changes, Knights",
        {B: ("Warship", "Flame")},
        {},
        15,
        [0, 0, 0, 3, 12],
    ),
    (
        "EX-D7b",
        "Smoke, Warship, War Dirigible, Book of Changes, Knights, Island",
        {B: ("Warship", "Flame")},
        {},
        79,
        [27, 23, 0, 3, 12, 14],
    ),
    ("EX-D8", "Doppelgänger, Smoke, Candle, Great Flood", {"doppelganger": "Smoke"}, {}, 32, [0, 0, 0, 32]),
    ("EX-D9", "Mirage, Great Flood, Knights", {"mirage": "Mountain"}, {}, 32, [0, 32, 0]),
    (
        "EX-D10",
        "Shapeshifter, Candle, Bell Tower, Enchantress",
        {"shapeshifter": "Book of Changes"},
        {},
        140,
        [0, 102, 23, 15],
    ),
    (
        "EX-D11",
        "Wildfire, Book of Changes, Rainstorm, Blizzard",
        {B: ("Wildfire", "Weather")},
        {},
        81,
        [40, 3, 8, 30],
    ),
    (
        "EX-D12a",
        "Island, Book of Changes, Dragon",
        {B: ("Dragon", "Flood"), "island": "Dragon"},
        {},
        47,
        [14, 3, 30],
    ),
    ("EX-D12b", "Island, Book of Changes, Dragon", {B: ("Dragon", "Flood")}, {}, 7, [14, 3, -10]),
]


@pytest.mark.parametrize(
    ("names", "chosen", "options", "total", "cards"), [pytest.param(*e[1:], id=e[0]) for e in EXAMPLES]
)
def test_worked_example(names, chosen, options, total, cards):
    result = score(names, chosen, **options)
    if cards is not None:
        assert per_card(result) == cards
    assert result.total == total


# Per-card statuses and reasons the spec's tables name.
STATUS = [
    ("EX-QA1", "Great Flood, Blizzard, Wildfire", {}, {}, "Great Flood", "blanked by Blizzard"),
    (
        "EX-QA2-clear",
        "Cavern, Great Flood, Blizzard, Wildfire",
        {},
        {},
        "Blizzard",
        "penalty cleared by Cavern",
    ),
    ("EX-QA2-blank", "Cavern, Great Flood, Blizzard, Wildfire", {}, {}, "Cavern", "blanked by Great Flood"),
    ("R02", "Smoke, Dwarvish Infantry, War Dirigible", {}, {}, "Smoke", "blanks itself (no Flame)"),
    (
        "R03",
        "Candle, Smoke, Dwarvish Infantry, War Dirigible",
        {},
        {},
        "War Dirigible",
        "blanks itself (Weather present)",
    ),
    (
        "R06",
        "Island, Blizzard, Wildfire, Basilisk",
        {"island": "Wildfire"},
        {},
        "Wildfire",
        "penalty cleared by Island",
    ),
    (
        "R18",
        "Book of Changes, Warship, War Dirigible, Light Cavalry, Air Elemental",
        {B: ("War Dirigible", "Flood")},
        {},
        "Warship",
        "blanks itself (no Flood)",
    ),
    ("R24", "Swamp, Knights, Fire Elemental, Rangers", {}, {}, "Swamp", "word Army removed by Rangers"),
    (
        "H03",
        "Knights, Dwarvish Infantry, Rangers, King, Queen, Sword of Keth, Shield of Keth",
        {},
        {},
        "Dwarvish Infantry",
        "word Army removed by Rangers",
    ),
    (
        "H20",
        "Dwarvish Infantry, World Tree, Unicorn, Great Flood, Forest, Empress, Warship",
        {},
        {},
        "Great Flood",
        "word Army removed by Warship",
    ),
    (
        "H16",
        "Mountain, Cavern, Wildfire, Rangers, Beastmaster, Basilisk, Warship",
        {},
        {},
        "Basilisk",
        "blanked by Wildfire; penalty cleared by Beastmaster",
    ),
    ("R04", "Basilisk, Doppelgänger", {"doppelganger": "Basilisk"}, {}, "Basilisk", "blank each other"),
    (
        "R11",
        "Blizzard, Great Flood, Wildfire, Book of Changes",
        {B: ("Blizzard", "Beast")},
        {},
        "Wildfire",
        "blanking cycle",
    ),
    (
        "EX-D5",
        "Bell Tower, Earth Elemental, Great Flood, Blizzard, Wildfire, Rangers, Book of Changes",
        {B: ("Blizzard", "Land")},
        {},
        "Great Flood",
        "Great Flood and Blizzard (as Blizzard) blank each other".replace(
            "Blizzard (as Blizzard)", "Blizzard"
        ),
    ),
    (
        "EX-D6",
        "Great Flood, Book of Changes, Knights",
        {B: ("Great Flood", "Land")},
        {},
        "Great Flood",
        "blanks itself",
    ),
    (
        "EX-D12a",
        "Island, Book of Changes, Dragon",
        {B: ("Dragon", "Flood"), "island": "Dragon"},
        {},
        "Dragon",
        "penalty cleared by Island",
    ),
]


@pytest.mark.parametrize(
    ("names", "chosen", "options", "who", "reason"), [pytest.param(*e[1:], id=e[0]) for e in STATUS]
)
def test_worked_example_reason(names, chosen, options, who, reason):
    c = card(score(names, chosen, **options), who)
    assert reason in (c.reason or "")
    if (
        "blank" in reason
        and "blanked by Wildfire;" not in reason
        and "cleared" not in reason
        and "removed" not in reason
    ):
        assert c.status == "blanked"


@pytest.mark.parametrize("who", ["Mirage", "Shapeshifter"])
def test_ex_o4c_unused_wilds_blanked_by_wildfire(who):
    c = card(score("Wildfire, Mirage, Shapeshifter, World Tree", wildfire_spares_unused_wild=False), who)
    assert c.status == "blanked" and c.reason == "blanked by Wildfire"


NO_OPTION_CHANGES = [
    "H01",
    "H03",
    "H04",
    "H05",
    "H08",
    "H10",
    "H11",
    "H12",
    "H13",
    "H14",
    "H15",
    "H16",
    "H17",
    "H18",
    "H19",
    "H20",
    "H21",
    "H22",
    "H24",
]
ALTERNATIVES = [
    {"collector_mode": "best_suit"},
    {"gem_mode": "longest_run"},
    {"wildfire_spares_unused_wild": False},
    {"unused_wild_suit": "wild"},
    {"blanking_resolution": "reference_scorer"},
    {"book_may_target_wild": False},
    {"tie_break": "lowest_base_total"},
]


@pytest.mark.parametrize("option", ALTERNATIVES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("ex_id", NO_OPTION_CHANGES)
def test_worked_example_no_option_changes_total(ex_id, option):
    ex = next(e for e in EXAMPLES if e[0] == ex_id)
    assert score(ex[1], ex[2], **option).total == ex[4]


def test_ex_d12c_island_target_never_flood_or_flame_rejected():
    with pytest.raises(ChoiceError) as err:
        score("Island, Book of Changes, Dragon", {"island": "Dragon"})
    assert str(err.value) == "Island must target a Flood or Flame; Dragon is a Beast."


# 11.6 pre-selection
BEST = [
    (
        "EX-B1",
        "Bell Tower, Candle, Necromancer, Book of Changes, Sword of Keth, Shield of Keth, Gem of Order",
        "Warhorse, King, Swamp, Dragon, Knights, Forge, Rangers, Hydra, Smoke, Unicorn",
        {"necromancer": "Warhorse", B: ("Bell Tower", "Leader")},
        397,
        155,
    ),
    (
        "EX-B2",
        "Bell Tower, Candle, Queen, Sword of Keth, Shield of Keth, Gem of Order, Book of Changes",
        None,
        {B: ("Bell Tower", "Wizard")},
        380,
        155,
    ),
    (
        "EX-B3",
        "Beastmaster, Forge, Unicorn, Princess, Bell Tower, Book of Changes, Candle",
        None,
        {B: ("Bell Tower", "Beast")},
        222,
        102,
    ),
    ("EX-B4", "Island, Book of Changes, Dragon", None, {B: ("Island", "Wizard"), "island": None}, 47, 30),
    (
        "EX-B5",
        "Collector, Knights, Elven Archers, Light Cavalry, Dwarvish Infantry, Doppelgänger",
        None,
        {"doppelganger": "Light Cavalry"},
        115,
        47,
    ),
    ("EX-B6", "Wildfire, Book of Changes, Rainstorm, Blizzard", None, {B: ("Wildfire", "Weather")}, 81, 40),
]


@pytest.mark.parametrize(
    ("names", "discard", "expected", "total", "highest"), [pytest.param(*e[1:], id=e[0]) for e in BEST]
)
def test_worked_example_preselection(names, discard, expected, total, highest):
    found = best_choices(hand(names), RealmsOptions(), discard_area=hand(discard) if discard else None)
    assert found.choices == choices(expected)
    assert found.score.total == total
    assert found.score.tie_break.value == highest
    assert found.exhaustive


def test_ex_b1_necromancer_candidates():
    from app.games.realms.scoring import choice_values

    values = choice_values(
        "necromancer",
        hand("Bell Tower, Candle, Necromancer, Book of Changes, Sword of Keth, Shield of Keth, Gem of Order"),
        {},
        RealmsOptions(),
        discard_area=hand("Warhorse, King, Swamp, Dragon, Knights, Forge, Rangers, Hydra, Smoke, Unicorn"),
    )
    assert set(values) == {None, *hand("Knights, Rangers, King, Unicorn, Warhorse, Dragon, Hydra")}


REJECTED = [
    (
        "necro-suit",
        "Necromancer, Knights",
        {"necromancer": "Book of Changes"},
        "Book of Changes, Dragon",
        "The Necromancer can only take an Army, Leader, Wizard or Beast; Book of Changes is an Artifact.",
    ),
    (
        "necro-absent",
        "Necromancer, Knights",
        {"necromancer": "Dragon"},
        "Book of Changes, King",
        "Dragon is not in the discard area.",
    ),
    (
        "dopp-self",
        "Doppelgänger, Knights",
        {"doppelganger": "Doppelgänger"},
        None,
        "The Doppelgänger cannot copy itself.",
    ),
    (
        "dopp-outside",
        "Doppelgänger, Knights",
        {"doppelganger": "Dragon"},
        None,
        "The Doppelgänger can only copy a card in your hand.",
    ),
    (
        "mirage-suit",
        "Mirage, Knights",
        {"mirage": "King"},
        None,
        "Mirage can only become an Army, Land, Weather, Flood or Flame; King is a Leader.",
    ),
    (
        "shapeshifter-suit",
        "Shapeshifter, Knights",
        {"shapeshifter": "Mountain"},
        None,
        "The Shapeshifter can only become an Artifact, Leader, Wizard, Weapon or Beast; Mountain is a Land.",
    ),
    (
        "book-self",
        "Book of Changes, Knights",
        {B: ("Book of Changes", "Army")},
        None,
        "The Book of Changes must target another card.",
    ),
    (
        "book-wild-house-rule",
        "Book of Changes, Mirage",
        {B: ("Mirage", "Wizard")},
        None,
        "House rule: the Book of Changes cannot target a wild card.",
    ),
    (
        "book-suit-wild",
        "Book of Changes, Dragon",
        {B: ("Dragon", "Wild")},
        None,
        "Choose one of the ten suits.",
    ),
    (
        "island-beast",
        "Island, Dragon",
        {"island": "Dragon"},
        None,
        "Island must target a Flood or Flame; Dragon is a Beast.",
    ),
    ("no-mirage", "Knights, Dragon", {"mirage": "Rainstorm"}, None, "You do not hold Mirage."),
]


@pytest.mark.parametrize(
    ("names", "chosen", "discard", "sentence"), [pytest.param(*e[1:], id="EX-B7-" + e[0]) for e in REJECTED]
)
def test_worked_example_rejected_choice(names, chosen, discard, sentence):
    opts = RealmsOptions(book_may_target_wild=False) if "house" in sentence.lower() else RealmsOptions()
    with pytest.raises(ChoiceError) as err:
        validate_choices(hand(names), choices(chosen), opts, discard_area=hand(discard) if discard else None)
    assert str(err.value) == sentence


def test_ex_b8_dependent_choice_reset():
    cards = hand("Island, Book of Changes, Dragon")
    draft = choices({B: ("Dragon", "Flood"), "island": "Dragon"})
    assert score("Island, Book of Changes, Dragon", {B: ("Dragon", "Flood"), "island": "Dragon"}).total == 47
    new, messages = update_choices(cards, draft, choices({B: ("Dragon", "Wizard")}), RealmsOptions())
    assert new["island"] is None
    assert new[B] == {"target": "dragon", "suit": "wizard"}
    assert [m[0] % m[1] if m[1] else m[0] for m in messages] == [
        "Island's target is no longer a Flood or Flame; Island choice cleared."
    ]
    preview = score("Island, Book of Changes, Dragon", {B: ("Dragon", "Wizard")})
    assert preview.total == 47
    assert card(preview, "Dragon").total == 30


def test_ex_b8_illegal_value_leaves_draft_unchanged():
    cards = hand("Island, Book of Changes, Dragon")
    draft = choices({B: ("Dragon", "Flood"), "island": "Dragon"})
    before = dict(draft)
    with pytest.raises(ChoiceError):
        update_choices(cards, draft, choices({B: ("Book of Changes", "Army")}), RealmsOptions())
    assert draft == before


# 11.7 ranking
ANN = "Forge, Blizzard, Unicorn, Rainstorm, War Dirigible, Warlord, Sword of Keth"
BEN = "Mountain, Cavern, Wildfire, Rangers, Beastmaster, Basilisk, Warship"
CAT = "Light Cavalry, Dwarvish Infantry, Warlock Lord, Swamp, Smoke, Hydra, Empress"


@pytest.mark.parametrize(
    ("seat", "names", "total", "highest", "base_all", "base_active", "cards"),
    [
        pytest.param("Ann", ANN, 58, 20, 102, 58, [0, 20, 9, 8, 0, 4, 17], id="EX-T1-Ann"),
        pytest.param("Ben", BEN, 58, 40, 127, 58, [9, 0, 40, 0, 9, 0, 0], id="EX-T1-Ben"),
        pytest.param("Cat", CAT, 132, 40, 129, 102, [17, 13, 15, 12, 0, 40, 35], id="EX-T1-Cat"),
    ],
)
def test_ex_t1_hands(seat, names, total, highest, base_all, base_active, cards):
    assert per_card(score(names)) == cards
    assert score(names).total == total
    assert score(names).tie_break.value == highest
    assert score(names, tie_break="lowest_base_total").tie_break.value == base_all
    assert (
        score(names, tie_break="lowest_base_total", tie_break_base_counts_blanked=False).tie_break.value
        == base_active
    )


@pytest.mark.parametrize(
    ("options", "ranks"),
    [
        pytest.param({}, [3, 2, 1], id="EX-T1-highest_card"),
        pytest.param({"tie_break": "lowest_base_total"}, [2, 3, 1], id="EX-T1-lowest_base_total"),
        pytest.param(
            {"tie_break": "lowest_base_total", "tie_break_base_counts_blanked": False},
            [2, 2, 1],
            id="EX-T1-lowest_base_total-active_only",
        ),
    ],
)
def test_ex_t1_ranking(options, ranks):
    opts = RealmsOptions(**options)
    hands = [score(n, **options) for n in (ANN, BEN, CAT)]
    assert rank(hands, opts) == ranks
    r = ranking(hands, opts)
    assert r.tie_break_decided == (ranks != [2, 2, 1])
    assert r.shared == (ranks == [2, 2, 1])
