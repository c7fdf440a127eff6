"""Fantasy game flow: setup (S1-S8), turns (T1-T12), abilities (C0-C13), reactions (R1-R10)
and the end of the game (E1-E5). Scoring (E6-E8) lives in `scoring`.

Pure: no I/O, no clock, randomness only from the `rng` passed in. `apply` never changes
the state it is given; it returns a new one or raises `IllegalMove` with the spec's code.
When several codes apply, every check of the move is collected and the code listed first
in T12 is raised; a rule that names its own code for a case (C6, C10: `forest_protected`)
emits only that code for it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.games.base import N_, IllegalMove, LogEntry
from app.games.fantasy.cards import (
    COPYABLE,
    RACE_NAMES,
    RACES,
    base_ids,
    display_name,
    expansion_ids,
    kind,
    printed_race,
)
from app.games.fantasy.options import FantasyOptions
from app.games.fantasy.state import (
    HAND_SIZE,
    Decision,
    End,
    FantasyState,
    Item,
    Replenish,
    Window,
    is_creature,
)

# --- moves (T11) ----------------------------------------------------------------------------------


class _Move(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )


class PlayCreature(_Move):
    """T3a / T4: lay a creature and declare every choice its ability needs (T5.2)."""

    action: Literal["play_creature"] = "play_creature"
    card: str
    target_player: int | None = None
    target_card: str | None = None
    column: str | None = None
    copy_card: str | None = Field(None, alias="copy")


class PlaySecret(_Move):
    action: Literal["play_secret"] = "play_secret"
    card: str


class PlayBieres(_Move):
    action: Literal["play_bieres"] = "play_bieres"
    cards: tuple[str, ...]
    target_player: int | None = None
    hommes: tuple[str, ...] = ()


class EndTurn(_Move):
    action: Literal["end_turn"] = "end_turn"


class Pass(_Move):
    action: Literal["pass"] = "pass"


class ReactFee(_Move):
    action: Literal["react_fee"] = "react_fee"
    card: str


class ReactPass(_Move):
    action: Literal["react_pass"] = "react_pass"


class ChooseCards(_Move):
    action: Literal["choose_cards"] = "choose_cards"
    cards: tuple[str, ...]


Move = Annotated[
    PlayCreature | PlaySecret | PlayBieres | EndTurn | Pass | ReactFee | ReactPass | ChooseCards,
    Field(discriminator="action"),
]
MOVE_ADAPTER: TypeAdapter[Any] = TypeAdapter(Move)

# --- rejections (T12) -----------------------------------------------------------------------------

CODES = (
    "game_over",
    "not_your_turn",
    "wrong_step",
    "card_not_in_hand",
    "wrong_card_kind",
    "biere_followup",
    "must_play",
    "missing_choice",
    "unexpected_choice",
    "bad_target",
    "not_in_forest",
    "forest_protected",
    "not_a_homme",
    "bad_column",
    "cannot_copy",
    "copy_not_own",
    "secret_not_allowed",
    "too_many_bieres",
    "bad_hommes",
    "not_a_fee",
    "bad_choice",
)
RANK = {code: i for i, code in enumerate(CODES)}

GAME_OVER = N_("The game is over.")
NOT_YOUR_TURN = N_("It is not your turn to act.")
WRONG_STEP_BIERES = N_("After your Bières you may only lay a creature or end your turn.")
WRONG_STEP_WINDOW = N_("Answer the Fée window: play a Fée or pass.")
WRONG_STEP_DECISION = N_("Choose the cards first.")
WRONG_STEP_NO_WINDOW = N_("No power is waiting for an answer.")
WRONG_STEP_NO_DECISION = N_("There are no cards to choose now.")
WRONG_STEP_END_TURN = N_("You can only end your turn this way after playing Bières.")
NOT_IN_HAND = N_("You do not hold that card.")
NOT_A_CREATURE = N_("%(card)s is not a creature.")
NOT_A_SECRET = N_("%(card)s is not a Secret.")
NOT_A_BIERE = N_("%(card)s is not a Bière.")
BIERE_FOLLOWUP = N_("After your Bières you may only lay a card that acts on the Forest you aimed them at.")
MUST_PLAY = N_("You must lay a card.")
MISSING_TARGET = N_("Choose a player for your %(card)s.")
MISSING_CARD = N_("Choose a card in that player's Forest.")
MISSING_HOMME = N_("Choose a Homme in another player's Forest.")
MISSING_COLUMN = N_("Choose the column the Homme will join.")
MISSING_COPY = N_("Choose the card your Elfe copies.")
MISSING_BIERES = N_("Choose at least one Bière.")
UNEXPECTED = N_("Your %(card)s takes no such choice.")
BAD_TARGET = N_("Choose another player.")
NOT_IN_FOREST = N_("That card is not in that player's Forest.")
NOT_IN_ANY_FOREST = N_("That card is not in any Forest.")
FOREST_PROTECTED = N_("That player's Forest is protected by a Homme.")
NOT_A_HOMME = N_("A Garou can only take a Homme.")
BAD_COLUMN = N_("You have no %(race)s to join.")
CANNOT_COPY = N_("An Elfe cannot copy %(card)s.")
COPY_NOT_OWN = N_("Your Elfe can only copy a card in your own Forest.")
SECRET_NOT_ALLOWED = N_("You already have a %(race)s; this Secret can no longer be laid.")
TOO_MANY_BIERES = N_("That player has only %(count)s awake Hommes.")
TOO_MANY_BIERES_NONE = N_("That player has no awake Homme: play a single Bière.")
BAD_HOMMES = N_("Name one awake Homme of that player's for each Bière.")
NOT_A_FEE = N_("Only a Fée can cancel a power.")
BAD_CHOICE = N_("Choose exactly %(count)s cards.")
BAD_CHOICE_ONE = N_("Choose exactly 1 card.")

Err = tuple[str, str, dict[str, Any]]


def P(seat: int) -> dict[str, int]:
    """A message parameter naming a player (shown as his name)."""
    return {"seat": seat}


def C(card: str) -> dict[str, str]:
    """A message parameter naming a card (shown as its display name)."""
    return {"card": card}


def _raise(errors: Sequence[Err]) -> None:
    if errors:
        code, message, params = min(errors, key=lambda e: RANK[e[0]])
        raise IllegalMove(code, message, **params)


def _fail(code: str, message: str, **params: Any) -> IllegalMove:
    return IllegalMove(code, message, **params)


# --- log ------------------------------------------------------------------------------------------


def _entry(
    text: str, private: Mapping[int, tuple[str, Mapping[str, Any]]] | None = None, **params: Any
) -> dict:
    return LogEntry(text, params, dict(private or {})).dump()


def _log(state: FantasyState, *entries: dict) -> dict[str, Any]:
    return {"log": (*state.log, *entries)}


def _described(d: Mapping[str, Any]) -> dict:
    return _entry(d["text"], **d["params"])


def _cards(cards: Iterable[str]) -> list[dict[str, str]]:
    return [C(c) for c in cards]


# --- small state helpers --------------------------------------------------------------------------


def _put(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return tuple(value if j == i else v for j, v in enumerate(seq))


def _hands(state: FantasyState, changes: Mapping[int, Iterable[str]]) -> dict[str, Any]:
    """Update for new hands (kept sorted, T10) and the cards each seat has ever held (§8)."""
    hands = list(state.hands)
    held = list(state.ever_held)
    for seat, cards in changes.items():
        hands[seat] = tuple(sorted(cards))
        new = set(hands[seat]) - set(held[seat])
        if new:
            held[seat] = tuple(sorted({*held[seat], *new}))
    return {"hands": tuple(hands), "ever_held": tuple(held)}


def _without(cards: Iterable[str], gone: Iterable[str]) -> tuple[str, ...]:
    gone = set(gone)
    return tuple(c for c in cards if c not in gone)


def _forest(state: FantasyState, place: int, cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return _put(state.forests, place, cards)


def opponents(state: FantasyState, seat: int) -> list[int]:
    return [s for s in range(state.seats) if s != seat]


def _bad_target(state: FantasyState, seat: int, target: int | None) -> bool:
    return target is not None and (not 0 <= target < state.seats or target == seat)


# --- setup (S1-S8) --------------------------------------------------------------------------------


def setup(seats: int, options: FantasyOptions, rng: random.Random) -> FantasyState:
    top = 6 if (options.expansion or options.large_base) else 4
    if not 2 <= seats <= top:  # S2
        raise IllegalMove(
            "bad_player_count", N_("This game needs 2 to %(max)s players."), max=top, count=seats
        )
    deck = list(base_ids())  # S4
    if options.expansion:
        c = options.f2_counts
        deck += expansion_ids(c.homme, c.ogre, c.garou, c.biere, options.f2_secrets)
    rng.shuffle(deck)
    first = rng.randrange(seats) if options.first_player == "random" else 0  # S5
    hands: list[list[str]] = [[] for _ in range(seats)]
    for i in range(HAND_SIZE * seats):  # S6: one at a time, clockwise from the first player
        hands[(first + i) % seats].append(deck[i])
    deck = deck[HAND_SIZE * seats :]
    state = FantasyState(
        options=options,
        seats=seats,
        deck=tuple(deck),
        hands=tuple(tuple(sorted(h)) for h in hands),
        forests=tuple(() for _ in range(seats)),
        secrets=tuple(() for _ in range(seats)),
        occupant=tuple(range(seats)),  # S3
        place_of=tuple(range(seats)),
        first_place=first,
        turn_place=first,
        active=first,
        ever_held=tuple(tuple(sorted(h)) for h in hands),
    )
    state = state.model_copy(
        update=_log(
            state,
            _entry(N_("The game begins; %(player)s plays first."), player=P(first)),
            _entry(
                N_("Each player was dealt %(count)s cards."),
                {
                    s: (N_("You were dealt %(cards)s."), {"cards": _cards(state.hands[s])})
                    for s in range(seats)
                },
                count=HAND_SIZE,
            ),
        )
    )
    return _draw_for_turn(state)


# --- whose move -----------------------------------------------------------------------------------


def to_act(state: FantasyState) -> frozenset[int]:
    """T11."""
    if state.over:
        return frozenset()
    if state.decision is not None:
        return frozenset({state.decision.seat})
    if state.window is not None:
        return frozenset(state.window.waiting)
    return frozenset({state.active})


def affected(state: FantasyState, index: int | None = None) -> tuple[int, ...]:
    """R3's table: the players affected by the chain item at `index` (the top by default)."""
    if not state.chain:
        return ()
    index = len(state.chain) - 1 if index is None else index
    item = state.chain[index]
    if item.kind == "fee":
        return (state.chain[index - 1].seat,)
    if item.kind == "bieres":
        return (item.target_player,) if item.target_player is not None else ()
    if item.ability == "gnome":
        return ()
    if item.ability == "garou":
        owner = state.owner_of(item.target_card) if item.target_card else None
        return (owner,) if owner is not None else ()
    return (item.target_player,) if item.target_player is not None else ()


