"""The best-choice search on hands holding all six choice cards, against a brute force.

The brute force walks every choice set of the open slots in the canonical order of E5
(no symmetry, no bound) with the scorer's own evaluation; the Necromancer and the
Doppelganger are pinned to keep it to a few hundred thousand sets."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.realms import scoring as sc
from app.games.realms.cards import BY_NO, BY_SLUG, SUITS
from app.games.realms.options import RealmsOptions

CHOOSERS = ["necromancer", "doppelganger", "mirage", "shapeshifter", "book-of-changes", "island"]


def brute_force(
    cards: list[str], necro: str | None, dopp: str | None, options: RealmsOptions
) -> tuple[tuple[int, int], dict[str, Any]]:
    o = sc._opts(options)
    real = [BY_SLUG[c].no for c in cards]
    if necro:
        real.append(BY_SLUG[necro].no)
    d = real.index(BY_SLUG[dopp].no) if dopp else -1
    order = sorted(range(len(real)), key=lambda i: real[i])
    books: list[tuple[int, int]] = [(-1, -1)]
    for t in order:
        x = real[t]
        if x == sc.BOOK_OF_CHANGES or (x in sc.WILDS and not o.book_may_target_wild):
            continue
        books += [(t, s) for s in range(10)]
    best: tuple[tuple[int, int], tuple[int, int, int, int, int]] | None = None
    for mi in [0, *range(1, 26)]:
        for sh in [0, *range(26, 51)]:
            for bt, bs in books:
                h = sc._resolve(real, d, mi, sh, bt, bs, o)
                isl = [-1, *(i for i in order if h.suit[i] in (sc.FLOOD, sc.FLAME))]
                for it in isl:
                    h = sc._resolve(real, d, mi, sh, bt, bs, o)
                    totals = sc._score(h, it, o)
                    tie = sc._tie_value(h, totals, o)
                    key = (sum(totals), -tie if o.tie_lowest else tie)
                    if best is None or key > best[0]:
                        best = (key, (mi, sh, bt, bs, it))
    assert best is not None
    mi, sh, bt, bs, it = best[1]
    slug = lambda no: BY_NO[no].slug  # noqa: E731
    choices = {
        "necromancer": necro,
        "doppelganger": dopp,
        "mirage": slug(mi) if mi else None,
        "shapeshifter": slug(sh) if sh else None,
        "book_of_changes": {"target": slug(real[bt]), "suit": SUITS[bs]} if bt >= 0 else None,
        "island": slug(real[it]) if it >= 0 else None,
    }
    return best[0], choices


@pytest.mark.parametrize(
    ("seventh", "necro", "dopp", "options"),
    [
        ("collector", "enchantress", "island", RealmsOptions()),
        ("world-tree", "basilisk", None, RealmsOptions()),
        ("great-flood", "hydra", "great-flood", RealmsOptions(tie_break="lowest_base_total")),
        (
            "wildfire",
            "basilisk",
            "wildfire",
            RealmsOptions(unused_wild_suit="wild", collector_mode="best_suit"),
        ),
    ],
)
def test_six_choice_cards_match_brute_force(seventh, necro, dopp, options):
    cards = [*CHOOSERS, seventh]
    key, expected = brute_force(cards, necro, dopp, options)
    found = sc.best_choices(
        cards, options, discard_area=[necro], pinned={"necromancer": necro, "doppelganger": dopp}
    )
    assert found.exhaustive
    assert found.score.key == key
    assert found.choices == expected


@pytest.mark.parametrize(
    "seventh", ["collector", "world-tree", "great-flood", "wildfire", "forge", "princess"]
)
def test_six_choice_cards_finish_within_the_default_budget(seventh):
    found = sc.best_choices([*CHOOSERS, seventh], RealmsOptions(), discard_area=None)
    assert found.exhaustive
    assert found.evaluated < sc.DEFAULT_MAX_EVALUATIONS


def test_the_default_budget_stops_the_search():
    found = sc.best_choices([*CHOOSERS, "collector"], RealmsOptions(), max_evaluations=10)
    assert not found.exhaustive
    assert found.evaluated == 10
