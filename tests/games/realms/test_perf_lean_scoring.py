"""Behaviour of the fast paths of the scorer and the best-choice search.

- the lean evaluation (`_eval`) gives the same total and tie-break value as the
  reference scorer the breakdown is built from (`_score`), under every option;
- `score_hand` builds its breakdown lazily, consistently with its total;
- the search's "surely blanked" positions (`_sure_blanks`) are blanked whatever suit
  the Book gives its target and whatever Island clears, and the search bound that
  leaves them out stays above every completion's key;
- the six-choice-card hands of the bench match the brute force.

No timing here: speed is measured by bench/realms_bench.py."""

from __future__ import annotations

import itertools
import random

import pytest

from app.games.realms import scoring as sc
from app.games.realms.cards import BY_SLUG, CARDS
from app.games.realms.options import RealmsOptions
from tests.games.realms.test_search_six_choices import CHOOSERS, brute_force

OPTION_VALUES = {
    "tie_break": ["highest_card", "lowest_base_total"],
    "tie_break_base_counts_blanked": [True, False],
    "collector_mode": ["sum_over_suits", "best_suit"],
    "gem_mode": ["every_run", "longest_run"],
    "wildfire_spares_unused_wild": [True, False],
    "unused_wild_suit": ["none", "wild"],
    "blanking_resolution": ["layered", "reference_scorer"],
    "book_may_target_wild": [True, False],
}
ALL_OPTIONS = [
    RealmsOptions(**dict(zip(OPTION_VALUES, values, strict=True)))
    for values in itertools.product(*OPTION_VALUES.values())
]
# cards whose rules interact most: blankers, self-blankers, clears, choices
HOT = [
    "great-flood",
    "rainstorm",
    "blizzard",
    "wildfire",
    "basilisk",
    "smoke",
    "warship",
    "war-dirigible",
    "doppelganger",
    "mirage",
    "shapeshifter",
    "book-of-changes",
    "island",
    "rangers",
    "mountain",
    "cavern",
    "beastmaster",
    "protection-rune",
    "lightning",
    "dwarvish-infantry",
    "collector",
    "world-tree",
    "gem-of-order",
    "dragon",
    "unicorn",
]
SLUGS = [c.slug for c in CARDS]


def random_resolved(rng: random.Random) -> tuple[list[int], sc._Hand, int, sc._Opts]:
    """A random hand after steps 1-5 (any choices, legal or not for Island's suit)."""
    o = sc._opts(rng.choice(ALL_OPTIONS))
    pool = HOT if rng.random() < 0.6 else SLUGS
    n = rng.choice([7, 7, 8, 8, 5, 2])
    real = [BY_SLUG[s].no for s in rng.sample(sorted(set(pool) | set(rng.sample(SLUGS, 8))), n)]
    pick = lambda card: rng.random() < 0.8 and card in real  # noqa: E731
    d = rng.choice([i for i, x in enumerate(real) if x != sc.DOPPELGANGER]) if pick(sc.DOPPELGANGER) else -1
    mirage = rng.randint(1, 25) if pick(sc.MIRAGE) else 0
    shape = rng.randint(26, 50) if pick(sc.SHAPESHIFTER) else 0
    bt, bs = -1, -1
    if pick(sc.BOOK_OF_CHANGES):
        bt, bs = rng.choice([i for i, x in enumerate(real) if x != sc.BOOK_OF_CHANGES]), rng.randrange(10)
    h = sc._resolve(real, d, mirage, shape, bt, bs, o)
    isl = -1
    if pick(sc.ISLAND):
        isl = rng.choice([-1, *(i for i in range(n) if h.suit[i] in (sc.FLOOD, sc.FLAME))])
    return real, h, isl, o


def reference(real: list[int], h: sc._Hand, isl: int, o: sc._Opts) -> tuple[tuple[int, int], list[bool]]:
    ref = sc._Hand(real, list(h.name), list(h.suit), list(h.base), list(h.pen))
    totals = sc._score(ref, isl, o)
    return (sum(totals), sc._tie_value(ref, totals, o)), ref.active