def eligible(state: FantasyState) -> tuple[int, ...]:
    """R3: who may answer the top item (hand sizes are public)."""
    top = state.chain[-1]
    affected_only = state.options.fee_reactors == "affected_only"
    pool = set(affected(state)) if affected_only else set(range(state.seats))
    return tuple(s for s in sorted(pool) if s != top.seat and state.hands[s])


# --- abilities: checks ----------------------------------------------------------------------------


def hommes_of_opponents(state: FantasyState, seat: int) -> dict[str, int]:
    """Every Homme (race `homme`, awake or neutralised) in another player's Forest, with its owner."""
    out: dict[str, int] = {}
    for place, forest in enumerate(state.forests):
        owner = state.occupant[place]
        if owner == seat:
            continue
        for c in forest:
            if state.race(c) == "homme":
                out[c] = owner
    return out


def garou_columns(state: FantasyState, seat: int, laid: str) -> list[str]:
    """C11, D19: races other than homme present in the player's Forest (Garou or Elfe already laid)."""
    present = {state.race(c) for c in state.forest_of(seat)} | {state.race(laid)}
    return [r for r in RACES if r != "homme" and r in present]


def copy_candidates(state: FantasyState, seat: int) -> list[str]:
    """C7: copyable creatures in the allowed Forests."""
    if state.options.elfe_copy_scope == "own":
        pool: Iterable[str] = state.forest_of(seat)
    else:
        pool = (c for f in state.forests for c in f)
    return [c for c in pool if state.race(c) in COPYABLE]


