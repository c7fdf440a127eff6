"""Scoring (spec E6-E8): each player scores the Forest at the place he occupies."""

from __future__ import annotations

from app.games.base import N_, Result, ScoreLine, SeatResult
from app.games.fantasy.cards import COLUMN_ORDER, DATA, RACE_NAMES, printed_race
from app.games.fantasy.state import FantasyState

NOTES = {
    ("final_round", ""): N_("The game ended after the final round."),
    ("final_round", "fewest"): N_(
        "The game ended after the final round. The tie was broken by the fewest cards in hand."
    ),
    ("final_round", "shared"): N_("The game ended after the final round. Tied players share the victory."),
    ("replenish_failed", ""): N_("The game ended: a player with an empty hand could not replenish."),
    ("replenish_failed", "fewest"): N_(
        "The game ended: a player with an empty hand could not replenish. "
        "The tie was broken by the fewest cards in hand."
    ),
    ("replenish_failed", "shared"): N_(
        "The game ended: a player with an empty hand could not replenish. Tied players share the victory."
    ),
    ("stalemate", ""): N_("The game ended by stalemate: a full round of passes with an empty deck."),
    ("stalemate", "fewest"): N_(
        "The game ended by stalemate: a full round of passes with an empty deck. "
        "The tie was broken by the fewest cards in hand."
    ),
    ("stalemate", "shared"): N_(
        "The game ended by stalemate: a full round of passes with an empty deck. "
        "Tied players share the victory."
    ),
}


def place_score(state: FantasyState, place: int) -> int:
    """E6: 1 point per creature, 2 when the Secret of its current race lies at the same place."""
    doubled = {printed_race(s) for s in state.secrets[place]}
    return sum(2 if state.race(c) in doubled else 1 for c in state.forests[place])


def score(state: FantasyState, seat: int) -> int:
    return place_score(state, state.place_of[seat])


def lines(state: FantasyState, seat: int) -> list[ScoreLine]:
    """E8: one line per race with a creature or a Secret at this seat's place, in column order."""
    place = state.place_of[seat]
    forest = state.forests[place]
    doubled = {printed_race(s) for s in state.secrets[place]}
    out: list[ScoreLine] = []
    for race in COLUMN_ORDER:
        cards = [c for c in forest if state.race(c) == race]
        if not cards and race not in doubled:
            continue
        mult = 2 if race in doubled else 1
        transformed = [c for c in cards if c in state.races]
        detail = f"{len(cards)} card{'s' if len(cards) != 1 else ''} × {mult}"
        if race in doubled:
            detail += f" ({DATA.secret_names[race].en})"
        if transformed:
            detail += f", includes {', '.join(transformed)} (transformed)"
        message = N_("%(count)s × %(mult)s (%(secret)s)") if race in doubled else N_("%(count)s × %(mult)s")
        params = {"count": len(cards), "mult": mult, "secret": DATA.secret_names[race].fr}
        out.append(
            ScoreLine(
                label=RACE_NAMES[race],
                points=len(cards) * mult,
                detail=detail,
                extra={
                    "race": race,
                    "cards": list(cards),
                    "secret": race in doubled,
                    "messages": [[message, params]],
                },
            )
        )
    return out


def result(state: FantasyState) -> Result | None:
    """E6-E8, once the game has ended; seats listed in place order."""
    if state.end is None:
        return None
    scores = [score(state, s) for s in range(state.seats)]
    cards = [len(h) for h in state.hands]
    fewest = state.options.tiebreak == "fewest_cards"

    def key(s: int) -> tuple[int, int]:
        return (-scores[s], cards[s] if fewest else 0)

    ranks = [1 + sum(1 for o in range(state.seats) if key(o) < key(s)) for s in range(state.seats)]
    winners = sorted(s for s in range(state.seats) if ranks[s] == 1)
    top = max(scores)
    tied_top = [s for s in range(state.seats) if scores[s] == top]
    tie = ""
    if len(tied_top) > 1:
        tie = "fewest" if fewest and len(winners) < len(tied_top) else "shared"
    seats = [
        SeatResult(
            seat=s,
            score=scores[s],
            rank=ranks[s],
            lines=lines(state, s),
            tie_break=f"{cards[s]} cards in hand" if len(tied_top) > 1 and s in tied_top else "",
        )
        for s in state.occupant
    ]
    return Result(seats=seats, winners=winners, note=NOTES[(state.end.reason, tie)])