@pytest.mark.parametrize("seed", range(4))
def test_lean_evaluation_equals_the_reference_scorer(seed):
    rng = random.Random(seed)
    for _ in range(1500):
        real, h, isl, o = random_resolved(rng)
        expected, _ = reference(real, h, isl, o)
        assert sc._eval(sc._Ctx(real), h.name, h.suit, h.base, h.pen, isl, o) == expected, (real, h.suit, isl)


def test_score_hand_builds_its_breakdown_once_and_consistently():
    rng = random.Random(11)
    for _ in range(300):
        cards = rng.sample(SLUGS, 7)
        options = rng.choice(ALL_OPTIONS)
        draft: dict[str, object] = {}
        for key in sc.choice_keys(cards):
            draft[key] = rng.choice(sc.choice_values(key, cards, draft, options))
        result = sc.score_hand(cards, draft, options)
        assert result.cards is result.cards
        assert result.total == sum(c.total for c in result.cards)
        assert result.to_dict() == result.to_dict()
        assert result.to_dict()["total"] == result.total == sc.score_total(cards, draft, options)
        assert result.to_dict()["tie_break"] == {"rule": options.tie_break, "value": result.tie_break.value}


def test_hands_read_by_number_string_or_card_score_alike():
    slugs = ["mountain", "great-flood", "smoke", "whirlwind", "air-elemental", "wildfire", "mirage"]
    by_slug = sc.score_hand(slugs, {"mirage": "rainstorm"}).to_dict()
    by_no = sc.score_hand([BY_SLUG[s].no for s in slugs], {"mirage": "rainstorm"}).to_dict()
    by_card = sc.score_hand([BY_SLUG[s] for s in slugs], {"mirage": "rainstorm"}).to_dict()
    by_text = sc.score_hand([str(BY_SLUG[s].no) for s in slugs], {"mirage": "rainstorm"}).to_dict()
    assert by_slug == by_no == by_card == by_text
    assert by_slug["total"] == 260
    with pytest.raises(KeyError):
        sc.score_hand(["montain"])
    with pytest.raises(KeyError):
        sc.score_hand([True])


@pytest.mark.parametrize("seed", range(3))
def test_sure_blanks_are_blanked_and_the_bound_holds_for_every_book_suit_and_island(seed):
    rng = random.Random(100 + seed)
    for _ in range(250):
        real, h, _, o = random_resolved(rng)
        n = len(real)
        has_island = sc.ISLAND in real
        ctx = sc._Ctx(real)
        sure = sc._sure_blanks(ctx, h.name, h.suit, h.pen, has_island, o)
        for t in range(n):
            free = [frozenset()] * n
            free[t] = frozenset(range(10))
            ub = sc._upper_bound(real, h.name, h.suit, h.base, free, False, o, {}, pen=h.pen, blanked=sure[t])
            for s in range(10):
                suit = list(h.suit)
                suit[t] = s
                islands = (
                    [-1, *(i for i in range(n) if suit[i] in (sc.FLOOD, sc.FLAME))] if has_island else [-1]
                )
                for isl in islands:
                    moved = sc._Hand(real, h.name, suit, h.base, h.pen)
                    (total, tie), active = reference(real, moved, isl, o)
                    assert not any(active[x] for x in range(n) if sure[t] >> x & 1), (real, suit, isl)
                    assert total <= ub[0], (real, suit, isl)
                    assert (-tie if o.tie_lowest else tie) <= ub[1], (real, suit, isl)


def test_a_lone_doppelganger_has_a_best_choice():
    found = sc.best_choices(["doppelganger"])
    assert found.exhaustive and found.choices == {"doppelganger": None}
    assert found.score.total == 0


@pytest.mark.parametrize(
    ("seventh", "necro", "dopp"),
    [
        ("wildfire", "basilisk", "wildfire"),
        ("princess", "hydra", "island"),
        ("forge", "basilisk", "basilisk"),
        ("great-flood", "basilisk", "great-flood"),
    ],
)
def test_bench_hands_match_brute_force(seventh, necro, dopp):
    cards = [*CHOOSERS, seventh]
    options = RealmsOptions()
    key, expected = brute_force(cards, necro, dopp, options)
    found = sc.best_choices(
        cards, options, discard_area=[necro], pinned={"necromancer": necro, "doppelganger": dopp}
    )
    assert found.exhaustive
    assert found.score.key == key
    assert found.choices == expected