def _field_errors(
    state: FantasyState, seat: int, race: str, laid: str, tp: int | None, tc: str | None, col: str | None
) -> list[Err]:
    """The checks of one ability's declared choices (C1-C11), on the state after the lay."""
    errs: list[Err] = []
    unexpected: Err = ("unexpected_choice", UNEXPECTED, {"card": display_name(laid)})
    missing_target: Err = ("missing_choice", MISSING_TARGET, {"card": display_name(laid)})
    if race in ("gnome", "fee", "homme", "elfe"):
        if tp is not None or tc is not None or col is not None:
            errs.append(unexpected)
        return errs
    if race == "garou":
        hommes = hommes_of_opponents(state, seat)
        if not hommes:
            if tp is not None or tc is not None or col is not None:
                errs.append(unexpected)
            return errs
        if tc is None:
            errs.append(("missing_choice", MISSING_HOMME, {}))
        if col is None:
            errs.append(("missing_choice", MISSING_COLUMN, {}))
        if _bad_target(state, seat, tp):
            errs.append(("bad_target", BAD_TARGET, {}))
        if tc is not None:
            owner = state.owner_of(tc)
            if owner is None or owner == seat:
                errs.append(("not_in_forest", NOT_IN_ANY_FOREST, {}))
            elif tp is not None and not _bad_target(state, seat, tp) and tp != owner:
                errs.append(("not_in_forest", NOT_IN_FOREST, {}))
            elif state.race(tc) != "homme":
                errs.append(("not_a_homme", NOT_A_HOMME, {}))
        if col is not None and col not in garou_columns(state, seat, laid):
            errs.append(("bad_column", BAD_COLUMN, {"race": RACE_NAMES.get(col, col)}))
        return errs
    # abilities that name an opponent
    if col is not None:
        errs.append(unexpected)
    if tp is None:
        errs.append(missing_target)
        return errs
    if _bad_target(state, seat, tp):
        errs.append(("bad_target", BAD_TARGET, {}))
        return errs
    if race in ("korrigan", "lutin", "farfadet"):
        if tc is not None:
            errs.append(unexpected)
        return errs
    forest = state.forest_of(tp)
    target = {}
    if race == "dryade":  # C6
        if state.protected(tp):
            if tc is not None:
                errs.append(
                    ("not_in_forest", NOT_IN_FOREST, target)
                    if tc not in forest
                    else ("forest_protected", FOREST_PROTECTED, target)
                )
        elif not forest:
            if tc is not None:
                errs.append(("not_in_forest", NOT_IN_FOREST, target))
        elif tc is None:
            errs.append(("missing_choice", MISSING_CARD, target))
        elif tc not in forest:
            errs.append(("not_in_forest", NOT_IN_FOREST, target))
        return errs
    if race == "ogre":  # C10
        if not forest:
            if tc is not None:
                errs.append(("not_in_forest", NOT_IN_FOREST, target))
        elif tc is None:
            errs.append(("missing_choice", MISSING_CARD, target))
        elif tc not in forest:
            errs.append(("not_in_forest", NOT_IN_FOREST, target))
        elif state.protected(tp) and state.race(tc) != "homme":
            errs.append(("forest_protected", FOREST_PROTECTED, target))
        return errs
    raise AssertionError(race)


def can_apply(state: FantasyState, seat: int, race: str | None, tp: int | None, tc: str | None) -> bool:
    """T6: decided from public facts only, on the state after the lay."""
    if race == "gnome":
        return bool(state.deck)
    if race == "korrigan":
        return tp is not None and bool(state.hands[tp])
    if race == "lutin":
        return tp is not None and bool(state.hands[tp] or state.hands[seat])
    if race == "farfadet":
        if tp is None or state.protected(tp):
            return False
        return not (state.options.hommes_block_own and state.protected(seat))
    if race == "dryade":
        return tp is not None and not state.protected(tp) and bool(state.forest_of(tp))
    if race == "ogre":
        return tp is not None and bool(state.forest_of(tp))
    if race == "garou":
        return bool(hommes_of_opponents(state, seat))
    return False


def _acts_on(state: FantasyState, race: str, m: PlayCreature, target: int) -> bool:
    """T4, D26: does this creature act on the batch target's Forest?"""
    if race in ("dryade", "farfadet", "ogre"):
        return m.target_player == target
    if race == "garou":
        return m.target_card is not None and m.target_card in state.forest_of(target)
    if race == "elfe" and m.copy_card is not None:
        copied = m.copy_card
        if is_creature(copied) and state.owner_of(copied) is not None:
            r = state.race(copied)
            return r in ("dryade", "farfadet", "ogre", "garou") and _acts_on(state, r, m, target)
    return False


def _lay(state: FantasyState, seat: int, card: str) -> FantasyState:
    """T5.1: the card leaves the hand and lies in the player's Forest at once."""
    place = state.place_of[seat]
    return state.model_copy(
        update={
            **_hands(state, {seat: _without(state.hands[seat], [card])}),
            "forests": _forest(state, place, (*state.forests[place], card)),
        }
    )


def check_creature(state: FantasyState, seat: int, m: PlayCreature) -> tuple[FantasyState, Item, bool]:
    """Validate a `play_creature` by the active player (T12 order); return the state after the lay,
    the declared item and whether its ability can apply."""
    if m.card not in state.hands[seat]:
        raise _fail("card_not_in_hand", NOT_IN_HAND)
    if not is_creature(m.card):
        raise _fail("wrong_card_kind", NOT_A_CREATURE, card=display_name(m.card))
    laid = _lay(state, seat, m.card)
    race = printed_race(m.card)
    if (
        state.step == "after_bieres"
        and state.options.biere_followup == "target_forest"
        and state.biere_target is not None
        and not _acts_on(laid, race, m, state.biere_target)
    ):
        raise _fail(
            "biere_followup",
            BIERE_FOLLOWUP,
        )
    ability: str | None = race
    errs: list[Err] = []
    if race == "elfe":
        cands = copy_candidates(laid, seat)
        if not cands:
            if any(v is not None for v in (m.target_player, m.target_card, m.column, m.copy_card)):
                errs.append(("unexpected_choice", UNEXPECTED, {"card": display_name(m.card)}))
            ability = None
        elif m.copy_card is None:
            errs.append(("missing_choice", MISSING_COPY, {}))
        else:
            copied = m.copy_card
            located = laid.owner_of(copied) is not None or any(copied in s for s in laid.secrets)
            if not located:
                if laid.options.elfe_copy_scope == "own":
                    errs.append(("copy_not_own", COPY_NOT_OWN, {}))
                else:
                    errs.append(("not_in_forest", NOT_IN_ANY_FOREST, {}))
            elif not is_creature(copied) or laid.race(copied) not in COPYABLE:
                errs.append(("cannot_copy", CANNOT_COPY, {"card": display_name(copied)}))
            elif laid.options.elfe_copy_scope == "own" and laid.owner_of(copied) != seat:
                errs.append(("copy_not_own", COPY_NOT_OWN, {}))
            else:
                ability = laid.race(copied)
                errs += _field_errors(laid, seat, ability, m.card, m.target_player, m.target_card, m.column)
    else:
        if m.copy_card is not None:
            errs.append(("unexpected_choice", UNEXPECTED, {"card": display_name(m.card)}))
        errs += _field_errors(laid, seat, race, m.card, m.target_player, m.target_card, m.column)
    _raise(errs)
    tp = m.target_player
    if ability == "garou" and m.target_card is not None:
        tp = laid.owner_of(m.target_card)  # C11: the owner of the Homme
    item = Item(
        kind="creature",
        seat=seat,
        card=m.card,
        ability=ability,
        target_player=tp,
        target_card=m.target_card,
        column=m.column,
        copy_card=m.copy_card,
    )
    applies = ability is not None and can_apply(laid, seat, ability, tp, m.target_card)
    return laid, item, applies


