"""Tally: a tiny card game used only by the platform's tests (never shipped).

Each seat holds a secret hand; on your turn you play one card face up (its
number scores for you) and draw the top card of the secret deck. After
`turns_per_seat` turns each, the highest total wins. It has what the platform
must protect: hidden hands, a hidden deck order, private log lines.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.games.base import N_, Hidden, IllegalMove, LogEntry, Result, ScoreLine, SeatResult, Timeout


class TallyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hand_size: int = Field(3, ge=1, le=30, description="Cards in each hand.")
    turns_per_seat: int = Field(3, ge=1, le=30, description="Turns each seat plays.")
    turn_seconds: int | None = Field(
        None, ge=1, description="Seconds before a waiting seat plays its lowest card."
    )


class Play(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["play"] = "play"
    card: str = Field(max_length=10)


class TallyGame:
    id: ClassVar[str] = "tally"
    title: ClassVar[str] = "Tally (test game)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[BaseModel]] = TallyOptions
    Prefs: ClassVar[type[BaseModel] | None] = None
    Move: ClassVar[TypeAdapter[Any]] = TypeAdapter(Play)

    def setup(self, seats: int, options: BaseModel, rng: random.Random) -> dict[str, Any]:
        assert isinstance(options, TallyOptions)
        size = seats * (options.hand_size + options.turns_per_seat) + 5
        deck = [f"t{n}" for n in range(1, size + 1)]
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(options.hand_size)] for _ in range(seats)]
        return {
            "seats": seats,
            "options": options.model_dump(),
            "deck": deck,
            "hands": hands,
            "played": [],
            "scores": [0] * seats,
            "turns": [0] * seats,
            "active": rng.randrange(seats),
            "log": [LogEntry(N_("The cards are dealt.")).dump()],
        }

    def to_act(self, state: dict[str, Any]) -> frozenset[int]:
        if self._over(state):
            return frozenset()
        return frozenset({state["active"]})

    def _over(self, state: dict[str, Any]) -> bool:
        return min(state["turns"]) >= state["options"]["turns_per_seat"]

    def legal_moves(self, state: dict[str, Any], seat: int) -> list[Play]:
        if seat not in self.to_act(state):
            return []
        return [Play(card=c) for c in state["hands"][seat]]

    def apply(
        self, state: dict[str, Any], seat: int, move: Any, rng: random.Random, *, host: bool = False
    ) -> Any:
        if self._over(state):
            raise IllegalMove("game_over", N_("The game is over."))
        if seat != state["active"]:
            raise IllegalMove("not_your_turn", N_("It is not your turn."))
        if move.card not in state["hands"][seat]:
            raise IllegalMove("not_in_hand", N_("You do not hold that card."))
        new = {k: (list(v) if isinstance(v, list) else v) for k, v in state.items()}
        new["hands"] = [list(h) for h in state["hands"]]
        new["hands"][seat].remove(move.card)
        new["played"].append(move.card)
        new["scores"][seat] += int(move.card[1:])
        new["turns"][seat] += 1
        log = [LogEntry(N_("Seat %(seat)s played %(card)s."), {"seat": seat + 1, "card": move.card})]
        if new["deck"]:
            drawn = new["deck"].pop()
            new["hands"][seat].append(drawn)
            log.append(
                LogEntry(
                    N_("Seat %(seat)s drew a card."),
                    {"seat": seat + 1},
                    private={seat: (N_("You drew %(card)s."), {"card": drawn})},
                )
            )
        new["log"] = state["log"] + [e.dump() for e in log]
        new["active"] = (seat + 1) % state["seats"]
        return new

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state["hands"]],
            "deck_size": len(state["deck"]),
            "played": list(state["played"]),
            "scores": list(state["scores"]),
            "active": state["active"],
            "prompt": {"text": N_("Play a card."), "params": {}},
            "log": [LogEntry.for_seat(e, seat) for e in state["log"]],
        }

    def result(self, state: dict[str, Any]) -> Result | None:
        if not self._over(state):
            return None
        scores = state["scores"]
        best = max(scores)
        ranks = [1 + sum(1 for other in scores if other > s) for s in scores]
        return Result(
            seats=[
                SeatResult(seat=i, score=s, rank=ranks[i], lines=[ScoreLine(label="played", points=s)])
                for i, s in enumerate(scores)
            ],
            winners=[i for i, s in enumerate(scores) if s == best],
        )

    def bot_move(self, state: dict[str, Any], seat: int, rng: random.Random) -> Play:
        return max(self.legal_moves(state, seat), key=lambda m: int(m.card[1:]))

    def timeout(self, state: dict[str, Any]) -> Timeout | None:
        """With `turn_seconds`, a seat that waits too long plays its lowest card."""
        limit = state["options"].get("turn_seconds")
        if not limit or self._over(state):
            return None
        seat = state["active"]
        lowest = min(state["hands"][seat], key=lambda c: int(c[1:]))
        return Timeout(f"turn:{sum(state['turns'])}", float(limit), seat, Play(card=lowest))

    def auto_move(self, state: dict[str, Any], seat: int, prefs: BaseModel | None) -> Any | None:
        return None

    def dump_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return state

    def load_state(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def hidden_from(self, state: dict[str, Any], seat: int | None) -> Hidden:
        values = set(state["deck"])
        for i, hand in enumerate(state["hands"]):
            if i != seat:
                values.update(hand)
        return Hidden(frozenset(values))


GAME = TallyGame()
