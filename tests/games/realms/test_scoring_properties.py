"""Property tests of the scorer, the best-choice search and the calculator CLI."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.realms.calculator import run
from app.games.realms.cards import CARDS
from app.games.realms.options import RealmsOptions
from app.games.realms.scoring import best_choices, choice_keys, choice_values, score_hand

SLUGS = [c.slug for c in CARDS]
options_st = st.builds(
    RealmsOptions,
    tie_break=st.sampled_from(["highest_card", "lowest_base_total"]),
    tie_break_base_counts_blanked=st.booleans(),
    collector_mode=st.sampled_from(["sum_over_suits", "best_suit"]),
    gem_mode=st.sampled_from(["every_run", "longest_run"]),
    wildfire_spares_unused_wild=st.booleans(),
    unused_wild_suit=st.sampled_from(["none", "wild"]),
    blanking_resolution=st.sampled_from(["layered", "reference_scorer"]),
    book_may_target_wild=st.booleans(),
)


def random_choices(
    data: st.DataObject, cards: list[str], options: RealmsOptions, discard: list[str] | None
) -> dict[str, Any]:
    draft: dict[str, Any] = {}
    for key in choice_keys(cards):
        values = choice_values(key, cards, draft, options, discard)
        draft[key] = data.draw(st.sampled_from(values))
    return draft


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    cards=st.lists(st.sampled_from(SLUGS), min_size=7, max_size=7, unique=True),
    options=options_st,
)
def test_scorer_never_crashes_on_legal_hands_with_valid_choices(data, cards, options):
    discard = data.draw(
        st.lists(st.sampled_from([s for s in SLUGS if s not in cards]), max_size=10, unique=True)
    )
    chosen = random_choices(data, cards, options, discard)
    result = score_hand(cards, chosen, options, discard_area=discard)
    assert result.total == sum(c.total for c in result.cards)
    assert len(result.cards) == (8 if chosen.get("necromancer") else 7)
    assert result.legal_hand
    for c in result.cards:
        assert c.total == c.base + c.bonus + c.penalty
        if c.status == "blanked":
            assert (c.base, c.bonus, c.penalty, c.total) == (0, 0, 0, 0)
    json.dumps(result.to_dict())


def _few_choice_cards(cards: list[str]) -> bool:
    return len(choice_keys(cards)) <= 2


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(
    data=st.data(),
    cards=st.lists(st.sampled_from(SLUGS), min_size=7, max_size=7, unique=True).filter(_few_choice_cards),
    options=options_st,
)
def test_best_choices_beats_any_random_valid_choice_set(data, cards, options):
    discard = data.draw(
        st.lists(st.sampled_from([s for s in SLUGS if s not in cards]), max_size=10, unique=True)
    )
    best = best_choices(cards, options, discard_area=discard)
    assert best.exhaustive
    for _ in range(5):
        other = score_hand(
            cards, random_choices(data, cards, options, discard), options, discard_area=discard
        )
        assert best.score.key >= other.key


def _enumerate(cards: list[str], options: RealmsOptions, discard: list[str] | None):
    """Full enumeration of E4 in the canonical order of E5 (choice_values lists it)."""
    keys = choice_keys(cards)
    best: tuple[Any, dict[str, Any]] | None = None

    def walk(i: int, draft: dict[str, Any]) -> None:
        nonlocal best
        if i == len(keys):
            key = score_hand(cards, draft, options).key
            if best is None or key > best[0]:
                best = (key, dict(draft))
            return
        for v in choice_values(keys[i], cards, draft, options, discard):
            walk(i + 1, {**draft, keys[i]: v})

    walk(0, {})
    assert best is not None
    return best


WILDISH = ["mirage", "shapeshifter", "doppelganger", "book-of-changes", "island", "necromancer"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), options=options_st)
def test_best_choices_equals_full_enumeration(data, options):
    chooser = data.draw(st.lists(st.sampled_from(WILDISH), min_size=1, max_size=2, unique=True))
    rest = data.draw(
        st.lists(
            st.sampled_from([s for s in SLUGS if s not in WILDISH]),
            min_size=7 - len(chooser),
            max_size=7 - len(chooser),
            unique=True,
        )
    )
    cards = chooser + rest
    discard = data.draw(
        st.lists(st.sampled_from([s for s in SLUGS if s not in cards]), max_size=6, unique=True)
    )
    key, chosen = _enumerate(cards, options, discard)
    found = best_choices(cards, options, discard_area=discard)
    assert found.score.key == key
    assert found.choices == chosen


line_st = st.one_of(
    st.text(
        alphabet=st.characters(
            blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", blacklist_categories=("Cs",)
        ),
        max_size=30,
    ),
    st.builds(
        lambda cards, opts: json.dumps({"cards": cards, "options": opts}),
        st.lists(st.one_of(st.sampled_from(SLUGS), st.integers(0, 60), st.just("montain")), max_size=9),
        st.sampled_from([{}, {"gem_mode": "longest_run"}, {"gem_mode": 3}, {"nope": True}]),
    ),
)


@settings(max_examples=100, deadline=None)
@given(lines=st.lists(line_st, max_size=20))
def test_cli_line_count_in_equals_out(lines):
    out = io.StringIO()
    assert run(lines, out) == len(lines)
    answers = out.getvalue().splitlines()
    assert len(answers) == len(lines)
    for a in answers:
        body = json.loads(a)
        assert ("error" in body) != ("total" in body)