def check_bieres(state: FantasyState, seat: int, m: PlayBieres) -> int:
    """Validate a batch of Bières (C12); return the number of awake Hommes of the target."""
    hand = state.hands[seat]
    if len(set(m.cards)) != len(m.cards) or any(c not in hand for c in m.cards):
        raise _fail("card_not_in_hand", NOT_IN_HAND)
    for c in m.cards:
        if kind(c) != "biere":
            raise _fail("wrong_card_kind", NOT_A_BIERE, card=display_name(c))
    errs: list[Err] = []
    if not m.cards:
        errs.append(("missing_choice", MISSING_BIERES, {}))
    if m.target_player is None:
        errs.append(("missing_choice", MISSING_TARGET, {"card": display_name("biere-1")}))
    elif _bad_target(state, seat, m.target_player):
        errs.append(("bad_target", BAD_TARGET, {}))
    _raise(errs)
    tp = int(m.target_player)  # type: ignore[arg-type]
    awake = state.awake_hommes(tp)
    k = len(awake)
    if k == 0:
        if len(m.cards) > 1:
            errs.append(("too_many_bieres", TOO_MANY_BIERES_NONE, {}))
        if m.hommes:
            errs.append(("bad_hommes", BAD_HOMMES, {}))
    else:
        if len(m.cards) > k:
            errs.append(("too_many_bieres", TOO_MANY_BIERES, {"count": k}))
        if (
            len(m.hommes) != len(m.cards)
            or len(set(m.hommes)) != len(m.hommes)
            or not set(m.hommes) <= set(awake)
        ):
            errs.append(("bad_hommes", BAD_HOMMES, {}))
    _raise(errs)
    return k


def secret_allowed(state: FantasyState, seat: int, card: str) -> bool:
    """C13: with `absent_only`, only while the player's Forest holds no creature of that race."""
    if state.options.secret_placement == "any":
        return True
    race = printed_race(card)
    return not any(state.race(c) == race for c in state.forest_of(seat))


def can_play(state: FantasyState, seat: int) -> bool:
    """T3: does the player hold a card that a, b or c allows?"""
    for c in state.hands[seat]:
        k = kind(c)
        if k in ("creature", "biere") or (k == "secret" and secret_allowed(state, seat, c)):
            return True
    return False


# --- apply ----------------------------------------------------------------------------------------


def apply(
    state: FantasyState, seat: int, move: Any, rng: random.Random, *, host: bool = False
) -> FantasyState:
    if isinstance(move, Mapping):
        move = MOVE_ADAPTER.validate_python(move)
    if state.over:
        raise _fail("game_over", GAME_OVER)
    if seat not in to_act(state):
        raise _fail("not_your_turn", NOT_YOUR_TURN)
    if isinstance(move, ReactFee | ReactPass):
        if state.window is None:
            raise _fail("wrong_step", WRONG_STEP_DECISION if state.decision else WRONG_STEP_NO_WINDOW)
        return _react(state, seat, move, rng)
    if isinstance(move, ChooseCards):
        if state.decision is None:
            raise _fail("wrong_step", WRONG_STEP_WINDOW if state.window else WRONG_STEP_NO_DECISION)
        return _choose(state, seat, move, rng)
    if state.window is not None:
        raise _fail("wrong_step", WRONG_STEP_WINDOW)
    if state.decision is not None:
        raise _fail("wrong_step", WRONG_STEP_DECISION)
    after = state.step == "after_bieres"
    if isinstance(move, PlayCreature):
        return _play_creature(state, seat, move, rng)
    if isinstance(move, EndTurn):
        if not after:
            raise _fail("wrong_step", WRONG_STEP_END_TURN)
        return _end_turn(
            state.model_copy(update=_log(state, _entry(N_("%(player)s ended the turn."), player=P(seat)))),
            rng,
        )
    if after:
        raise _fail("wrong_step", WRONG_STEP_BIERES)
    if isinstance(move, PlaySecret):
        return _play_secret(state, seat, move, rng)
    if isinstance(move, PlayBieres):
        return _play_bieres(state, seat, move, rng)
    if isinstance(move, Pass):
        if state.options.must_play and can_play(state, seat):
            raise _fail("must_play", MUST_PLAY)
        new = state.model_copy(
            update={"main_pass": True, **_log(state, _entry(N_("%(player)s passed."), player=P(seat)))}
        )
        return _end_turn(new, rng)
    raise _fail("wrong_step", WRONG_STEP_NO_WINDOW)


def _play_creature(state: FantasyState, seat: int, m: PlayCreature, rng: random.Random) -> FantasyState:
    laid, item, applies = check_creature(state, seat, m)
    laid = laid.model_copy(
        update=_log(laid, _entry(N_("%(player)s laid %(card)s."), player=P(seat), card=C(m.card)))
    )
    if not applies:
        text = (
            N_("%(card)s has no power to use now.")
            if item.ability in (None, "fee", "homme")
            else N_("The power of %(card)s cannot apply: nothing happens.")
        )
        laid = laid.model_copy(update=_log(laid, _entry(text, card=C(m.card))))
        return _end_turn(laid, rng)
    laid = laid.model_copy(update={"chain": (item,), **_log(laid, _described(describe(laid, item, 0)))})
    return _open(laid, rng)


def _play_secret(state: FantasyState, seat: int, m: PlaySecret, rng: random.Random) -> FantasyState:
    if m.card not in state.hands[seat]:
        raise _fail("card_not_in_hand", NOT_IN_HAND)
    if kind(m.card) != "secret":
        raise _fail("wrong_card_kind", NOT_A_SECRET, card=display_name(m.card))
    if not secret_allowed(state, seat, m.card):
        raise _fail("secret_not_allowed", SECRET_NOT_ALLOWED, race=RACE_NAMES[printed_race(m.card)])
    place = state.place_of[seat]
    new = state.model_copy(
        update={
            **_hands(state, {seat: _without(state.hands[seat], [m.card])}),
            "secrets": _put(state.secrets, place, (*state.secrets[place], m.card)),
            **_log(state, _entry(N_("%(player)s laid %(card)s."), player=P(seat), card=C(m.card))),
        }
    )
    return _end_turn(new, rng)


