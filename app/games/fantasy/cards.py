"""The Fantasy cards (spec §2.2), loaded from the bundled `cards.json`.

The data file is what a group edits to match its copy (the Fantasy II counts are a
reconstruction, §10.1); the table option `f2_counts` overrides the expansion counts.
Card ids are generated from the counts: `gnome-1` … `gnome-8`, `biere-1` … `biere-k`,
and one `secret-<race>` per race.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.games.base import N_

RECONSTRUCTION_NOTICE = N_("This card list is a reconstruction; edit the data to match your copy.")

_DATA = Path(__file__).with_name("cards.json")

Kind = Literal["creature", "biere", "secret"]


class Names(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    fr: str = Field(min_length=1)
    en: str = Field(min_length=1)


class F2Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    homme: int = Field(ge=0, le=12)
    ogre: int = Field(ge=0, le=12)
    garou: int = Field(ge=0, le=12)
    biere: int = Field(ge=0, le=12)
    secret_per_race: int = Field(ge=0, le=1)


class CardData(BaseModel):
    """The whole data file (§2.2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    races: tuple[str, ...]
    column_order: tuple[str, ...]
    base: dict[str, int]
    fantasy2: F2Data
    reconstructed: tuple[str, ...] = ()
    copyable_races: tuple[str, ...]
    names: dict[str, Names]
    secret_names: dict[str, Names]

    @model_validator(mode="after")
    def _consistent(self) -> CardData:
        if sorted(self.column_order) != sorted(self.races):
            raise ValueError("column_order must list every race once")
        if not set(self.base) <= set(self.races) or not set(self.copyable_races) <= set(self.races):
            raise ValueError("unknown race in base or copyable_races")
        if not set(self.races) | {"biere"} <= set(self.names) or not set(self.races) <= set(
            self.secret_names
        ):
            raise ValueError("every race needs a name and a Secret name")
        return self


def load_data(path: str | Path | None = None) -> CardData:
    """Read and validate a card data file (the bundled one by default)."""
    return CardData.model_validate(json.loads(Path(path or _DATA).read_text(encoding="utf-8")))


DATA: CardData = load_data()
RACES: tuple[str, ...] = DATA.races
COLUMN_ORDER: tuple[str, ...] = DATA.column_order
COPYABLE: frozenset[str] = frozenset(DATA.copyable_races)
BASE_RACES: tuple[str, ...] = tuple(r for r in RACES if r in DATA.base)
F2_RACES: tuple[str, ...] = ("homme", "ogre", "garou")

#: Player-facing race names (French by default, §2.2), for sentences whose race is a parameter.
RACE_NAMES: dict[str, str] = {race: names.fr for race, names in DATA.names.items()}


def base_ids() -> tuple[str, ...]:
    return tuple(f"{race}-{i}" for race in BASE_RACES for i in range(1, DATA.base[race] + 1))


def expansion_ids(homme: int, ogre: int, garou: int, biere: int, secrets: bool) -> tuple[str, ...]:
    ids = [
        f"{race}-{i}"
        for race, n in (("homme", homme), ("ogre", ogre), ("garou", garou))
        for i in range(1, n + 1)
    ]
    ids += [f"biere-{i}" for i in range(1, biere + 1)]
    if secrets and DATA.fantasy2.secret_per_race:
        ids += [f"secret-{race}" for race in RACES]
    return tuple(ids)


@cache
def kind(card_id: str) -> Kind:
    if card_id.startswith("secret-"):
        return "secret"
    if card_id.startswith("biere-"):
        return "biere"
    return "creature"


@cache
def printed_race(card_id: str) -> str:
    """The printed race of a creature, the race of a Secret, or "biere"."""
    if card_id.startswith("secret-"):
        return card_id[len("secret-") :]
    return card_id.rsplit("-", 1)[0]


def is_card_id(card_id: str) -> bool:
    race = printed_race(card_id)
    if card_id.startswith("secret-"):
        return race in RACES
    head, _, num = card_id.rpartition("-")
    return (head in RACES or head == "biere") and num.isdigit() and not num.startswith("0")


def display_name(card_id: str) -> str:
    """The card's name as shown to players: the French name by default (§2.2)."""
    if not isinstance(card_id, str) or not is_card_id(card_id):
        return str(card_id)
    race = printed_race(card_id)
    if kind(card_id) == "secret":
        return DATA.secret_names[race].fr
    return DATA.names[race].fr


def english_name(card_id: str) -> str:
    race = printed_race(card_id)
    if kind(card_id) == "secret":
        return DATA.secret_names[race].en
    return DATA.names[race].en
