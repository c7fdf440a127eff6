"""Fantasy (game id `fantasy`), with the Fantasy II expansion as an option: the Game protocol
over the modules of this package."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from app.games.base import JSON, Hidden, Result, Timeout
from app.games.fantasy import bot, rules, scoring, view
from app.games.fantasy import state as state_module
from app.games.fantasy.options import FantasyOptions, FantasyPrefs
from app.games.fantasy.state import FantasyState


class FantasyGame:
    id: ClassVar[str] = "fantasy"
    title: ClassVar[str] = "Fantasy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    Options: ClassVar[type[BaseModel]] = FantasyOptions
    Prefs: ClassVar[type[BaseModel] | None] = FantasyPrefs
    Move: ClassVar[TypeAdapter[Any]] = rules.MOVE_ADAPTER

    def setup(self, seats: int, options: BaseModel, rng: random.Random) -> FantasyState:
        if not isinstance(options, FantasyOptions):
            options = FantasyOptions.model_validate(options.model_dump())
        return rules.setup(seats, options, rng)

    def to_act(self, state: FantasyState) -> frozenset[int]:
        return rules.to_act(state)

    def legal_moves(self, state: FantasyState, seat: int) -> list[Any]:
        return rules.legal_moves(state, seat)

    def apply(
        self, state: FantasyState, seat: int, move: Any, rng: random.Random, *, host: bool = False
    ) -> FantasyState:
        return rules.apply(state, seat, move, rng, host=host)

    def view(self, state: FantasyState, seat: int | None) -> JSON:
        return view.view(state, seat)

    def result(self, state: FantasyState) -> Result | None:
        return scoring.result(state)

    def bot_move(self, state: FantasyState, seat: int, rng: random.Random) -> Any:
        return bot.bot_move(state, seat, rng)

    def timeout(self, state: FantasyState) -> Timeout | None:
        """R9: with a reaction deadline, the lowest unanswered reactor is passed once it expires.
        The key names the window, so the deadline does not restart after each pass."""
        seconds = state.options.reaction_timeout_s
        if state.over or state.window is None or seconds is None or not state.window.waiting:
            return None
        return Timeout(
            key=f"window:{state.window.number}",
            after_seconds=float(seconds),
            seat=min(state.window.waiting),
            move=rules.ReactPass(),
        )

    def auto_move(self, state: FantasyState, seat: int, prefs: BaseModel | None) -> Any | None:
        return auto_move(state, seat, prefs)

    def dump_state(self, state: FantasyState) -> JSON:
        return state_module.dump_state(state)

    def load_state(self, data: JSON) -> FantasyState:
        return state_module.load_state(data)

    def hidden_from(self, state: FantasyState, seat: int | None) -> Hidden:
        return view.hidden_from(state, seat)


def auto_move(state: FantasyState, seat: int, prefs: BaseModel | None) -> Any | None:
    """R9, T3d, T4: moves the service makes at once. Public facts and `prefs` only: never the
    contents of a hand, so how fast the table moves on reveals nothing."""
    if state.over or seat not in rules.to_act(state):
        return None
    if state.window is not None:
        pref = getattr(prefs, "react_pref", "ask_when_affected")
        if pref == "never" or (pref == "ask_when_affected" and seat not in rules.affected(state)):
            return rules.ReactPass()
        return None
    if state.decision is not None or seat != state.active or state.hands[seat]:
        return None
    return rules.EndTurn() if state.step == "after_bieres" else rules.Pass()


GAME = FantasyGame()