def _play_bieres(state: FantasyState, seat: int, m: PlayBieres, rng: random.Random) -> FantasyState:
    k = check_bieres(state, seat, m)
    tp = int(m.target_player)  # type: ignore[arg-type]
    item = Item(kind="bieres", seat=seat, card=m.cards[0], target_player=tp, cards=m.cards, hommes=m.hommes)
    new = state.model_copy(
        update={
            **_hands(state, {seat: _without(state.hands[seat], m.cards)}),
            "out_of_play": (*state.out_of_play, *m.cards),  # C12: out of play at once
            "biere_target": tp,
            **_log(
                state,
                _entry(
                    N_("%(player)s played %(cards)s at %(target)s."),
                    player=P(seat),
                    cards=_cards(m.cards),
                    target=P(tp),
                ),
            ),
        }
    )
    if k == 0:  # cannot apply: a card played for nothing, the turn ends (no T4)
        new = new.model_copy(
            update=_log(new, _entry(N_("%(target)s has no awake Homme: nothing happens."), target=P(tp)))
        )
        return _end_turn(new, rng)
    new = new.model_copy(update={"chain": (item,), **_log(new, _described(describe(new, item, 0)))})
    return _open(new, rng)


# --- reactions (R1-R10) ---------------------------------------------------------------------------


def _open(state: FantasyState, rng: random.Random) -> FantasyState:
    """R3: open a window on the top item, or resolve the chain when nobody may answer."""
    who = eligible(state)
    if not who:
        return _resolve(state, rng)
    n = state.window_count + 1
    return state.model_copy(update={"window": Window(number=n, eligible=who), "window_count": n})


def _react(state: FantasyState, seat: int, move: ReactFee | ReactPass, rng: random.Random) -> FantasyState:
    window = state.window
    assert window is not None
    if isinstance(move, ReactPass):
        window = window.model_copy(update={"passed": (*window.passed, seat)})
        if window.waiting:
            return state.model_copy(update={"window": window})
        return _resolve(state.model_copy(update={"window": None}), rng)
    if move.card not in state.hands[seat]:
        raise _fail("card_not_in_hand", NOT_IN_HAND)
    if printed_race(move.card) != "fee" or not is_creature(move.card):
        raise _fail("not_a_fee", NOT_A_FEE)
    place = state.place_of[seat]
    item = Item(kind="fee", seat=seat, card=move.card)
    new = state.model_copy(
        update={
            **_hands(state, {seat: _without(state.hands[seat], [move.card])}),
            "forests": _forest(state, place, (*state.forests[place], move.card)),  # R5: at once
            "chain": (*state.chain, item),
            "window": None,
        }
    )
    new = new.model_copy(update=_log(new, _described(describe(new, item, len(new.chain) - 1))))
    return _open(new, rng)


def _resolve(state: FantasyState, rng: random.Random) -> FantasyState:
    """R6, R7: an even number of Fées lets the item take effect; an odd number cancels it."""
    base = state.chain[0]
    fees = len(state.chain) - 1
    state = state.model_copy(update={"chain": (), "window": None})
    if fees % 2 == 1:
        state = state.model_copy(
            update=_log(
                state,
                _entry(N_("The Fées cancel %(player)s's %(card)s."), player=P(base.seat), card=C(base.card)),
            )
        )
        if base.kind == "bieres":
            return state.model_copy(update={"step": "after_bieres"})
        return _end_turn(state, rng)
    if base.kind == "bieres":
        state = state.model_copy(
            update={
                "neutralised": (*state.neutralised, *base.hommes),
                "step": "after_bieres",
                **_log(
                    state,
                    _entry(
                        N_("%(hommes)s of %(target)s are neutralised until the end of the turn."),
                        hommes=_cards(base.hommes),
                        target=P(int(base.target_player or 0)),
                    ),
                ),
            }
        )
        return state
    state = _effect(state, base, rng)
    if state.decision is not None:
        return state
    return _end_turn(state, rng)


# --- effects (C1-C11) -----------------------------------------------------------------------------


def _draw(state: FantasyState, seat: int, count: int) -> FantasyState:
    cards = state.deck[:count]
    if not cards:
        return state
    return state.model_copy(
        update={
            "deck": state.deck[len(cards) :],
            **_hands(state, {seat: (*state.hands[seat], *cards)}),
            **_log(
                state,
                _entry(
                    N_("%(player)s drew %(count)s card(s)."),
                    {seat: (N_("%(player)s drew %(cards)s."), {"player": P(seat), "cards": _cards(cards)})},
                    player=P(seat),
                    count=len(cards),
                ),
            ),
        }
    )


def _transfer(
    state: FantasyState, giver: int, taker: int, cards: Sequence[str], text: str, private_text: str
) -> FantasyState:
    """Cards pass from one hand to another: the count is public, the cards known to both (§8)."""
    params = {"player": P(taker), "target": P(giver), "count": len(cards)}
    private = {"player": P(taker), "target": P(giver), "cards": _cards(cards)}
    return state.model_copy(
        update={
            **_hands(
                state,
                {giver: _without(state.hands[giver], cards), taker: (*state.hands[taker], *cards)},
            ),
            **_log(
                state,
                _entry(text, {giver: (private_text, private), taker: (private_text, private)}, **params),
            ),
        }
    )


KORRIGAN_TEXT = N_("%(player)s took %(count)s card(s) from %(target)s.")
KORRIGAN_PRIVATE = N_("%(player)s took %(cards)s from %(target)s.")
REPLENISH_TEXT = N_("%(player)s replenished: %(count)s card from %(target)s.")
REPLENISH_PRIVATE = N_("%(player)s replenished: %(cards)s from %(target)s.")


