"""What one seat (or a spectator) may know of a Fantasy Realms table (§8, R2).

`view` is the only door out of the rules layer. It never carries the deck's
contents, another seat's hand, the card another seat took from the deck (F15)
or another seat's end-of-game draft.
"""

from __future__ import annotations

from typing import Any

from app.games.base import JSON, N_, Hidden, LogEntry
from app.games.realms import rules
from app.games.realms.state import HAND_SIZE, RealmsState, all_slugs, card_number

# Mirage and Shapeshifter may name any card of their suits, wherever it is (C51, C52, A20): those
# slugs are offered to every holder and, after the reveal, shown as the choice made. Naming them says
# nothing about where the card lies, so they are not secret in that role.
MIRAGE_RANGE = range(1, 26)
SHAPESHIFTER_RANGE = range(26, 51)


def _prompt(text: str, **params: Any) -> JSON:
    return {"text": text, "params": params}


def prompt(state: RealmsState, seat: int | None) -> JSON:
    """The short sentence telling `seat` what it is asked to do now."""
    if state.phase == "finished":
        return _prompt(N_("The game is over."))
    if state.phase == "final_choices":
        if seat is None:
            return _prompt(N_("The players are making their end-of-game choices."))
        if state.final[seat].confirmed:
            return _prompt(N_("Waiting for the other players to confirm their choices."))
        if not rules.held_keys(state.hands[seat]):
            return _prompt(N_("You have no end-of-game choices; confirm to reveal your hand"))
        return _prompt(N_("Make your end-of-game choices, then confirm."))
    if seat != state.active:
        return _prompt(N_("Waiting for %(player)s."), **rules.player_params(state.active))
    turn = state.turn
    k = len(turn.taken)
    gathering = turn.start_hand_size < HAND_SIZE
    mode = state.mode
    if k == 0:
        if mode == "published" and gathering:
            return _prompt(N_("Take a card from the discard area, or draw two from the deck."))
        if not state.discard_area:
            return _prompt(N_("Take the top card of the deck."))
        if not state.deck:
            return _prompt(N_("Take a card from the discard area."))
        return _prompt(N_("Take a card: the top card of the deck or any card in the discard area."))
    if turn.drew_two:
        return _prompt(N_("Discard one of the two cards you drew."))
    if mode == "seed" and gathering:
        if k == 2:
            return _prompt(N_("Discard one of the two cards you took this turn."))
        if turn.start_hand_size == 0:
            return _prompt(N_("Take a second card."))
        return _prompt(N_("Take a second card, or discard a card to swap."))
    return _prompt(N_("Discard a card."))


def _sorted(cards: tuple[str, ...] | list[str]) -> list[str]:
    return sorted(cards, key=card_number)


def _final_choices(state: RealmsState, seat: int | None) -> JSON:
    status = [{"seat": i, "confirmed": sc.confirmed} for i, sc in enumerate(state.final)]
    mine: JSON | None = None
    if seat is not None and state.phase == "final_choices":
        sc = state.final[seat]
        keys = rules.held_keys(state.hands[seat])
        controls = []
        for key in keys:
            values = [] if sc.confirmed else rules.choice_values(state, seat, key, sc.draft)
            controls.append(
                {
                    "key": key,
                    "card": rules.CHOICE_CARD[key],
                    "value": sc.draft.get(key),
                    "values": values,
                }
            )
        mine = {
            "confirmed": sc.confirmed,
            "has_choices": bool(keys),
            "draft": dict(sc.draft),
            "preselection": dict(sc.preselection),
            "search_stopped_early": not sc.exhaustive,
            "controls": controls,
            "notices": list(sc.notices),
            "preview": rules.preview(state, seat).to_dict(),
        }
    return {
        "status": status,
        "deadline_minutes": state.options.final_choice_deadline_minutes,
        "mine": mine,
    }


def view(state: RealmsState, seat: int | None) -> JSON:
    if seat is not None and not 0 <= seat < state.seats:
        seat = None
    finished = state.phase == "finished"
    turn: JSON | None = None
    if state.phase == "play":
        own = seat == state.active
        turn = {
            "seat": state.active,
            "start_hand_size": state.turn.start_hand_size,
            "drew_two": state.turn.drew_two,
            # what was taken and from where is public; which card only for the taker (F15)
            "taken": [{"source": t.source, **({"card": t.card} if own else {})} for t in state.turn.taken],
        }
    moves: list[JSON] = []
    if seat is not None and state.phase == "play":
        moves = [rules.MOVE_ADAPTER.dump_python(m, mode="json") for m in rules.legal_moves(state, seat)]
    data: JSON = {
        "game": "realms",
        "seat": seat,
        "seats": state.seats,
        "mode": state.mode,
        "options": state.options.model_dump(mode="json"),
        "phase": state.phase,
        "first_player": state.first_player,
        "active_seat": state.active if state.phase == "play" else None,
        "to_act": sorted(rules.to_act(state)),
        "turns_played": state.turns_played,
        "deck_size": len(state.deck),
        "discard_area": list(state.discard_area),
        "hand_sizes": [len(h) for h in state.hands],
        "hand": _sorted(state.hands[seat]) if seat is not None else None,
        "turn": turn,
        "prompt": prompt(state, seat),
        "moves": moves,
        "final_choices": _final_choices(state, seat) if state.phase != "play" else None,
        "hands": [_sorted(h) for h in state.hands] if finished else None,
        "result": rules.game_result(state).dump() if finished else None,
        "scores": state.result["seats"] if finished and state.result else None,
        "log": [LogEntry.for_seat(e, seat) for e in state.log],
    }
    return data


def hidden_from(state: RealmsState, seat: int | None) -> Hidden:
    """Other seats' hands (until the reveal) and the deck, always.

    Mirage / Shapeshifter choice values are exempt where this seat legitimately sees them as values:
    its own controls during the final-choices phase, everybody's choices after the reveal.
    """
    hidden: set[str] = set(state.deck)
    if state.phase != "finished":
        for i, hand in enumerate(state.hands):
            if i != seat:
                hidden.update(hand)
    exempt: set[str] = set()
    slugs = all_slugs()
    if state.phase == "final_choices" and seat is not None:
        held = rules.held_keys(state.hands[seat])
        if "mirage" in held:
            exempt.update(s for s in slugs if card_number(s) in MIRAGE_RANGE)
        if "shapeshifter" in held:
            exempt.update(s for s in slugs if card_number(s) in SHAPESHIFTER_RANGE)
    if state.phase == "finished":
        for sc in state.final:
            for key in ("mirage", "shapeshifter"):
                value = sc.draft.get(key)
                if isinstance(value, str):
                    exempt.add(value)
    return Hidden(values=frozenset(hidden - exempt))
