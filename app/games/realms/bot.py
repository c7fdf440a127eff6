"""A sensible Fantasy Realms bot.

It looks only at what its seat may know (its hand, the discard area). It takes
the discard-area card that raises its best reachable score, otherwise the deck;
it discards the card whose loss hurts least; at the end it confirms the
pre-selected best choices. Deterministic given the rng: ties are broken by it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from app.games.realms import rules, scoring
from app.games.realms.options import RealmsOptions
from app.games.realms.state import HAND_SIZE, RealmsState

# A card from the discard area is preferred to an unknown deck card when it adds at least this much
# while the hand is still being gathered (2-player variants).
GATHER_MARGIN = 8


def hand_value(cards: Sequence[str], options: RealmsOptions) -> int:
    """Roughly the best score this set of cards can reach: a lone choice card is searched, several are
    left empty (cheap enough to be called a few hundred times a turn)."""
    return _hand_value(tuple(sorted(cards)), options)


@lru_cache(maxsize=20000)
def _hand_value(cards: tuple[str, ...], options: RealmsOptions) -> int:
    if not cards:
        return 0
    hand = list(cards)
    # the Necromancer's extra card is left out while playing: the discard area will change
    keys = [k for k in scoring.choice_keys(hand) if k != "necromancer"]
    if len(keys) == 1:
        pinned = {"necromancer": None} if "necromancer" in scoring.choice_keys(hand) else None
        return int(scoring.best_choices(hand, options, discard_area=[], pinned=pinned).score.total)
    return int(scoring.score_total(hand, {}, options))


def _pick(options: list[tuple[float, Any]], rng: random.Random) -> Any:
    """The move with the highest value; equal values decided by the rng."""
    best = max(v for v, _ in options)
    top = [m for v, m in options if v == best]
    return top[0] if len(top) == 1 else rng.choice(top)


def _best_after_discard(cards: Sequence[str], allowed: Sequence[str], options: RealmsOptions) -> int:
    return max(hand_value([c for c in cards if c != d], options) for d in allowed)


def bot_move(state: RealmsState, seat: int, rng: random.Random) -> Any:
    legal = rules.legal_moves(state, seat)
    if not legal:
        raise ValueError("the bot has no move: not its turn")
    if state.phase == "final_choices":
        return next(m for m in legal if isinstance(m, rules.FinalChoicesConfirm))

    opts = state.options
    hand = list(state.hands[seat])
    takes = [m for m in legal if isinstance(m, rules.Take | rules.DrawTwo)]
    discards = [m for m in legal if isinstance(m, rules.Discard)]
    gathering = state.turn.start_hand_size < HAND_SIZE and state.mode != "standard"

    if takes and (not discards or gathering):
        return _choose_take(state, hand, takes, gathering, rng)
    # discard: keep the best remaining hand
    scored = [(hand_value([c for c in hand if c != m.card], opts), m) for m in discards]
    return _pick(scored, rng)


def _choose_take(
    state: RealmsState, hand: list[str], takes: list[Any], gathering: bool, rng: random.Random
) -> Any:
    opts = state.options
    blind = [m for m in takes if isinstance(m, rules.DrawTwo) or m.source == "deck"]
    visible = [m for m in takes if isinstance(m, rules.Take) and m.source == "discard"]
    if gathering:
        base = hand_value(hand, opts)
        scored = [(hand_value([*hand, m.card], opts) - base, m) for m in visible]
        if blind:
            scored.append((GATHER_MARGIN, blind[0]))
        return _pick(scored, rng)
    # a 7-card turn: the value of the best hand after taking c and discarding one card
    base = hand_value(hand, opts)
    scored = []
    for m in visible:
        cards = [*hand, m.card]
        allowed = hand if not opts.may_discard_taken_card else cards
        scored.append((_best_after_discard(cards, allowed, opts) - base, m))
    if blind:
        # an unknown card: worth taking a visible card only if it strictly improves the hand
        scored.append((0.5, blind[0]))
    return _pick(scored, rng)