def _effect(state: FantasyState, item: Item, rng: random.Random) -> FantasyState:
    """T5.4: the ability takes effect, using the state at this moment (C0.4)."""
    seat = item.seat
    tp = item.target_player
    ability = item.ability
    if ability == "gnome":  # C1
        return _draw(state, seat, 2)
    assert tp is not None
    if ability == "korrigan":  # C2
        n = min(2, len(state.hands[tp]))
        if n == 0:
            return state.model_copy(
                update=_log(state, _entry(N_("%(target)s has no card left to take."), target=P(tp)))
            )
        mode = state.options.korrigan_take
        if mode == "random":
            picks = rng.sample(list(state.hands[tp]), n)
            return _transfer(state, tp, seat, sorted(picks), KORRIGAN_TEXT, KORRIGAN_PRIVATE)
        chooser = tp if mode == "victim_chooses" else seat
        return state.model_copy(
            update={
                "decision": Decision(
                    seat=chooser, purpose="korrigan", count=n, source=tp, receiver=seat, mode=mode
                )
            }
        )
    if ability == "lutin":  # C3
        mine, theirs = state.hands[seat], state.hands[tp]
        text = N_("%(player)s now holds %(cards)s.")
        return state.model_copy(
            update={
                **_hands(state, {seat: theirs, tp: mine}),
                **_log(
                    state,
                    _entry(
                        N_("%(player)s and %(target)s exchanged hands."),
                        {
                            seat: (text, {"player": P(seat), "cards": _cards(theirs)}),
                            tp: (text, {"player": P(tp), "cards": _cards(mine)}),
                        },
                        player=P(seat),
                        target=P(tp),
                    ),
                ),
            }
        )
    if ability == "farfadet":
        pa, pt = state.place_of[seat], state.place_of[tp]
        if state.options.farfadet == "forests":  # C4: creatures change sides, Secrets stay
            forests = list(state.forests)
            forests[pa], forests[pt] = state.forests[pt], state.forests[pa]
            return state.model_copy(
                update={
                    "forests": tuple(forests),
                    **_log(
                        state,
                        _entry(
                            N_("%(player)s and %(target)s exchanged Forests."), player=P(seat), target=P(tp)
                        ),
                    ),
                }
            )
        occupant = list(state.occupant)  # C5: players exchange places, Forests stay
        occupant[pa], occupant[pt] = tp, seat
        place_of = list(state.place_of)
        place_of[seat], place_of[tp] = pt, pa
        return state.model_copy(
            update={
                "occupant": tuple(occupant),
                "place_of": tuple(place_of),
                **_log(
                    state,
                    _entry(
                        N_(
                            "%(player)s and %(target)s exchanged places: "
                            "%(player)s now sits at place %(place)s."
                        ),
                        player=P(seat),
                        target=P(tp),
                        place=pt + 1,  # players count places from 1, as the table page does
                    ),
                ),
            }
        )
    card = item.target_card
    if ability == "dryade":  # C6
        pt, pa = state.place_of[tp], state.place_of[seat]
        if card is None or card not in state.forests[pt]:
            return state
        forests = _put(state.forests, pt, _without(state.forests[pt], [card]))
        forests = _put(forests, pa, (*forests[pa], card))
        return state.model_copy(
            update={
                "forests": forests,
                **_log(
                    state,
                    _entry(
                        N_("%(player)s took %(card)s from %(target)s's Forest."),
                        player=P(seat),
                        card=C(card),
                        target=P(tp),
                    ),
                ),
            }
        )
    if ability == "ogre":  # C10
        pt = state.place_of[tp]
        if card is None or card not in state.forests[pt]:
            return state
        return state.model_copy(
            update={
                "forests": _put(state.forests, pt, _without(state.forests[pt], [card])),
                "out_of_play": (*state.out_of_play, card),
                "neutralised": _without(state.neutralised, [card]),
                **_log(
                    state,
                    _entry(
                        N_("%(player)s's Ogre ate %(card)s of %(target)s."),
                        player=P(seat),
                        card=C(card),
                        target=P(tp),
                    ),
                ),
            }
        )
    if ability == "garou":  # C11
        owner = state.owner_of(card) if card else None
        if card is None or owner is None or item.column is None:
            return state
        po, pa = state.place_of[owner], state.place_of[seat]
        forests = _put(state.forests, po, _without(state.forests[po], [card]))
        forests = _put(forests, pa, (*forests[pa], card))
        return state.model_copy(
            update={
                "forests": forests,
                "races": {**state.races, card: item.column},
                "neutralised": _without(state.neutralised, [card]),
                **_log(
                    state,
                    _entry(
                        N_("%(player)s's Garou took %(card)s from %(target)s; it is now a %(race)s."),
                        player=P(seat),
                        card=C(card),
                        target=P(owner),
                        race=RACE_NAMES[item.column],
                    ),
                ),
            }
        )
    raise AssertionError(ability)


def _choose(state: FantasyState, seat: int, move: ChooseCards, rng: random.Random) -> FantasyState:
    d = state.decision
    assert d is not None
    source = state.hands[d.source]
    if (
        len(move.cards) != d.count
        or len(set(move.cards)) != len(move.cards)
        or not set(move.cards) <= set(source)
    ):
        if d.count == 1:
            raise _fail("bad_choice", BAD_CHOICE_ONE)
        raise _fail("bad_choice", BAD_CHOICE, count=d.count)
    state = state.model_copy(update={"decision": None})
    if d.purpose == "korrigan":
        state = _transfer(state, d.source, d.receiver, sorted(move.cards), KORRIGAN_TEXT, KORRIGAN_PRIVATE)
        return _end_turn(state, rng)
    state = _transfer(state, d.source, d.receiver, list(move.cards), REPLENISH_TEXT, REPLENISH_PRIVATE)
    rep = state.replenish
    assert rep is not None
    state = state.model_copy(update={"replenish": rep.model_copy(update={"givers": rep.givers[1:]})})
    return _continue_replenish(state, rng)


# --- end of turn (T7) and of the game (E1-E5) -----------------------------------------------------


def _end_turn(state: FantasyState, rng: random.Random) -> FantasyState:
    idle = state.idle_turns + 1 if (state.main_pass and not state.deck) else 0  # T7.2
    state = state.model_copy(
        update={"neutralised": (), "chain": (), "window": None, "decision": None, "idle_turns": idle}  # T7.1
    )
    if state.options.ending == "final_round":  # E3
        if state.final_round is not None:
            remaining = tuple(p for p in state.final_round if p != state.turn_place)
            state = state.model_copy(update={"final_round": remaining})
            if not remaining:
                return _finish(state, "final_round")
        elif not state.final_round_fired and not state.deck and any(not h for h in state.hands):
            n = state.seats
            places = [(state.turn_place + i) % n for i in range(1, n)]
            if state.options.final_round_anchor == "complete_round":
                last = (state.first_place - 1) % n
                places = places[: places.index(last) + 1] if last in places else []
            state = state.model_copy(
                update={
                    "final_round": tuple(places),
                    "final_round_fired": True,
                    **_log(
                        state, _entry(N_("The deck is empty and a hand is empty: the final round begins."))
                    ),
                }
            )
            if not places:
                return _finish(state, "final_round")
        return _after_checks(state, rng)
    if not state.deck:  # E4
        n = state.seats
        order = [state.active] + [state.occupant[(state.place_of[state.active] + i) % n] for i in range(1, n)]
        queue = tuple(s for s in order if not state.hands[s])
        if queue:
            return _continue_replenish(state.model_copy(update={"replenish": Replenish(queue=queue)}), rng)
    return _after_checks(state, rng)


