"""Helpers for the Fantasy tests: build a table position by hand, play moves, auto-passes, random playouts."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from app.games.base import IllegalMove
from app.games.fantasy import GAME, auto_move, rules
from app.games.fantasy.options import FantasyOptions, FantasyPrefs
from app.games.fantasy.state import FantasyState, all_cards

ANA, BOB, CID, DEE = 0, 1, 2, 3
FILLER = [f"gnome-{i}" for i in range(1, 9)]


def options(**kw: Any) -> FantasyOptions:
    return FantasyOptions(**kw)


def make(
    n: int = 3,
    *,
    hands: Mapping[int, Iterable[str]] | None = None,
    forests: Mapping[int, Iterable[str]] | None = None,
    secrets: Mapping[int, Iterable[str]] | None = None,
    deck: Iterable[str] | None = None,
    active: int = 0,
    opts: FantasyOptions | None = None,
    **update: Any,
) -> FantasyState:
    """A position: seat i at place i (unless `occupant` is given); the turn is at the active seat."""
    hands = {s: tuple(sorted(h)) for s, h in (hands or {}).items()}
    forests = {s: tuple(f) for s, f in (forests or {}).items()}
    secrets = {s: tuple(x) for s, x in (secrets or {}).items()}
    occupant = tuple(update.pop("occupant", range(n)))
    place_of = tuple(occupant.index(s) for s in range(n))
    state = FantasyState(
        options=opts or FantasyOptions(),
        seats=n,
        deck=tuple(deck if deck is not None else ("elfe-8", "elfe-7", "elfe-6", "elfe-5")),
        hands=tuple(hands.get(s, ()) for s in range(n)),
        forests=tuple(forests.get(occupant[p], ()) for p in range(n)),
        secrets=tuple(secrets.get(occupant[p], ()) for p in range(n)),
        occupant=occupant,
        place_of=place_of,
        turn_place=place_of[active],
        active=active,
        ever_held=tuple(hands.get(s, ()) for s in range(n)),
    )
    return state.model_copy(update=update)


def play(state: FantasyState, seat: int, move: Any, seed: int = 0) -> FantasyState:
    if isinstance(move, Mapping):
        move = GAME.Move.validate_python(dict(move))
    return GAME.apply(state, seat, move, random.Random(seed))


def creature(card: str, **fields: Any) -> dict[str, Any]:
    return {"action": "play_creature", "card": card, **fields}


def rejected(state: FantasyState, seat: int, move: Any) -> str:
    """The code of the refusal (and the state is left as it was)."""
    before = GAME.dump_state(state)
    try:
        play(state, seat, move)
    except IllegalMove as err:
        assert GAME.dump_state(state) == before
        return err.code
    raise AssertionError(f"accepted: {move}")


def settle(state: FantasyState, prefs: Mapping[int, FantasyPrefs] | None = None) -> FantasyState:
    """Apply the service's auto moves (R9, T3d, T4) until none is due, as the platform does."""
    prefs = prefs or {}
    for _ in range(500):
        if GAME.result(state) is not None:
            return state
        for seat in sorted(GAME.to_act(state)):
            move = auto_move(state, seat, prefs.get(seat))
            if move is not None:
                state = GAME.apply(state, seat, move, random.Random(1))
                break
        else:
            return state
    raise AssertionError("auto moves never stop")


def pass_all(state: FantasyState) -> FantasyState:
    """Every waiting reactor passes (windows may chain)."""
    while state.window is not None:
        state = play(state, min(state.window.waiting), rules.ReactPass())
    return state


def forest_of(state: FantasyState, seat: int) -> list[str]:
    return list(state.forest_of(seat))


_TOKEN = re.compile(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*")


def strings(value: Any) -> set[str]:
    """Every id-like token inside a JSON document (as the shared leak check matches them)."""
    return set(_TOKEN.findall(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)))


def check_invariants(state: FantasyState, total: Counter[str], log_from: int = 0) -> None:
    """Conservation, sorted hands, places, lossless dump/load, and no view naming a hidden id
    (log lines from `log_from` on: older ones were checked when they were new)."""
    assert Counter(all_cards(state)) == total  # conservation
    assert all(list(h) == sorted(h) for h in state.hands)  # T10
    assert sorted(state.occupant) == list(range(state.seats))
    assert all(state.occupant[state.place_of[s]] == s for s in range(state.seats))
    data = json.loads(json.dumps(GAME.dump_state(state)))
    assert GAME.load_state(data) == state
    for seat in [None, *range(state.seats)]:
        hidden = GAME.hidden_from(state, seat).values
        view = GAME.view(state, seat)
        view["log"] = view["log"][log_from:]
        text = json.dumps(view, ensure_ascii=False)
        seen = strings(text)
        assert not seen & hidden, (seat, seen & hidden)
        assert not seen & set(state.deck)  # never the deck
        if seat is None:
            assert view["hand"] is None


