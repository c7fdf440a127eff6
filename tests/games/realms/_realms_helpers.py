"""Shared helpers for the Fantasy Realms scoring tests: hands are written with the
English card names of the spec, exactly as §11 prints them."""

from __future__ import annotations

from typing import Any

from app.games.realms.cards import CARDS
from app.games.realms.options import RealmsOptions
from app.games.realms.scoring import HandScore, score_hand

_BY_NAME = {c.name_en: c.slug for c in CARDS}
SUIT_KEYS = {"Land", "Flood", "Weather", "Flame", "Army", "Wizard", "Leader", "Beast", "Weapon", "Artifact"}


def slug(name: str) -> str:
    return _BY_NAME[name]


def hand(names: str) -> list[str]:
    return [slug(n.strip()) for n in names.split(",")]


def choices(spec: dict[str, Any] | None) -> dict[str, Any]:
    """{"mirage": "Rainstorm", "book_of_changes": ("Blizzard", "Flood"), ...} -> slugs."""
    out: dict[str, Any] = {}
    for k, v in (spec or {}).items():
        if v is None:
            out[k] = None
        elif k == "book_of_changes":
            out[k] = {"target": slug(v[0]), "suit": v[1].lower()}
        else:
            out[k] = slug(v)
    return out


def score(names: str, chosen: dict[str, Any] | None = None, **options: Any) -> HandScore:
    return score_hand(hand(names), choices(chosen), RealmsOptions(**options))


def per_card(result: HandScore) -> list[int]:
    return [c.total for c in result.cards]


def points(result: HandScore) -> dict[str, int]:
    from app.games.realms.cards import BY_SLUG

    return {BY_SLUG[c.card].name_en: c.total for c in result.cards}


def card(result: HandScore, name: str):
    return next(c for c in result.cards if c.card == slug(name))