def _continue_replenish(state: FantasyState, rng: random.Random) -> FantasyState:
    rep = state.replenish
    assert rep is not None
    while True:
        if rep.taker is not None and rep.givers:
            giver = rep.givers[0]
            if state.options.replenish_take == "giver_chooses":
                return state.model_copy(
                    update={
                        "replenish": rep,
                        "decision": Decision(
                            seat=giver, purpose="replenish", count=1, source=giver, receiver=rep.taker
                        ),
                    }
                )
            card = rng.choice(list(state.hands[giver]))
            state = _transfer(state, giver, rep.taker, [card], REPLENISH_TEXT, REPLENISH_PRIVATE)
            rep = rep.model_copy(update={"givers": rep.givers[1:]})
            continue
        if not rep.queue:
            return _after_checks(state.model_copy(update={"replenish": None}), rng)
        x, rest = rep.queue[0], rep.queue[1:]
        rep = Replenish(queue=rest)
        if state.hands[x]:
            continue
        n = state.seats
        givers = tuple(
            g
            for g in (state.occupant[(state.place_of[x] + i) % n] for i in range(1, n))
            if len(state.hands[g]) >= 2
        )
        if not givers:
            state = state.model_copy(
                update={
                    "replenish": None,
                    **_log(state, _entry(N_("%(player)s cannot replenish: the game ends."), player=P(x))),
                }
            )
            return _finish(state, "replenish_failed", x)
        rep = rep.model_copy(update={"taker": x, "givers": givers})


def _after_checks(state: FantasyState, rng: random.Random) -> FantasyState:
    if state.idle_turns >= state.seats:  # E5
        state = state.model_copy(
            update=_log(state, _entry(N_("A full round of passes with an empty deck: stalemate.")))
        )
        return _finish(state, "stalemate")
    place = state.next_place(state.turn_place)  # T7.4, T8
    active = state.occupant[place]
    state = state.model_copy(
        update={
            "turn_place": place,
            "active": active,
            "turn_number": state.turn_number + 1,
            "step": "main",
            "biere_target": None,
            "main_pass": False,
        }
    )
    return _draw_for_turn(state)


def _draw_for_turn(state: FantasyState) -> FantasyState:
    """T2: the active player draws the top card, if any (no move needed)."""
    state = state.model_copy(
        update=_log(
            state,
            _entry(
                N_("Turn %(number)s: %(player)s plays at place %(place)s."),
                number=state.turn_number,
                player=P(state.active),
                place=state.turn_place + 1,  # shown from 1
            ),
        )
    )
    return _draw(state, state.active, 1)


def _finish(
    state: FantasyState,
    reason: Literal["final_round", "replenish_failed", "stalemate"],
    seat: int | None = None,
) -> FantasyState:
    from app.games.fantasy.scoring import score

    entries = [_entry(N_("The game is over."))]
    entries += [
        _entry(N_("%(player)s scores %(score)s."), player=P(s), score=score(state, s))
        for s in range(state.seats)
    ]
    return state.model_copy(
        update={
            "end": End(reason=reason, seat=seat),
            "step": "over",
            "replenish": None,
            "decision": None,
            **_log(state, *entries),
        }
    )


# --- describing the chain (R2, R9) ----------------------------------------------------------------

_TEXTS: dict[str, tuple[str, str]] = {
    "gnome": (
        N_("%(player)s's Gnome will draw 2 cards."),
        N_("%(player)s's Gnome will draw 2 cards. Play a Fée or pass."),
    ),
    "korrigan": (
        N_("%(player)s's Korrigan will take %(count)s cards from %(target)s."),
        N_("%(player)s's Korrigan will take %(count)s cards from %(target)s. Play a Fée or pass."),
    ),
    "korrigan1": (
        N_("%(player)s's Korrigan will take 1 card from %(target)s."),
        N_("%(player)s's Korrigan will take 1 card from %(target)s. Play a Fée or pass."),
    ),
    "lutin": (
        N_("%(player)s's Lutin will exchange hands with %(target)s."),
        N_("%(player)s's Lutin will exchange hands with %(target)s. Play a Fée or pass."),
    ),
    "farfadet_forests": (
        N_("%(player)s's Farfadet will exchange Forests with %(target)s."),
        N_("%(player)s's Farfadet will exchange Forests with %(target)s. Play a Fée or pass."),
    ),
    "farfadet_places": (
        N_("%(player)s's Farfadet will exchange places with %(target)s."),
        N_("%(player)s's Farfadet will exchange places with %(target)s. Play a Fée or pass."),
    ),
    "dryade": (
        N_("%(player)s's Dryade will take %(card)s from %(target)s."),
        N_("%(player)s's Dryade will take %(card)s from %(target)s. Play a Fée or pass."),
    ),
    "ogre": (
        N_("%(player)s's Ogre will eat %(card)s in %(target)s's Forest."),
        N_("%(player)s's Ogre will eat %(card)s in %(target)s's Forest. Play a Fée or pass."),
    ),
    "garou": (
        N_("%(player)s's Garou will take %(card)s from %(target)s and make it a %(race)s."),
        N_(
            "%(player)s's Garou will take %(card)s from %(target)s and make it a %(race)s. "
            "Play a Fée or pass."
        ),
    ),
    "elfe:gnome": (
        N_("%(player)s's Elfe, copying %(copy)s, will draw 2 cards."),
        N_("%(player)s's Elfe, copying %(copy)s, will draw 2 cards. Play a Fée or pass."),
    ),
    "elfe:korrigan": (
        N_("%(player)s's Elfe, copying %(copy)s, will take %(count)s cards from %(target)s."),
        N_(
            "%(player)s's Elfe, copying %(copy)s, will take %(count)s cards from %(target)s. "
            "Play a Fée or pass."
        ),
    ),
    "elfe:korrigan1": (
        N_("%(player)s's Elfe, copying %(copy)s, will take 1 card from %(target)s."),
        N_("%(player)s's Elfe, copying %(copy)s, will take 1 card from %(target)s. Play a Fée or pass."),
    ),
    "elfe:lutin": (
        N_("%(player)s's Elfe, copying %(copy)s, will exchange hands with %(target)s."),
        N_("%(player)s's Elfe, copying %(copy)s, will exchange hands with %(target)s. Play a Fée or pass."),
    ),
    "elfe:farfadet_forests": (
        N_("%(player)s's Elfe, copying %(copy)s, will exchange Forests with %(target)s."),
        N_("%(player)s's Elfe, copying %(copy)s, will exchange Forests with %(target)s. Play a Fée or pass."),
    ),
    "elfe:farfadet_places": (
        N_("%(player)s's Elfe, copying %(copy)s, will exchange places with %(target)s."),
        N_("%(player)s's Elfe, copying %(copy)s, will exchange places with %(target)s. Play a Fée or pass."),
    ),
    "elfe:dryade": (
        N_("%(player)s's Elfe, copying %(copy)s, will take %(card)s from %(target)s."),
        N_("%(player)s's Elfe, copying %(copy)s, will take %(card)s from %(target)s. Play a Fée or pass."),
    ),
    "elfe:ogre": (
        N_("%(player)s's Elfe, copying %(copy)s, will eat %(card)s in %(target)s's Forest."),
        N_(
            "%(player)s's Elfe, copying %(copy)s, will eat %(card)s in %(target)s's Forest. "
            "Play a Fée or pass."
        ),
    ),
    "elfe:garou": (
        N_("%(player)s's Elfe, copying %(copy)s, will take %(card)s from %(target)s and make it a %(race)s."),
        N_(
            "%(player)s's Elfe, copying %(copy)s, will take %(card)s from %(target)s and make it a %(race)s. "
            "Play a Fée or pass."
        ),
    ),
    "bieres": (
        N_("%(player)s's Bières will neutralise %(hommes)s in %(target)s's Forest."),
        N_("%(player)s's Bières will neutralise %(hommes)s in %(target)s's Forest. Play a Fée or pass."),
    ),
    "fee": (
        N_("%(player)s's Fée will cancel %(card)s of %(target)s."),
        N_("%(player)s's Fée will cancel %(card)s of %(target)s. Play a Fée or pass."),
    ),
}


