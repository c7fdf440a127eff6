"""Fantasy Realms game flow: setup (S1-S7), turns (T1-T16), end-of-game choices (E1-E11).

Pure: no I/O, no clock, randomness only from the `rng` passed in. `apply` never
changes the state it is given; it returns a new one or raises `IllegalMove`
with the spec's code and sentence.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from app.games.base import N_, IllegalMove, LogEntry, Result, SeatResult
from app.games.realms import scoring
from app.games.realms.options import RealmsOptions
from app.games.realms.state import (
    HAND_SIZE,
    STANDARD_END_DISCARDS,
    TWO_PLAYER_END_DISCARDS,
    RealmsState,
    SeatChoices,
    Taken,
    Turn,
    all_slugs,
    card_name,
)

# --- moves (§4.4) ---------------------------------------------------------------------------------


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Take(_Move):
    """Take the top card of the deck, or one named card from the discard area (T3)."""

    action: Literal["take"] = "take"
    source: Literal["deck", "discard"]
    card: str | None = None

    @model_validator(mode="after")
    def _card_matches_source(self) -> Take:
        if self.source == "discard" and self.card is None:
            raise ValueError("a take from the discard area names the card")
        if self.source == "deck" and self.card is not None:
            raise ValueError("a take from the deck names no card")
        return self


class DrawTwo(_Move):
    """Published 2-player variant: draw the top two cards of the deck (T15 ii)."""

    action: Literal["draw_two"] = "draw_two"


class Discard(_Move):
    action: Literal["discard"] = "discard"
    card: str


class BookChoice(_Move):
    """The Book of Changes' value: another card of the hand and one of the ten suits (C49)."""

    target: str
    suit: str


ChoiceKey = Literal["necromancer", "doppelganger", "mirage", "shapeshifter", "book_of_changes", "island"]
ChoiceValue = BookChoice | str | None


class FinalChoicesUpdate(_Move):
    """Change some of one's own end-of-game choices (E7); keys not sent keep their value."""

    action: Literal["final_choices_update"] = "final_choices_update"
    choices: dict[ChoiceKey, ChoiceValue]


class FinalChoicesConfirm(_Move):
    action: Literal["final_choices_confirm"] = "final_choices_confirm"


class ForceFinalChoices(_Move):
    """Table host only: confirm every waiting seat with its pre-selection (E9)."""

    action: Literal["force_final_choices"] = "force_final_choices"


Move = Annotated[
    Take | DrawTwo | Discard | FinalChoicesUpdate | FinalChoicesConfirm | ForceFinalChoices,
    Field(discriminator="action"),
]
MOVE_ADAPTER: TypeAdapter[Any] = TypeAdapter(Move)

# --- sentences ------------------------------------------------------------------------------------

GAME_OVER = N_("The game is over.")
NOT_YOUR_TURN = N_("It is not your turn.")
TAKE_FIRST = N_("Take a card first (deck or discard area).")
ALREADY_TOOK = N_("You already took a card this turn; now discard one.")
DISCARD_AREA_EMPTY = N_("The discard area is empty: take the top card of the deck.")
DISCARD_AREA_EMPTY_PUBLISHED = N_("The discard area is empty: draw two from the deck.")
NOT_IN_DISCARD_AREA = N_("That card is not in the discard area.")
DECK_EMPTY = N_("The deck is empty: take a card from the discard area.")
NOT_IN_HAND = N_("You do not hold that card.")
KEEP_TAKEN_CARD = N_("You cannot discard the card you just took from the discard area.")
TAKE_SECOND_CARD = N_("You had no cards at the start of your turn: take a second card.")
DISCARD_TAKEN_CARD = N_("Discard one of the two cards you took this turn.")
ONE_TAKE_WITH_SEVEN = N_("With 7 cards you take one card and discard one.")
ALREADY_TOOK_TWO = N_("You already took two cards this turn.")
DISCARD_DRAWN_CARD = N_("Discard one of the two cards you drew.")
GATHER_TAKE = N_("With fewer than 7 cards, take a card from the discard area or draw two from the deck.")
WRONG_ACTION = N_("That action is not available now.")
ALREADY_CONFIRMED = N_("You have already confirmed your choices.")
NOT_HOST = N_("Only the table host can confirm for waiting players.")
CHOICE_CARD = {
    "necromancer": "necromancer",
    "doppelganger": "doppelganger",
    "mirage": "mirage",
    "shapeshifter": "shapeshifter",
    "book_of_changes": "book-of-changes",
    "island": "island",
}
# --- log ------------------------------------------------------------------------------------------


