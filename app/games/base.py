"""The protocol every game implements, and the small types it shares.

A game is a stateless object; all that changes lives in the state, which
serialises to JSON and back without loss (`dump_state` / `load_state`).
The platform derives every `rng` from the table's secret seed and the move
number, so the same seed and the same moves always give the same state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel, TypeAdapter

JSON = dict[str, Any]


def N_(message: str) -> str:
    """Mark a sentence for translation without translating it here.

    The rules layer has no locale: the web layer passes every sentence through
    gettext before a player sees it (Babel extracts strings marked with N_).
    """
    return message


class IllegalMove(Exception):
    """A move the rules refuse. `code` is the spec's stable rejection code,
    `message` an English sentence for the player (translated by the web layer),
    formatted with `params` after translation."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.code = code
        self.message = message
        self.params = params


@dataclass(frozen=True)
class LogEntry:
    """One line of the game log.

    `text` % `params` is what everyone may read; `private` maps a seat to a
    fuller line (with params) that only that seat may read, e.g. which card it
    drew. Views filter the log through `LogEntry.for_seat`.
    """

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[int, tuple[str, Mapping[str, Any]]] = field(default_factory=dict)

    def dump(self) -> JSON:
        return {
            "text": self.text,
            "params": dict(self.params),
            "private": {str(s): [t, dict(p)] for s, (t, p) in self.private.items()},
        }

    @staticmethod
    def for_seat(entry: Mapping[str, Any], seat: int | None) -> JSON:
        """The dumped entry as `seat` may see it: {"text", "params"}."""
        private = entry.get("private") or {}
        if seat is not None and str(seat) in private:
            text, params = private[str(seat)]
            return {"text": text, "params": params}
        return {"text": entry["text"], "params": entry.get("params", {})}


@dataclass(frozen=True)
class ScoreLine:
    """One line of a seat's score breakdown (e.g. one card)."""

    label: str
    points: int
    detail: str = ""
    struck: bool = False  # e.g. a blanked card, shown struck through
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatResult:
    seat: int
    score: int
    rank: int  # 1 = winner; equal ranks share the place
    lines: Sequence[ScoreLine] = ()
    tie_break: str = ""


@dataclass(frozen=True)
class Result:
    seats: Sequence[SeatResult]
    winners: Sequence[int]
    note: str = ""  # e.g. which tie-break decided

    def dump(self) -> JSON:
        return {
            "winners": list(self.winners),
            "note": self.note,
            "seats": [
                {
                    "seat": s.seat,
                    "score": s.score,
                    "rank": s.rank,
                    "tie_break": s.tie_break,
                    "lines": [
                        {
                            "label": ln.label,
                            "points": ln.points,
                            "detail": ln.detail,
                            "struck": ln.struck,
                            **({"extra": dict(ln.extra)} if ln.extra else {}),
                        }
                        for ln in s.lines
                    ],
                }
                for s in self.seats
            ],
        }


@dataclass(frozen=True)
class Hidden:
    """What a view for `seat` must never contain: the game's own declaration,
    used by the shared leak tests. Strings are matched as JSON string values
    (card ids / slugs)."""

    values: frozenset[str]


@dataclass(frozen=True)
class Timeout:
    """A move the server makes by itself if nobody acts in time.

    `key` names the wait (e.g. "final_choices"): the clock starts when a state
    with a new key is stored, and runs `after_seconds`. The move is applied
    for `seat`, as the host when `as_host` (e.g. forcing final choices)."""

    key: str
    after_seconds: float
    seat: int
    move: Any
    as_host: bool = False


@runtime_checkable
class Game(Protocol):
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]]
    Move: ClassVar[TypeAdapter[Any]]  # discriminated union of pydantic models
    # Per-seat private preferences (e.g. Fantasy's react_pref), or None. They
    # live with the seat, not in the rules state, and each player edits his own.
    Prefs: ClassVar[type[BaseModel] | None]

    def setup(self, seats: int, options: BaseModel, rng: random.Random) -> Any: ...

    def to_act(self, state: Any) -> frozenset[int]: ...

    def legal_moves(self, state: Any, seat: int) -> list[Any]: ...

    def apply(self, state: Any, seat: int, move: Any, rng: random.Random, *, host: bool = False) -> Any:
        """Return the new state (the old one is left untouched) or raise
        IllegalMove. `host` is true when the table host makes the move: some
        games accept host-only controls (e.g. forcing final choices)."""
        ...

    def view(self, state: Any, seat: int | None) -> JSON:
        """Everything `seat` may know (None = spectator), JSON-ready. Must
        contain "log": a list of LogEntry.for_seat dicts."""
        ...

    def result(self, state: Any) -> Result | None: ...

    def bot_move(self, state: Any, seat: int, rng: random.Random) -> Any: ...

    def timeout(self, state: Any) -> Timeout | None:
        """The move to make if the seats to act wait too long, or None."""
        ...

    def auto_move(self, state: Any, seat: int, prefs: BaseModel | None) -> Any | None:
        """A move the server makes for `seat` at once, on its behalf, or None.

        For answers that need no thought: passing a reaction window the
        player's preferences say to pass, or the only legal move. It may read
        only public information and `prefs` (never the seat's hand), so that
        how fast the table moves on reveals nothing. The platform applies it
        in the same transaction as the move that made it due, recorded as a
        move of its own."""
        ...

    def dump_state(self, state: Any) -> JSON: ...

    def load_state(self, data: JSON) -> Any: ...

    def hidden_from(self, state: Any, seat: int | None) -> Hidden:
        """The ids `seat` must not see now: other hands, the deck, secrets."""
        ...


def dump_move(game: Game, move: Any) -> JSON:
    return game.Move.dump_python(move, mode="json")


def parse_prefs(game: Game, data: Any) -> BaseModel | None:
    """The seat's stored preferences as the game's Prefs model (defaults when
    absent or no longer valid: a preference must never block a table)."""
    prefs_model = getattr(game, "Prefs", None)
    if prefs_model is None:
        return None
    try:
        return prefs_model.model_validate(data or {})
    except ValueError:
        return prefs_model()


def parse_move(game: Game, data: Any) -> Any:
    """Validate a JSON move; raises pydantic.ValidationError (a 422)."""
    return game.Move.validate_python(data)
