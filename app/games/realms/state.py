"""The state of a Fantasy Realms table, hidden parts included.

Every model is a frozen pydantic model made of tuples, strings, numbers and
plain dicts, so `dump_state` / `load_state` round-trip through JSON without
loss and nothing is ever changed in place: the rules build new states with
`model_copy(update=...)`. Cards are named by their slug everywhere.

Seats are numbered from 0. The deck's top card is `deck[0]`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import JSON
from app.games.realms.options import RealmsOptions

Phase = Literal["play", "final_choices", "finished"]
Source = Literal["deck", "discard"]
Mode = Literal["standard", "seed", "published"]

HAND_SIZE = 7  # S4, T5
STANDARD_END_DISCARDS = 10  # T6
TWO_PLAYER_END_DISCARDS = 12  # T12, T16


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Taken(_Frozen):
    """A card taken this turn and where it came from."""

    card: str
    source: Source


class Turn(_Frozen):
    """What the active seat has done so far this turn."""

    start_hand_size: int  # hand size when the turn began (T9, T10, T15)
    taken: tuple[Taken, ...] = ()  # in the order taken
    drew_two: bool = False  # published variant: the two cards came from `draw_two` (T15 ii)


class SeatChoices(_Frozen):
    """One seat's end-of-game choices (E2-E10). Private until the reveal."""

    draft: dict[str, Any] = Field(default_factory=dict)  # C54 key -> value (None = empty)
    preselection: dict[str, Any] = Field(default_factory=dict)  # E4, kept for E9
    exhaustive: bool = True  # False: "best found (search stopped early)" (E6)
    confirmed: bool = False
    automatic: bool = False  # confirmed by E9 / E10 rather than by the player
    notices: tuple[dict[str, Any], ...] = ()  # E7 resets caused by the last update: {"text", "params"}


class RealmsState(_Frozen):
    options: RealmsOptions
    seats: int
    deck: tuple[str, ...]  # face down, top first; never shown
    hands: tuple[tuple[str, ...], ...]  # per seat, in the order the cards arrived
    discard_area: tuple[str, ...] = ()  # in discard order (S5)
    first_player: int = 0
    active: int = 0
    turn: Turn = Turn(start_hand_size=0)
    phase: Phase = "play"
    turns_played: int = 0
    final: tuple[SeatChoices, ...] = ()  # per seat, during and after the final-choices phase
    log: tuple[dict[str, Any], ...] = ()  # dumped LogEntry objects
    result: dict[str, Any] | None = None  # once finished: {"seats": [...]} (E11, E22)

    @property
    def mode(self) -> Mode:
        """Which turn rules apply (S1): the 2-player option counts only with 2 seats."""
        if self.seats == 2 and self.options.two_player_variant != "none":
            return self.options.two_player_variant
        return "standard"

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats


def dump_state(state: RealmsState) -> JSON:
    return state.model_dump(mode="json")


def load_state(data: Mapping[str, Any]) -> RealmsState:
    return RealmsState.model_validate(data)


# --- card data, through the scorer's card module -------------------------------------------------


@cache
def _card_table() -> dict[str, Any]:
    from app.games.realms.cards import CARDS

    items: Sequence[Any] = list(CARDS.values()) if isinstance(CARDS, Mapping) else list(CARDS)
    return {c.slug: c for c in sorted(items, key=_number)}


def _number(c: Any) -> int:
    """The card number (the scorer's Card calls it `no`)."""
    return int(c.no if hasattr(c, "no") else c.number)


def all_slugs() -> tuple[str, ...]:
    """The 53 slugs in card-number order."""
    return tuple(_card_table())


def card(slug: str) -> Any:
    return _card_table()[slug]


def is_card(slug: str) -> bool:
    return slug in _card_table()


def card_name(slug: str) -> str:
    return str(_card_table()[slug].name)


def card_number(slug: str) -> int:
    return _number(_card_table()[slug])
