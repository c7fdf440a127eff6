"""Building Fantasy Realms states directly, for tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from app.games.base import IllegalMove
from app.games.realms import rules
from app.games.realms.options import RealmsOptions
from app.games.realms.state import RealmsState, Turn, all_slugs


def make_state(
    hands: Sequence[Sequence[str]],
    *,
    discard_area: Sequence[str] = (),
    active: int = 0,
    first_player: int | None = None,
    deck_top: Sequence[str] = (),
    deck_size: int | None = None,
    options: RealmsOptions | None = None,
    **options_kw: Any,
) -> RealmsState:
    """A state at the start of `active`'s turn. The deck is `deck_top` followed by every card not placed
    elsewhere (in card-number order), cut to `deck_size` cards if given (the rest are put nowhere, so
    only use deck_size when the 53-card count does not matter)."""
    opts = options or RealmsOptions(**options_kw)
    placed = [c for h in hands for c in h] + list(discard_area) + list(deck_top)
    assert len(placed) == len(set(placed)), "a card is placed twice"
    rest = [c for c in all_slugs() if c not in set(placed)]
    deck = list(deck_top) + rest
    if deck_size is not None:
        deck = deck[:deck_size]
    return RealmsState(
        options=opts,
        seats=len(hands),
        deck=tuple(deck),
        hands=tuple(tuple(h) for h in hands),
        discard_area=tuple(discard_area),
        first_player=active if first_player is None else first_player,
        active=active,
        turn=Turn(start_hand_size=len(hands[active])),
    )


def filler(n: int, exclude: Sequence[str] = ()) -> list[str]:
    """n card slugs (card-number order) not in `exclude`."""
    return [c for c in all_slugs() if c not in set(exclude)][:n]


def play(state: RealmsState, seat: int, move: dict[str, Any], *, host: bool = False) -> RealmsState:
    return rules.apply(state, seat, rules.MOVE_ADAPTER.validate_python(move), random.Random(0), host=host)


def rejected(state: RealmsState, seat: int, move: dict[str, Any], *, host: bool = False) -> IllegalMove:
    """Apply a move that must be refused; check the state is unchanged and return the error."""
    before = state.model_dump(mode="json")
    try:
        play(state, seat, move, host=host)
    except IllegalMove as err:
        assert state.model_dump(mode="json") == before
        return err
    raise AssertionError(f"move {move} was accepted")


def log_texts(view: dict[str, Any]) -> list[str]:
    return [e["text"] % e["params"] for e in view["log"]]


def dumped(moves: Sequence[Any]) -> list[dict[str, Any]]:
    return [rules.MOVE_ADAPTER.dump_python(m, mode="json", exclude_none=True) for m in moves]


def ended_state(hands: list[list[str]], **options: object) -> RealmsState:
    """Play the tenth discard of a 3-player standard game with the given hands (seat 0 discards the card it
    takes from the deck, so the hands stay as given)."""
    placed = [c for h in hands for c in h]
    pile = filler(9, exclude=placed)
    state = make_state(hands, discard_area=pile, **options)  # type: ignore[arg-type]
    state = play(state, 0, {"action": "take", "source": "deck"})
    drawn = state.turn.taken[0].card
    return play(state, 0, {"action": "discard", "card": drawn})


NO_CHOICE_HANDS = [
    ["forge", "blizzard", "unicorn", "rainstorm", "war-dirigible", "warlord", "sword-of-keth"],
    ["mountain", "cavern", "wildfire", "rangers", "beastmaster", "basilisk", "warship"],
    ["light-cavalry", "dwarvish-infantry", "warlock-lord", "swamp", "smoke", "hydra", "empress"],
]


def strings(data: object) -> set[str]:
    """Every JSON string value in data (for leak checks on views)."""
    out: set[str] = set()
    if isinstance(data, str):
        out.add(data)
    elif isinstance(data, dict):
        for v in data.values():
            out |= strings(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= strings(v)
    return out
