"""The card data file (spec §2.2, §10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.games.realms import cards as cards_mod
from app.games.realms.cards import BY_NO, BY_SLUG, CARDS, SUITS, cards_by_suit, load_cards, lookup


def test_53_cards_numbered_1_to_53_with_base_total_578():
    assert [c.no for c in CARDS] == list(range(1, 54))
    assert sum(c.base for c in CARDS) == 578


def test_suits_in_order_five_cards_each_and_three_wilds():
    groups = cards_by_suit()
    assert [g for g, _ in groups] == [*SUITS, None]
    assert [len(cs) for _, cs in groups] == [5] * 10 + [3]
    assert [c.no for c in groups[0][1]] == [1, 2, 3, 4, 5]
    assert [c.slug for c in groups[-1][1]] == ["shapeshifter", "mirage", "doppelganger"]


def test_lookup_by_slug_and_number():
    assert lookup("great-flood") is BY_NO[8] is BY_SLUG["great-flood"]
    assert lookup(53).name_en == "Doppelgänger"
    assert lookup("19").slug == "lightning"
    with pytest.raises(KeyError):
        lookup("montain")


def test_spec_fields_and_reconstructed_flags():
    c = BY_SLUG["island"]
    assert (c.name_en, c.name_fr, c.suit, c.base, c.choice) == ("Island", "Île", "flood", 14, "island")
    assert all(
        c.reconstructed and c.provenance == "public-sources" and c.name_fr_status == "unverified"
        for c in CARDS
    )
    assert {c.no for c in CARDS if c.penalty_mentions_army} == {7, 8, 12, 24, 37, 45}
    assert {c.choice for c in CARDS if c.choice} == {
        "necromancer",
        "doppelganger",
        "mirage",
        "shapeshifter",
        "book_of_changes",
        "island",
    }


def test_a_group_may_rename_cards_in_its_own_copy(tmp_path: Path):
    raw = json.loads(Path(cards_mod.__file__).with_name("cards.json").read_text(encoding="utf-8"))
    raw["cards"][0]["name_fr"] = "Mont"
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert load_cards(path)[0].name_fr == "Mont"


def test_a_broken_card_file_is_refused(tmp_path: Path):
    raw = json.loads(Path(cards_mod.__file__).with_name("cards.json").read_text(encoding="utf-8"))
    del raw["cards"][5]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ValidationError):
        load_cards(path)