def _text_key(state: FantasyState, item: Item) -> str:
    if item.kind in ("bieres", "fee"):
        return item.kind
    ability = str(item.ability)
    if ability == "farfadet":
        ability = f"farfadet_{state.options.farfadet}"
    if ability == "korrigan" and item.target_player is not None and len(state.hands[item.target_player]) < 2:
        ability = "korrigan1"
    return f"elfe:{ability}" if printed_race(item.card) == "elfe" else ability


def describe(state: FantasyState, item: Item, index: int, prompt: bool = False) -> dict[str, Any]:
    """The public sentence for a chain item: {"text", "params"} (the same for every viewer)."""
    text = _TEXTS[_text_key(state, item)][1 if prompt else 0]
    params: dict[str, Any] = {"player": P(item.seat)}
    if item.kind == "fee":
        below = state.chain[index - 1] if index > 0 else item
        params.update(card=C(below.card), target=P(below.seat))
    else:
        if item.target_player is not None:
            params["target"] = P(item.target_player)
        if item.target_card is not None:
            params["card"] = C(item.target_card)
        if item.copy_card is not None:
            params["copy"] = C(item.copy_card)
        if item.column is not None:
            params["race"] = RACE_NAMES.get(item.column, item.column)
        if item.hommes:
            params["hommes"] = _cards(item.hommes)
        if item.ability == "korrigan" and item.target_player is not None:
            params["count"] = min(2, len(state.hands[item.target_player]))
    return {"text": text, "params": params}


def declared(item: Item) -> dict[str, Any]:
    """The declared move fields of a chain item (public, R2)."""
    if item.kind == "fee":
        return {"action": "react_fee", "card": item.card}
    if item.kind == "bieres":
        return {
            "action": "play_bieres",
            "cards": list(item.cards),
            "target_player": item.target_player,
            "hommes": list(item.hommes),
        }
    out: dict[str, Any] = {"action": "play_creature", "card": item.card}
    for key, value in (
        ("target_player", item.target_player),
        ("target_card", item.target_card),
        ("column", item.column),
        ("copy", item.copy_card),
    ):
        if value is not None:
            out[key] = value
    return out


# --- legal moves (T11) ----------------------------------------------------------------------------

MAX_BIERE_BATCHES = 512


def _creature_candidates(state: FantasyState, seat: int, card: str, race: str) -> list[dict[str, Any]]:
    """Field sets worth trying for a creature of this (possibly copied) race."""
    opps = opponents(state, seat)
    if race in ("gnome", "fee", "homme"):
        return [{}]
    if race in ("korrigan", "lutin", "farfadet"):
        return [{"target_player": o} for o in opps]
    if race in ("dryade", "ogre"):
        out: list[dict[str, Any]] = []
        for o in opps:
            out.append({"target_player": o})
            out += [{"target_player": o, "target_card": c} for c in state.forest_of(o)]
        return out
    if race == "garou":
        hommes = hommes_of_opponents(state, seat)
        out = [{}]
        cols = [r for r in RACES if r != "homme"]
        for h, owner in sorted(hommes.items()):
            out += [{"target_player": owner, "target_card": h, "column": col} for col in cols]
        return out
    raise AssertionError(race)


def legal_moves(state: FantasyState, seat: int) -> list[Any]:
    """Every move `seat` may send now, with all fields filled (T11).

    Creatures: one move per card and per accepted set of choices (targets, cards, columns, copies);
    every candidate is checked by the same validation as `apply`, so each listed move is accepted.
    A Garou's move names its `target_player` (the Homme's owner) although `apply` also accepts it
    without. Bières: every batch size 1..k, every choice of Hommes and every choice of Bière ids,
    except that when one size would list more than MAX_BIERE_BATCHES moves only the lowest Bière ids
    are offered for it (Bières are identical; the Homme choices are always all listed).
    Decisions: every combination of the required number of cards.
    """
    if seat not in to_act(state):
        return []
    hand = state.hands[seat]
    if state.decision is not None:
        d = state.decision
        return [ChooseCards(cards=combo) for combo in itertools.combinations(state.hands[d.source], d.count)]
    if state.window is not None:
        return [ReactPass(), *(ReactFee(card=c) for c in hand if is_creature(c) and printed_race(c) == "fee")]
    moves: list[Any] = []
    for card in hand:
        if not is_creature(card):
            continue
        race = printed_race(card)
        candidates: list[dict[str, Any]]
        if race == "elfe":
            candidates = [{}]
            pool = [c for f in state.forests for c in f if state.race(c) in COPYABLE]
            for x in pool:
                candidates += [
                    {"copy": x, **fields} for fields in _creature_candidates(state, seat, card, state.race(x))
                ]
        else:
            candidates = _creature_candidates(state, seat, card, race)
        for fields in candidates:
            move = PlayCreature(card=card, **fields)
            try:
                check_creature(state, seat, move)
            except IllegalMove:
                continue
            moves.append(move)
    if state.step == "after_bieres":
        return [*moves, EndTurn()]
    for card in hand:
        if kind(card) == "secret" and secret_allowed(state, seat, card):
            moves.append(PlaySecret(card=card))
    bieres = [c for c in hand if kind(c) == "biere"]
    if bieres:
        for o in opponents(state, seat):
            awake = state.awake_hommes(o)
            if not awake:
                moves += [PlayBieres(cards=(b,), target_player=o) for b in bieres]
                continue
            for size in range(1, min(len(bieres), len(awake)) + 1):
                batches = list(itertools.combinations(bieres, size))
                homme_sets = list(itertools.combinations(sorted(awake), size))
                if len(batches) * len(homme_sets) > MAX_BIERE_BATCHES:
                    batches = batches[:1]  # Bières are identical: the lowest ids stand for every batch
                moves += [PlayBieres(cards=b, target_player=o, hommes=h) for b in batches for h in homme_sets]
    if not state.options.must_play or not can_play(state, seat):
        moves.append(Pass())
    return moves
