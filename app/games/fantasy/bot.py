"""A Fantasy bot (one ply, public facts and its own hand).

It scores every legal move by resolving it as if nobody answered with a Fée, then reading
only public results: Forest scores and hand sizes. It prefers moves that grow its Forest
and shrink the leader's. In a reaction window it plays a Fée when the item hurts it
(its Forest or hand would shrink, or the leader would gain), and passes otherwise.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.fantasy import rules, scoring
from app.games.fantasy.state import FantasyState

HAND_WEIGHT = 0.3  # a card in hand is worth a little: a future play


def value(state: FantasyState, seat: int) -> float:
    mine = scoring.score(state, seat)
    others = [scoring.score(state, s) for s in range(state.seats) if s != seat]
    leader = max(others) if others else 0
    return mine - leader - 0.25 * sum(others) / max(1, len(others)) + HAND_WEIGHT * len(state.hands[seat])


def _settle(state: FantasyState) -> FantasyState:
    """Resolve open windows as if everybody passed (no hidden information is used for the value)."""
    for _ in range(50):
        if state.window is None or state.over:
            return state
        seat = min(state.window.waiting)
        state = rules.apply(state, seat, rules.ReactPass(), random.Random(0))
    return state


def _after(state: FantasyState, seat: int, move: Any) -> float:
    try:
        new = _settle(rules.apply(state, seat, move, random.Random(0)))
    except Exception:  # a move the bot could not simulate is simply not preferred
        return float("-inf")
    return value(new, seat)


def _pick(scored: list[tuple[float, Any]], rng: random.Random) -> Any:
    best = max(v for v, _ in scored)
    top = [m for v, m in scored if v == best]
    return top[0] if len(top) == 1 else rng.choice(top)


def bot_move(state: FantasyState, seat: int, rng: random.Random) -> Any:
    legal = rules.legal_moves(state, seat)
    if not legal:
        raise ValueError("the bot has no move: not its turn")
    if len(legal) == 1:
        return legal[0]
    if state.window is not None:
        fees = [m for m in legal if isinstance(m, rules.ReactFee)]
        if not fees:
            return rules.ReactPass()
        return fees[0] if _fee_pays(state, seat, fees[0]) else rules.ReactPass()
    if state.decision is not None:
        d = state.decision
        if d.seat == d.source:  # giving: keep the best cards (creatures first), give specials
            return min(legal, key=lambda m: (sum(_keep(c) for c in m.cards), m.cards))
        return max(legal, key=lambda m: (sum(_keep(c) for c in m.cards), m.cards))
    if len(legal) > 120:  # keep the bot quick: sample the long lists (Bière batches, Garou columns)
        legal = [legal[0], *rng.sample(legal[1:], 119)]
    return _pick([(_after(state, seat, m), m) for m in legal], rng)


def _keep(card: str) -> float:
    from app.games.fantasy.cards import kind, printed_race

    if kind(card) != "creature":
        return 0.5
    return {"fee": 3.0, "dryade": 2.5, "farfadet": 2.0, "ogre": 2.0, "korrigan": 1.5}.get(
        printed_race(card), 1.0
    )


def _fee_pays(state: FantasyState, seat: int, fee: rules.ReactFee) -> bool:
    """Play a Fée when cancelling the top item is worth more than the Fée's own point in the Forest
    (the Fée is kept for later otherwise)."""
    passed = (
        _after(state, seat, rules.ReactPass())
        if len(state.window.waiting) == 1
        else value(_settle(state), seat)
    )  # type: ignore[union-attr]
    return _after(state, seat, fee) > passed + 1.0
