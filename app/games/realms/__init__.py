"""Fantasy Realms (game id `realms`): the Game protocol over the modules of this package."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from app.games.base import JSON, Hidden, Result, Timeout
from app.games.realms import bot, rules, view
from app.games.realms import state as state_module
from app.games.realms.options import RealmsOptions
from app.games.realms.state import RealmsState


class RealmsGame:
    id: ClassVar[str] = "realms"
    title: ClassVar[str] = "Fantasy Realms"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    Options: ClassVar[type[BaseModel]] = RealmsOptions
    Prefs: ClassVar[type[BaseModel] | None] = None
    Move: ClassVar[TypeAdapter[Any]] = rules.MOVE_ADAPTER

    def setup(self, seats: int, options: BaseModel, rng: random.Random) -> RealmsState:
        if not isinstance(options, RealmsOptions):
            options = RealmsOptions.model_validate(options.model_dump())
        return rules.setup(seats, options, rng)

    def to_act(self, state: RealmsState) -> frozenset[int]:
        return rules.to_act(state)

    def legal_moves(self, state: RealmsState, seat: int) -> list[Any]:
        return rules.legal_moves(state, seat)

    def apply(
        self, state: RealmsState, seat: int, move: Any, rng: random.Random, *, host: bool = False
    ) -> RealmsState:
        return rules.apply(state, seat, move, rng, host=host)

    def view(self, state: RealmsState, seat: int | None) -> JSON:
        return view.view(state, seat)

    def result(self, state: RealmsState) -> Result | None:
        return rules.game_result(state)

    def bot_move(self, state: RealmsState, seat: int, rng: random.Random) -> Any:
        return bot.bot_move(state, seat, rng)

    def timeout(self, state: RealmsState) -> Timeout | None:
        """E9: waiting players are confirmed with their pre-selection once the
        deadline, counted from the start of the final-choices phase, passes."""
        minutes = state.options.final_choice_deadline_minutes
        if state.phase != "final_choices" or minutes is None:
            return None
        return Timeout("final_choices", minutes * 60.0, 0, rules.ForceFinalChoices(), as_host=True)

    def auto_move(self, state: RealmsState, seat: int, prefs: BaseModel | None) -> Any | None:
        return None

    def dump_state(self, state: RealmsState) -> JSON:
        return state_module.dump_state(state)

    def load_state(self, data: JSON) -> RealmsState:
        return state_module.load_state(data)

    def hidden_from(self, state: RealmsState, seat: int | None) -> Hidden:
        return view.hidden_from(state, seat)


GAME = RealmsGame()