def player_params(seat: int) -> dict[str, Any]:
    """Log parameters naming a seat. The web layer replaces `player` with the seat's display name."""
    return {"seat": seat, "player": f"Seat {seat + 1}"}


def _entry(
    text: str,
    seat: int | None = None,
    private: Mapping[int, tuple[str, Mapping[str, Any]]] | None = None,
    **params: Any,
) -> dict[str, Any]:
    p = {**(player_params(seat) if seat is not None else {}), **params}
    return LogEntry(text, p, dict(private or {})).dump()


def _log(state: RealmsState, *entries: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    return (*state.log, *entries)


# --- setup (S1-S7) --------------------------------------------------------------------------------


def setup(seats: int, options: RealmsOptions, rng: random.Random) -> RealmsState:
    if not 2 <= seats <= 6:
        raise ValueError("Fantasy Realms is played by 2 to 6 players.")
    deck = list(all_slugs())
    rng.shuffle(deck)  # S3
    first = rng.randrange(seats)  # S6
    probe = RealmsState(options=options, seats=seats, deck=(), hands=())
    if probe.mode == "standard":  # S4: seat 1 takes the first 7 cards, seat 2 the next 7, ...
        hands = tuple(tuple(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(seats))
        deck = deck[seats * HAND_SIZE :]
    else:
        hands = tuple(() for _ in range(seats))
    state = RealmsState(
        options=options,
        seats=seats,
        deck=tuple(deck),
        hands=hands,
        first_player=first,
        active=first,
        turn=Turn(start_hand_size=len(hands[first])),
    )
    return state.model_copy(update={"log": (_entry(N_("The game begins; %(player)s plays first."), first),)})


# --- whose move, which moves ----------------------------------------------------------------------


def to_act(state: RealmsState) -> frozenset[int]:
    if state.phase == "play":
        return frozenset({state.active})
    if state.phase == "final_choices":
        return frozenset(i for i, sc in enumerate(state.final) if not sc.confirmed)
    return frozenset()


def legal_moves(state: RealmsState, seat: int) -> list[Any]:
    if seat not in to_act(state):
        return []
    if state.phase == "final_choices":
        return _legal_final_moves(state, seat)
    hand = state.hands[seat]
    turn = state.turn
    mode = state.mode
    k = len(turn.taken)

    def takes(published_gather: bool = False) -> list[Any]:
        moves: list[Any] = []
        if state.deck and not published_gather:
            moves.append(Take(source="deck"))
        moves.extend(Take(source="discard", card=c) for c in state.discard_area)
        if published_gather and len(state.deck) >= 2:
            moves.append(DrawTwo())
        return moves

    def single_take_discards() -> list[Any]:
        banned = None
        if not state.options.may_discard_taken_card and turn.taken and turn.taken[0].source == "discard":
            banned = turn.taken[0].card
        return [Discard(card=c) for c in hand if c != banned]

    if k == 0:
        return takes(published_gather=mode == "published" and turn.start_hand_size < HAND_SIZE)
    if mode == "standard" or turn.start_hand_size >= HAND_SIZE:
        return single_take_discards()
    if mode == "published":  # after draw_two
        return [Discard(card=t.card) for t in turn.taken]
    # seed variant, turn begun with fewer than 7 cards
    if k == 1:
        return takes() + (single_take_discards() if turn.start_hand_size > 0 else [])
    return [Discard(card=t.card) for t in turn.taken]


# --- apply ----------------------------------------------------------------------------------------

PLAY_ACTIONS = (Take, DrawTwo, Discard)


def apply(state: RealmsState, seat: int, move: Any, rng: random.Random, *, host: bool = False) -> RealmsState:
    if isinstance(move, Mapping):
        move = MOVE_ADAPTER.validate_python(move)
    if state.phase == "finished":
        raise IllegalMove("game_over", GAME_OVER)
    if isinstance(move, PLAY_ACTIONS):
        if state.phase != "play":
            raise IllegalMove("game_over", GAME_OVER)
        if isinstance(move, DrawTwo) and state.mode != "published":
            raise IllegalMove("wrong_action", WRONG_ACTION)
        if seat != state.active:
            raise IllegalMove("not_your_turn", NOT_YOUR_TURN)
        if isinstance(move, Take):
            return _take(state, seat, move)
        if isinstance(move, DrawTwo):
            return _draw_two(state, seat)
        return _discard(state, seat, move)
    if state.phase != "final_choices":
        raise IllegalMove("wrong_action", WRONG_ACTION)
    if isinstance(move, ForceFinalChoices):
        if not host:
            raise IllegalMove("not_host", NOT_HOST)
        return _force(state)
    if not 0 <= seat < state.seats:
        raise IllegalMove("not_your_turn", NOT_YOUR_TURN)
    if state.final[seat].confirmed:
        raise IllegalMove("already_confirmed", ALREADY_CONFIRMED)
    if isinstance(move, FinalChoicesUpdate):
        return _update(state, seat, move)
    if isinstance(move, FinalChoicesConfirm):
        return _confirm(state, seat)
    raise IllegalMove("wrong_action", WRONG_ACTION)


def _check_take_source(state: RealmsState, move: Take, empty_message: str) -> None:
    """The T7 checks of a take, in the spec's order: discard_area_empty, not_in_discard_area, deck_empty."""
    if move.source == "discard":
        if not state.discard_area:
            raise IllegalMove("discard_area_empty", empty_message)
        if move.card not in state.discard_area:
            raise IllegalMove("not_in_discard_area", NOT_IN_DISCARD_AREA)
    elif not state.deck:
        raise IllegalMove("deck_empty", DECK_EMPTY)


def _take(state: RealmsState, seat: int, move: Take) -> RealmsState:
    turn = state.turn
    mode = state.mode
    k = len(turn.taken)
    gathering = turn.start_hand_size < HAND_SIZE
    if mode == "seed":
        _check_take_source(state, move, DISCARD_AREA_EMPTY)
        if k >= 1 and not gathering:
            raise IllegalMove("one_take_with_seven", ONE_TAKE_WITH_SEVEN)
        if k >= 2:
            raise IllegalMove("already_took_two", ALREADY_TOOK_TWO)
    else:
        if k >= 1:
            raise IllegalMove("already_took", ALREADY_TOOK)
        published_gather = mode == "published" and gathering
        _check_take_source(
            state, move, DISCARD_AREA_EMPTY_PUBLISHED if published_gather else DISCARD_AREA_EMPTY
        )
        if published_gather and move.source == "deck":
            raise IllegalMove("gather_take", GATHER_TAKE)

    if move.source == "deck":
        card = state.deck[0]
        deck = state.deck[1:]
        discard_area = state.discard_area
        entry = _entry(
            N_("%(player)s took the top card of the deck."),
            seat,
            private={
                seat: (
                    N_("%(player)s took the top card of the deck (%(card)s)."),
                    {**player_params(seat), "card": card_name(card)},
                )
            },
        )
    else:
        card = str(move.card)
        deck = state.deck
        discard_area = tuple(c for c in state.discard_area if c != card)
        entry = _entry(N_("%(player)s took %(card)s from the discard area."), seat, card=card_name(card))
    hands = _with_hand(state.hands, seat, (*state.hands[seat], card))
    new = state.model_copy(
        update={
            "deck": deck,
            "discard_area": discard_area,
            "hands": hands,
            "turn": turn.model_copy(update={"taken": (*turn.taken, Taken(card=card, source=move.source))}),
            "log": _log(state, entry),
        }
    )
    if mode == "published" and gathering:  # T15 (i): the turn ends with no discard
        return _end_turn(new)
    return new


def _draw_two(state: RealmsState, seat: int) -> RealmsState:
    turn = state.turn
    if turn.taken:
        raise IllegalMove("already_took", ALREADY_TOOK)
    if turn.start_hand_size >= HAND_SIZE:
        raise IllegalMove("one_take_with_seven", ONE_TAKE_WITH_SEVEN)
    if len(state.deck) < 2:
        raise IllegalMove("deck_empty", DECK_EMPTY)
    first, second = state.deck[0], state.deck[1]
    entry = _entry(
        N_("%(player)s drew two cards from the deck."),
        seat,
        private={
            seat: (
                N_("%(player)s drew two cards from the deck (%(card)s and %(card2)s)."),
                {**player_params(seat), "card": card_name(first), "card2": card_name(second)},
            )
        },
    )
    return state.model_copy(
        update={
            "deck": state.deck[2:],
            "hands": _with_hand(state.hands, seat, (*state.hands[seat], first, second)),
            "turn": turn.model_copy(
                update={
                    "taken": (Taken(card=first, source="deck"), Taken(card=second, source="deck")),
                    "drew_two": True,
                }
            ),
            "log": _log(state, entry),
        }
    )


def _discard(state: RealmsState, seat: int, move: Discard) -> RealmsState:
    turn = state.turn
    mode = state.mode
    k = len(turn.taken)
    hand = state.hands[seat]
    if k == 0:
        raise IllegalMove("take_first", TAKE_FIRST)
    if move.card not in hand:
        raise IllegalMove("not_in_hand", NOT_IN_HAND)
    taken_cards = {t.card for t in turn.taken}
    single_take = k == 1 and not turn.drew_two
    if (
        single_take
        and not state.options.may_discard_taken_card
        and turn.taken[0].source == "discard"
        and move.card == turn.taken[0].card
    ):
        raise IllegalMove("keep_taken_card", KEEP_TAKEN_CARD)
    if mode == "seed":
        if k == 1 and turn.start_hand_size == 0:
            raise IllegalMove("take_second_card", TAKE_SECOND_CARD)
        if k == 2 and move.card not in taken_cards:
            raise IllegalMove("discard_taken_card", DISCARD_TAKEN_CARD)
    if mode == "published" and turn.drew_two and move.card not in taken_cards:
        raise IllegalMove("discard_drawn_card", DISCARD_DRAWN_CARD)

    new = state.model_copy(
        update={
            "hands": _with_hand(state.hands, seat, tuple(c for c in hand if c != move.card)),
            "discard_area": (*state.discard_area, move.card),
            "log": _log(state, _entry(N_("%(player)s discarded %(card)s."), seat, card=card_name(move.card))),
        }
    )
    return _end_turn(new)


def _with_hand(
    hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    return tuple(hand if i == seat else h for i, h in enumerate(hands))


def game_should_end(state: RealmsState) -> bool:
    """T6 (standard) / T12 (seed) / T16 (published), checked after every turn."""
    if state.mode == "standard":
        return len(state.discard_area) >= STANDARD_END_DISCARDS
    return (
        all(len(h) == HAND_SIZE for h in state.hands) and len(state.discard_area) >= TWO_PLAYER_END_DISCARDS
    )


def _end_turn(state: RealmsState) -> RealmsState:
    state = state.model_copy(update={"turns_played": state.turns_played + 1})
    if game_should_end(state):
        return _end_game(state)
    nxt = state.next_seat(state.active)
    return state.model_copy(update={"active": nxt, "turn": Turn(start_hand_size=len(state.hands[nxt]))})


# --- end of game (E1-E11) -------------------------------------------------------------------------


def _end_game(state: RealmsState) -> RealmsState:
    """E1: freeze the table, pre-select every seat's choices (E4) and open the phase (E2) or reveal (E10)."""
    if state.mode == "standard":
        text = N_("The discard area holds %(count)s cards: the game ends.")
    else:
        text = N_("Both hands hold 7 cards and the discard area holds %(count)s cards: the game ends.")
    final = []
    for seat in range(state.seats):
        best = _best(state, seat)
        final.append(
            SeatChoices(
                draft=dict(best.choices_dict),
                preselection=dict(best.choices_dict),
                exhaustive=best.exhaustive,
            )
        )
    state = state.model_copy(
        update={
            "phase": "final_choices",
            "turn": Turn(start_hand_size=0),
            "final": tuple(final),
            "log": _log(state, _entry(text, count=len(state.discard_area))),
        }
    )
    if state.options.final_choices == "automatic":  # E10
        final_auto = tuple(sc.model_copy(update={"confirmed": True, "automatic": True}) for sc in state.final)
        return _reveal(state.model_copy(update={"final": final_auto}))
    return state


class _Best:
    def __init__(self, choices: Mapping[str, Any], exhaustive: bool) -> None:
        self.choices_dict = choices
        self.exhaustive = exhaustive


def held_keys(hand: Iterable[str]) -> list[str]:
    """The C54 keys whose card is in the hand, in C54 order."""
    return list(scoring.choice_keys(list(hand)))


def _normalise(choices: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in keys:
        value = choices.get(key)
        if isinstance(value, BaseModel):
            value = value.model_dump()
        elif isinstance(value, Mapping):
            value = dict(value)
        out[key] = value
    return out


def _best(state: RealmsState, seat: int) -> _Best:
    hand = list(state.hands[seat])
    keys = held_keys(hand)
    if not keys:
        return _Best({}, True)
    best = scoring.best_choices(hand, state.options, discard_area=list(state.discard_area))
    return _Best(_normalise(best.choices, keys), bool(best.exhaustive))


def preview(state: RealmsState, seat: int, choices: Mapping[str, Any] | None = None) -> Any:
    """The HandScore of `seat`'s hand with its draft (or the given choices)."""
    draft = state.final[seat].draft if choices is None else choices
    return scoring.score_hand(list(state.hands[seat]), dict(draft), state.options)


def choice_values(state: RealmsState, seat: int, key: str, draft: Mapping[str, Any]) -> list[Any]:
    """The values `key` accepts for `seat` given `draft` (None = empty included)."""
    values = scoring.choice_values(
        key, list(state.hands[seat]), dict(draft), state.options, discard_area=list(state.discard_area)
    )
    return [_normalise({"v": v}, ["v"])["v"] for v in values]


def _same(a: Any, b: Any) -> bool:
    return _normalise({"v": a}, ["v"])["v"] == _normalise({"v": b}, ["v"])["v"]


def _legal_final_moves(state: RealmsState, seat: int) -> list[Any]:
    sc = state.final[seat]
    moves: list[Any] = [FinalChoicesConfirm()]
    for key in held_keys(state.hands[seat]):
        current = sc.draft.get(key)
        for value in choice_values(state, seat, key, sc.draft):
            if not _same(value, current):
                moves.append(FinalChoicesUpdate(choices={key: value}))  # type: ignore[dict-item]
    return moves


def _update(state: RealmsState, seat: int, move: FinalChoicesUpdate) -> RealmsState:
    """E7: the sent keys are applied in C54 order; a later choice made illegal is reset, with a notice.
    An illegal value is refused with the scorer's sentence (EX-B7) and the draft stays unchanged."""
    sc = state.final[seat]
    changes = _normalise(move.choices, list(move.choices))
    try:
        draft, messages = scoring.update_choices(
            list(state.hands[seat]), sc.draft, changes, state.options, discard_area=list(state.discard_area)
        )
    except scoring.ChoiceError as err:
        raise IllegalMove("illegal_choice", err.message, **dict(err.params)) from None
    notices = tuple({"text": text, "params": dict(params)} for text, params in messages)
    final = _with_final(state, seat, sc.model_copy(update={"draft": dict(draft), "notices": notices}))
    return state.model_copy(update={"final": final})


def _with_final(state: RealmsState, seat: int, sc: SeatChoices) -> tuple[SeatChoices, ...]:
    return tuple(sc if i == seat else other for i, other in enumerate(state.final))


def _confirm(state: RealmsState, seat: int) -> RealmsState:
    sc = state.final[seat].model_copy(update={"confirmed": True, "notices": ()})
    state = state.model_copy(
        update={
            "final": _with_final(state, seat, sc),
            "log": _log(state, _entry(N_("%(player)s confirmed their choices."), seat)),
        }
    )
    return _reveal(state) if all(s.confirmed for s in state.final) else state


def _force(state: RealmsState) -> RealmsState:
    """E9: every waiting seat is confirmed with its pre-selection; unconfirmed edits are dropped."""
    final = list(state.final)
    entries = []
    for seat, sc in enumerate(final):
        if sc.confirmed:
            continue
        final[seat] = sc.model_copy(
            update={
                "draft": dict(sc.preselection),
                "confirmed": True,
                "automatic": True,
                "notices": (),
            }
        )
        entries.append(_entry(N_("%(player)s was confirmed automatically (best choice)."), seat))
    state = state.model_copy(update={"final": tuple(final), "log": _log(state, *entries)})
    return _reveal(state)


def _reveal(state: RealmsState) -> RealmsState:
    """E11: score every hand, rank them (E20) and make everything public."""
    scores = [preview(state, seat) for seat in range(state.seats)]
    ranks = list(scoring.rank(scores, state.options))
    seats = []
    for seat, (score, rk) in enumerate(zip(scores, ranks, strict=True)):
        data = dict(score.to_dict())
        seats.append(
            {
                **data,
                "seat": seat,
                "rank": int(rk),
                "hand": list(state.hands[seat]),
                "choices": _normalise(state.final[seat].draft, held_keys(state.hands[seat])),
                "automatic": state.final[seat].automatic,
            }
        )
    entries = [
        _entry(
            N_("%(player)s scores %(score)s points (rank %(rank)s)."), seat, score=s["total"], rank=s["rank"]
        )
        for seat, s in enumerate(seats)
    ]
    return state.model_copy(
        update={
            "phase": "finished",
            "result": {"seats": seats},
            "log": _log(state, _entry(N_("All hands are revealed.")), *entries),
        }
    )


# --- result (E20-E22) -----------------------------------------------------------------------------

TIE_BREAK_LABEL = {
    "highest_card": N_("highest card"),
    "lowest_base_total": N_("base total"),
}


def game_result(state: RealmsState) -> Result | None:
    """The final scores, once the hands are revealed: one SeatResult per seat, lines from the breakdown."""
    if state.phase != "finished" or state.result is None:
        return None
    scores = [preview(state, seat) for seat in range(state.seats)]
    ranking = scoring.ranking(scores, state.options)
    seats = []
    for seat, (score, rk) in enumerate(zip(scores, ranking.ranks, strict=True)):
        tb = score.tie_break
        seats.append(
            SeatResult(
                seat=seat,
                score=int(score.total),
                rank=int(rk),
                lines=list(scoring.breakdown_lines(score)),
                tie_break=f"{TIE_BREAK_LABEL.get(tb.rule, tb.rule)}: {tb.value}",
            )
        )
    winners = [s.seat for s in seats if s.rank == 1]
    return Result(seats=seats, winners=winners, note=ranking.note)