def random_playout(
    n: int,
    opts: FantasyOptions,
    seed: int,
    bot_share: float = 0.3,
    illegal_share: float = 0.1,
    max_moves: int = 3000,
) -> FantasyState:
    rng = random.Random(seed)
    state = GAME.setup(n, opts, random.Random(seed))
    total = Counter(all_cards(state))
    prefs = {
        s: FantasyPrefs(react_pref=rng.choice(["ask_when_affected", "ask_always", "never"])) for s in range(n)
    }
    check_invariants(state, total)
    seen_log = 0
    for _ in range(max_moves):
        state = settle(state, prefs)
        acting = sorted(GAME.to_act(state))
        if not acting:
            break
        seat = rng.choice(acting)
        if rng.random() < illegal_share:
            attempt = random_attempt(rng, state)
            actor = rng.randrange(n)
            before = GAME.dump_state(state)
            try:
                new = GAME.apply(state, actor, GAME.Move.validate_python(attempt), random.Random(0))
            except IllegalMove:
                assert GAME.dump_state(state) == before
            else:
                assert GAME.dump_state(state) == before
                assert canonical(GAME.Move.validate_python(attempt), state) in [
                    canonical(m, state) for m in GAME.legal_moves(state, actor)
                ]
                state, seen_log = new, _checked(new, total, seen_log)
            continue
        legal = GAME.legal_moves(state, seat)
        assert legal, (seat, state.window, state.decision, state.step)
        move = GAME.bot_move(state, seat, rng) if rng.random() < bot_share else rng.choice(legal)
        before = GAME.dump_state(state)
        state2 = GAME.apply(state, seat, move, rng)
        assert GAME.dump_state(state) == before  # apply never mutates its input
        state, seen_log = state2, _checked(state2, total, seen_log)
    return state


def _checked(state: FantasyState, total: Counter[str], log_from: int) -> int:
    check_invariants(state, total, log_from)
    return len(state.log)


def canonical(move: Any, state: FantasyState) -> Any:
    """Moves equal up to the order of lists and the optional Garou target player."""
    if isinstance(move, rules.PlayBieres):
        return ("bieres", len(move.cards), move.target_player, tuple(sorted(move.hommes)))
    if isinstance(move, rules.ChooseCards):
        return ("choose", tuple(sorted(move.cards)))
    if isinstance(move, rules.PlayCreature) and move.target_card and move.column:
        return move.model_copy(update={"target_player": state.owner_of(move.target_card)})
    return move


def random_attempt(rng: random.Random, state: FantasyState) -> dict[str, Any]:
    cards = [*sorted(set(all_cards(state))), "nope-1"]
    card = rng.choice(cards)
    other = rng.choice(cards)
    seat = rng.randrange(-1, state.seats + 1)
    return rng.choice(
        [
            {"action": "play_creature", "card": card},
            {"action": "play_creature", "card": card, "target_player": seat},
            {"action": "play_creature", "card": card, "target_player": seat, "target_card": other},
            {
                "action": "play_creature",
                "card": card,
                "copy": other,
                "target_player": seat,
                "target_card": other,
            },
            {
                "action": "play_creature",
                "card": card,
                "target_card": other,
                "column": rng.choice(["gnome", "homme", "x"]),
            },
            {"action": "play_secret", "card": card},
            {"action": "play_bieres", "cards": [card], "target_player": seat, "hommes": [other]},
            {"action": "play_bieres", "cards": [card, other], "target_player": seat},
            {"action": "end_turn"},
            {"action": "pass"},
            {"action": "react_fee", "card": card},
            {"action": "react_pass"},
            {"action": "choose_cards", "cards": [card, other]},
            {"action": "choose_cards", "cards": [card]},
        ]
    )


def fill(
    count: int, *, used: Iterable[str], races: Iterable[str] = ("korrigan", "lutin", "elfe", "dryade")
) -> list[str]:
    """`count` creature ids of these races that are not in `used` (to pad Forests, hands and decks)."""
    used = set(used)
    out = [f"{r}-{i}" for r in races for i in range(1, 9) if f"{r}-{i}" not in used]
    assert len(out) >= count
    return out[:count]


def names(*seats: int) -> list[dict[str, int]]:
    return [{"seat": s} for s in seats]
