"""The state of a Fantasy table, hidden parts included (spec §2, §3).

Every model is a frozen pydantic model made of tuples, strings, numbers and plain
dicts, so `dump_state` / `load_state` round-trip through JSON without loss; the rules
build new states with `model_copy(update=...)` and never change one in place.

Players are identified by their seat (0 … n-1); places are positions around the table
(C5). `forests[p]` / `secrets[p]` lie at place p, `occupant[p]` is the seat sitting
there and `place_of[s]` its inverse. The deck's top card is `deck[0]`. Hands are sorted
by card id (T10).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import JSON
from app.games.fantasy.cards import kind, printed_race
from app.games.fantasy.options import FantasyOptions

Step = Literal["main", "after_bieres", "over"]
HAND_SIZE = 5  # S6


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Item(_Frozen):
    """One entry of a reaction chain (§6): the played item at the bottom, then the Fées."""

    kind: Literal["creature", "bieres", "fee"]
    seat: int
    card: str  # the laid creature, the first Bière of the batch, or the Fée
    ability: str | None = None  # creature: the race whose ability applies (the copied race for an Elfe)
    target_player: int | None = None
    target_card: str | None = None
    column: str | None = None
    copy_card: str | None = None
    cards: tuple[str, ...] = ()  # Bières of the batch
    hommes: tuple[str, ...] = ()


class Window(_Frozen):
    """An open reaction window on the top item of the chain (R3, R4)."""

    number: int  # changes with each new window (the timeout key)
    eligible: tuple[int, ...]
    passed: tuple[int, ...] = ()

    @property
    def waiting(self) -> tuple[int, ...]:
        return tuple(s for s in self.eligible if s not in self.passed)


class Decision(_Frozen):
    """A pending `choose_cards` decision (C2 variants, E4 giver_chooses)."""

    seat: int  # who chooses
    purpose: Literal["korrigan", "replenish"]
    count: int
    source: int  # whose hand the cards come from
    receiver: int  # who gets them
    mode: str = ""  # korrigan: victim_chooses / actor_chooses


class Replenish(_Frozen):
    """E4 in progress: the players still to look at, and the givers left for the current taker."""

    queue: tuple[int, ...] = ()
    taker: int | None = None
    givers: tuple[int, ...] = ()


class End(_Frozen):
    reason: Literal["final_round", "replenish_failed", "stalemate"]
    seat: int | None = None


class FantasyState(_Frozen):
    options: FantasyOptions
    seats: int
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    forests: tuple[tuple[str, ...], ...]  # per place: creatures in the order they arrived
    secrets: tuple[tuple[str, ...], ...]  # per place
    races: dict[str, str] = Field(default_factory=dict)  # transformed Hommes: card id -> new race (C11)
    neutralised: tuple[str, ...] = ()  # Hommes neutralised this turn (C12)
    out_of_play: tuple[str, ...] = ()
    occupant: tuple[int, ...]  # place -> seat
    place_of: tuple[int, ...]  # seat -> place
    first_place: int = 0
    turn_place: int = 0
    active: int = 0
    turn_number: int = 1
    step: Step = "main"
    biere_target: int | None = None
    main_pass: bool = False  # the main play of this turn was a pass (T7.2)
    chain: tuple[Item, ...] = ()
    window: Window | None = None
    window_count: int = 0
    decision: Decision | None = None
    replenish: Replenish | None = None
    final_round: tuple[int, ...] | None = None  # places still to play in the final round (E3)
    final_round_fired: bool = False
    idle_turns: int = 0
    end: End | None = None
    ever_held: tuple[tuple[str, ...], ...] = ()  # per seat: every card that has been in its hand (§8)
    log: tuple[dict[str, Any], ...] = ()

    # --- derived facts ------------------------------------------------------------------------

    def race(self, card: str) -> str:
        """The current race of a creature (C11: a transformed Homme has its new race)."""
        return self.races.get(card) or printed_race(card)

    def forest_of(self, seat: int) -> tuple[str, ...]:
        return self.forests[self.place_of[seat]]

    def secrets_of(self, seat: int) -> tuple[str, ...]:
        return self.secrets[self.place_of[seat]]

    def owner_of(self, card: str) -> int | None:
        """The seat whose Forest holds this creature, or None."""
        for place, forest in enumerate(self.forests):
            if card in forest:
                return self.occupant[place]
        return None

    def awake_hommes(self, seat: int) -> tuple[str, ...]:
        return tuple(c for c in self.forest_of(seat) if self.race(c) == "homme" and c not in self.neutralised)

    def protected(self, seat: int) -> bool:
        """C0.2, C0.3: the Forest holds at least one awake Homme."""
        return bool(self.awake_hommes(seat))

    def next_place(self, place: int) -> int:
        return (place + 1) % self.seats

    @property
    def over(self) -> bool:
        return self.end is not None


def all_cards(state: FantasyState) -> list[str]:
    """Every card of the table, wherever it lies (for conservation checks)."""
    return [
        *state.deck,
        *(c for h in state.hands for c in h),
        *(c for f in state.forests for c in f),
        *(c for s in state.secrets for c in s),
        *state.out_of_play,
    ]


def is_creature(card: str) -> bool:
    return kind(card) == "creature"


def dump_state(state: FantasyState) -> JSON:
    return state.model_dump(mode="json")


def load_state(data: Mapping[str, Any]) -> FantasyState:
    return FantasyState.model_validate(data)
