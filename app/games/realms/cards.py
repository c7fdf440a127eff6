"""The 53 Fantasy Realms cards (spec §2), loaded from the bundled `cards.json`.

The data file is what a group edits when its printed cards differ (names, texts,
strengths); the effects themselves are code, keyed by card number (§5, C1-C53).
`load_cards(path)` validates a group's own copy the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.games.base import N_

SuitKey = Literal[
    "land", "flood", "weather", "flame", "army", "wizard", "leader", "beast", "weapon", "artifact"
]
ChoiceKey = Literal["necromancer", "doppelganger", "mirage", "shapeshifter", "book_of_changes", "island"]

#: The ten suits in suit order (§2.1).
SUITS: tuple[str, ...] = (
    "land",
    "flood",
    "weather",
    "flame",
    "army",
    "wizard",
    "leader",
    "beast",
    "weapon",
    "artifact",
)

#: Player-facing suit names, and the same with an article ("a Beast", "an Army").
SUIT_NAMES: dict[str, str] = {
    "land": N_("Land"),
    "flood": N_("Flood"),
    "weather": N_("Weather"),
    "flame": N_("Flame"),
    "army": N_("Army"),
    "wizard": N_("Wizard"),
    "leader": N_("Leader"),
    "beast": N_("Beast"),
    "weapon": N_("Weapon"),
    "artifact": N_("Artifact"),
    "wild": N_("Wild"),
}
SUIT_WITH_ARTICLE: dict[str, str] = {
    "land": N_("a Land"),
    "flood": N_("a Flood"),
    "weather": N_("a Weather"),
    "flame": N_("a Flame"),
    "army": N_("an Army"),
    "wizard": N_("a Wizard"),
    "leader": N_("a Leader"),
    "beast": N_("a Beast"),
    "weapon": N_("a Weapon"),
    "artifact": N_("an Artifact"),
}

NOTICE = N_(
    "This card list was compiled from public sources, not transcribed from a printed copy. "
    "If your cards differ, edit the data file."
)

_DATA = Path(__file__).with_name("cards.json")


class Card(BaseModel):
    """One card record of the data file (§2.2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    no: int = Field(ge=1, le=53)
    slug: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name_en: str = Field(min_length=1)
    name_fr: str = Field(min_length=1)
    suit: SuitKey | None
    base: int = Field(ge=0)
    has_bonus: bool
    has_penalty: bool
    choice: ChoiceKey | None = None
    penalty_mentions_army: bool = False
    effect: str = ""
    provenance: str = "public-sources"
    name_fr_status: str = "unverified"
    reconstructed: bool = True

    @property
    def name(self) -> str:
        return self.name_en

    @property
    def is_wild(self) -> bool:
        return self.suit is None


class CardList(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    notice: str = NOTICE
    cards: tuple[Card, ...]

    @model_validator(mode="after")
    def _whole_deck(self) -> CardList:
        nos = [c.no for c in self.cards]
        if sorted(nos) != list(range(1, 54)):
            raise ValueError("the card list must hold each number 1-53 exactly once")
        slugs = [c.slug for c in self.cards]
        if len(set(slugs)) != len(slugs):
            raise ValueError("card slugs must be unique")
        for c in self.cards:
            wild = c.no >= 51
            if wild != (c.suit is None):
                raise ValueError(f"card {c.no}: only cards 51-53 are wild (no suit)")
        for suit in SUITS:
            if sum(1 for c in self.cards if c.suit == suit) != 5:
                raise ValueError(f"suit {suit} must have five cards")
        return self


def load_cards(path: str | Path | None = None) -> tuple[Card, ...]:
    """Read and validate a card list (the bundled one by default), ordered by number."""
    raw = json.loads(Path(path or _DATA).read_text(encoding="utf-8"))
    return tuple(sorted(CardList.model_validate(raw).cards, key=lambda c: c.no))


CARDS: tuple[Card, ...] = load_cards()
BY_SLUG: dict[str, Card] = {c.slug: c for c in CARDS}
BY_NO: dict[int, Card] = {c.no: c for c in CARDS}


def by_slug(slug: str) -> Card:
    """The card with this slug; KeyError if there is none."""
    return BY_SLUG[slug]


def by_no(no: int) -> Card:
    """The card with this number (1-53); KeyError if there is none."""
    return BY_NO[no]


def lookup(ref: Card | str | int) -> Card:
    """A card by slug, by number, or by a number written as a string (a Card is
    returned as it is); KeyError otherwise."""
    if isinstance(ref, Card):
        return ref
    if isinstance(ref, bool):
        raise KeyError(ref)
    if isinstance(ref, int):
        return BY_NO[ref]
    if isinstance(ref, str):
        if ref in BY_SLUG:
            return BY_SLUG[ref]
        if ref.isdigit():
            return BY_NO[int(ref)]
    raise KeyError(ref)


def cards_by_suit(cards: Iterable[Card] = CARDS) -> list[tuple[str | None, list[Card]]]:
    """The cards grouped by suit, in suit order, then the wild cards (suit None)."""
    cards = list(cards)
    groups: list[tuple[str | None, list[Card]]] = [
        (suit, [c for c in cards if c.suit == suit]) for suit in SUITS
    ]
    groups.append((None, [c for c in cards if c.suit is None]))
    return groups
