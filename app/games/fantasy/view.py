"""What one seat (or a spectator) may know of a Fantasy table (§8, R9).

`view` is the only door out of the rules layer. It never carries the deck, another
seat's hand, or anything that depends on whether somebody holds a Fée: the reaction
window and its prompt are built from public facts only and are the same for every
viewer. Only the viewer's own `hand` (and a decision's cards for the players §8
allows) differ from seat to seat.
"""

from __future__ import annotations

from typing import Any

from app.games.base import JSON, N_, Hidden, LogEntry
from app.games.fantasy import rules, scoring
from app.games.fantasy.cards import COLUMN_ORDER, RECONSTRUCTION_NOTICE, printed_race
from app.games.fantasy.state import FantasyState


def _prompt(text: str, **params: Any) -> JSON:
    return {"text": text, "params": params}


def step(state: FantasyState) -> str:
    if state.over:
        return "over"
    if state.decision is not None:
        return "decision"
    if state.window is not None:
        return "window"
    return state.step


def forest(state: FantasyState, place: int) -> JSON:
    """S8: columns in column order; a Secret heads its race's column; empty columns are left out."""
    cards = state.forests[place]
    secrets = {printed_race(s): s for s in state.secrets[place]}
    columns = []
    for race in COLUMN_ORDER:
        mine = [c for c in cards if state.race(c) == race]
        if not mine and race not in secrets:
            continue
        columns.append(
            {
                "race": race,
                "secret": secrets.get(race),
                "cards": [
                    {
                        "id": c,
                        "race": race,
                        "was_homme": c in state.races,
                        "neutralised": c in state.neutralised,
                    }
                    for c in mine
                ],
            }
        )
    return {"size": len(cards), "columns": columns}


def window_prompt(state: FantasyState) -> JSON:
    return rules.describe(state, state.chain[-1], len(state.chain) - 1, prompt=True)


def _window(state: FantasyState) -> JSON | None:
    w = state.window
    if w is None:
        return None
    chain = []
    for i, item in enumerate(state.chain):
        d = rules.describe(state, item, i)
        chain.append(
            {
                "kind": item.kind,
                "seat": item.seat,
                "card": item.card,
                "declared": rules.declared(item),
                "text": d["text"],
                "params": d["params"],
            }
        )
    return {
        "number": w.number,
        "chain": chain,
        "eligible": list(w.eligible),
        "waiting": list(w.waiting),
        "affected": list(rules.affected(state)),
        "timeout_s": state.options.reaction_timeout_s,
        "prompt": window_prompt(state),
    }


_DECISION_TEXT = {
    "victim_chooses": N_("%(player)s chooses %(count)s card(s) to give to %(target)s."),
    "actor_chooses": N_("%(player)s chooses %(count)s card(s) to take from %(source)s."),
    "replenish": N_("%(player)s chooses 1 card to give to %(target)s."),
}


def _decision(state: FantasyState, seat: int | None) -> JSON | None:
    d = state.decision
    if d is None:
        return None
    key = "replenish" if d.purpose == "replenish" else d.mode
    out: JSON = {
        "seat": d.seat,
        "kind": "choose_cards",
        "purpose": d.purpose,
        "count": d.count,
        "source": d.source,
        "receiver": d.receiver,
        "prompt": _prompt(
            _DECISION_TEXT[key],
            player=rules.P(d.seat),
            count=d.count,
            target=rules.P(d.receiver),
            source=rules.P(d.source),
        ),
        "cards": None,
    }
    if seat is not None and seat in (d.seat, d.source):  # §8: the chooser, and the owner of the hand
        out["cards"] = list(state.hands[d.source])
    return out


def prompt(state: FantasyState, seat: int | None) -> JSON:
    """What this viewer is asked to do now, or what the table waits for. Never depends on a hand."""
    if state.over:
        return _prompt(N_("The game is over."))
    d = state.decision
    if d is not None:
        if seat == d.seat:
            if d.purpose == "korrigan" and d.mode == "actor_chooses":
                return _prompt(
                    N_("Choose %(count)s card(s) to take from %(source)s."),
                    count=d.count,
                    source=rules.P(d.source),
                )
            return _prompt(
                N_("Choose %(count)s card(s) to give to %(target)s."),
                count=d.count,
                target=rules.P(d.receiver),
            )
        return _prompt(N_("Waiting for %(player)s to choose cards."), player=rules.P(d.seat))
    w = state.window
    if w is not None:
        if seat in w.waiting:
            return window_prompt(state)
        return _prompt(N_("Waiting for %(players)s to answer."), players=[rules.P(s) for s in w.waiting])
    if seat == state.active:
        if state.step == "after_bieres":
            if state.options.biere_followup == "target_forest" and state.biere_target is not None:
                return _prompt(
                    N_("You may lay a creature that acts on %(target)s's Forest, or end your turn."),
                    target=rules.P(state.biere_target),
                )
            return _prompt(N_("You may lay a creature, or end your turn."))
        return _prompt(N_("Your turn: lay a card (pass only if you cannot)."))
    return _prompt(N_("Waiting for %(player)s."), player=rules.P(state.active))


def view(state: FantasyState, seat: int | None) -> JSON:
    if seat is not None and not 0 <= seat < state.seats:
        seat = None
    opts = state.options
    players = [
        {
            "seat": s,
            "place": state.place_of[s],
            "hand_size": len(state.hands[s]),
            "score": scoring.score(state, s),
            "forest": forest(state, state.place_of[s]),
        }
        for s in range(state.seats)
    ]
    return {
        "game": "fantasy",
        "seat": seat,
        "expansion": opts.expansion,
        "options": opts.model_dump(mode="json"),
        "farfadet_mode": opts.farfadet,
        "end_rule": opts.ending,
        "reconstruction_notice": RECONSTRUCTION_NOTICE if opts.expansion else None,
        "places": list(state.occupant),
        "first_place": state.first_place,
        "players": players,
        "deck_size": len(state.deck),
        "out_of_play": list(state.out_of_play),
        "turn": {
            "place": state.turn_place,
            "active": state.active,
            "step": step(state),
            "biere_target": state.biere_target,
            "number": state.turn_number,
        },
        "to_act": sorted(rules.to_act(state)),
        "hand": list(state.hands[seat]) if seat is not None else None,
        "window": _window(state),
        "decision": _decision(state, seat),
        "final_round": {"remaining_places": list(state.final_round)}
        if state.final_round is not None
        else None,
        "idle_turns": state.idle_turns,
        "prompt": prompt(state, seat),
        "log": [LogEntry.for_seat(e, seat) for e in state.log],
        "end": {"reason": state.end.reason, "seat": state.end.seat} if state.end else None,
    }


def hidden_from(state: FantasyState, seat: int | None) -> Hidden:
    """The deck and every other hand, minus the cards this seat has held itself (it knows them, §8)
    and, during an `actor_chooses` decision, the target's hand for the Korrigan's player."""
    hidden: set[str] = set(state.deck)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden.update(hand)
    if seat is not None:
        hidden -= set(state.ever_held[seat])
        d = state.decision
        if d is not None and seat == d.seat:
            hidden -= set(state.hands[d.source])
    return Hidden(values=frozenset(hidden))
