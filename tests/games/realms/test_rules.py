"""One test (or a few) per numbered rule of the Fantasy Realms flow: S1-S7, T1-T16, E1-E11, §4.4."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from app.games.realms import rules, scoring
from app.games.realms.options import RealmsOptions
from app.games.realms.state import RealmsState, all_slugs
from app.games.realms.view import view
from tests.games.realms.helpers import (
    NO_CHOICE_HANDS,
    dumped,
    ended_state,
    filler,
    log_texts,
    make_state,
    play,
    rejected,
)

TAKE_DECK = {"action": "take", "source": "deck"}


def take(card: str) -> dict[str, str]:
    return {"action": "take", "source": "discard", "card": card}


def discard(card: str) -> dict[str, str]:
    return {"action": "discard", "card": card}


def four_hands(exclude: tuple[str, ...] = ()) -> list[list[str]]:
    cards = filler(28, exclude)
    return [cards[i * 7 : (i + 1) * 7] for i in range(4)]


def hands_of(*sizes: int, exclude: tuple[str, ...] = ()) -> list[list[str]]:
    cards = filler(sum(sizes), exclude)
    out, i = [], 0
    for n in sizes:
        out.append(cards[i : i + n])
        i += n
    return out


def all_cards(state: RealmsState) -> list[str]:
    return [*state.deck, *state.discard_area, *(c for h in state.hands for c in h)]


# --- S: setup -------------------------------------------------------------------------------------


def test_s1_two_to_six_players() -> None:
    for n in range(2, 7):
        state = rules.setup(n, RealmsOptions(), random.Random(n))
        assert state.seats == n and len(state.hands) == n
    for n in (1, 7):
        with pytest.raises(ValueError):
            rules.setup(n, RealmsOptions(), random.Random(0))


def test_s1_two_player_variant_ignored_with_three_or_more() -> None:
    for variant in ("seed", "published", "none"):
        state = rules.setup(3, RealmsOptions(two_player_variant=variant), random.Random(1))
        assert state.mode == "standard"
        assert all(len(h) == 7 for h in state.hands)
    assert rules.setup(2, RealmsOptions(), random.Random(1)).mode == "seed"  # default
    assert rules.setup(2, RealmsOptions(two_player_variant="none"), random.Random(1)).mode == "standard"
    assert rules.setup(2, RealmsOptions(two_player_variant="published"), random.Random(1)).mode == "published"


def test_s2_options_frozen_in_state() -> None:
    opts = RealmsOptions(may_discard_taken_card=False, tie_break="lowest_base_total")
    state = rules.setup(4, opts, random.Random(2))
    assert state.options == opts
    with pytest.raises(ValidationError):
        state.options.tie_break = "highest_card"  # type: ignore[misc]


def test_s3_shuffle_is_deterministic_given_the_seed() -> None:
    a = rules.setup(4, RealmsOptions(), random.Random(42))
    b = rules.setup(4, RealmsOptions(), random.Random(42))
    c = rules.setup(4, RealmsOptions(), random.Random(43))
    assert a == b
    assert (a.deck, a.hands) != (c.deck, c.hands)
    assert sorted(all_cards(a)) == sorted(all_slugs()) and len(all_slugs()) == 53


def test_s4_deal_seat_one_takes_the_first_seven() -> None:
    rng = random.Random(7)
    state = rules.setup(3, RealmsOptions(), rng)
    shuffled = list(all_slugs())
    random.Random(7).shuffle(shuffled)
    assert state.hands[0] == tuple(shuffled[0:7])
    assert state.hands[1] == tuple(shuffled[7:14])
    assert state.hands[2] == tuple(shuffled[14:21])
    assert state.deck == tuple(shuffled[21:])


def test_s4_two_player_variants_deal_nothing() -> None:
    for variant in ("seed", "published"):
        state = rules.setup(2, RealmsOptions(two_player_variant=variant), random.Random(3))
        assert state.hands == ((), ())
        assert len(state.deck) == 53


def test_s5_discard_area_starts_empty() -> None:
    assert rules.setup(5, RealmsOptions(), random.Random(5)).discard_area == ()


def test_s6_first_player_from_the_seed() -> None:
    firsts = {rules.setup(4, RealmsOptions(), random.Random(s)).first_player for s in range(60)}
    assert firsts == {0, 1, 2, 3}
    state = rules.setup(4, RealmsOptions(), random.Random(9))
    assert state.active == state.first_player
    assert rules.to_act(state) == {state.first_player}


@pytest.mark.parametrize(
    ("seats", "variant", "size"),
    [
        (3, "seed", 32),
        (4, "seed", 25),
        (5, "seed", 18),
        (6, "seed", 11),
        (2, "none", 39),
        (2, "seed", 53),
        (2, "published", 53),
    ],
)
def test_s7_deck_size_after_setup(seats: int, variant: str, size: int) -> None:
    state = rules.setup(seats, RealmsOptions(two_player_variant=variant), random.Random(0))  # type: ignore[arg-type]
    assert len(state.deck) == size
    assert view(state, None)["deck_size"] == size


# --- T: standard game -----------------------------------------------------------------------------


def test_t1_turns_in_seat_order_with_wrap_around() -> None:
    state = make_state(four_hands(), active=3)
    state = play(state, 3, TAKE_DECK)
    state = play(state, 3, discard(state.hands[3][0]))
    assert state.active == 0
    assert rules.to_act(state) == {0}
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard(state.hands[0][0]))
    assert state.active == 1


def test_t1_nobody_acts_out_of_turn() -> None:
    state = make_state(four_hands(), active=1)
    for seat in (0, 2, 3):
        assert rejected(state, seat, TAKE_DECK).code == "not_your_turn"
        assert rules.legal_moves(state, seat) == []


def test_t2_take_then_discard() -> None:
    state = make_state(four_hands(), active=0)
    err = rejected(state, 0, discard(state.hands[0][0]))
    assert err.code == "take_first"
    state = play(state, 0, TAKE_DECK)
    assert all(m["action"] == "discard" for m in dumped(rules.legal_moves(state, 0)))


def test_t3_take_top_of_deck() -> None:
    state = make_state(four_hands(("dragon",)), deck_top=["dragon"])
    after = play(state, 0, TAKE_DECK)
    assert "dragon" in after.hands[0] and len(after.hands[0]) == 8
    assert after.deck == state.deck[1:]


def test_t3_take_any_card_of_the_discard_area() -> None:
    pile = ["dragon", "hydra", "swamp"]
    state = make_state(four_hands(tuple(pile)), discard_area=pile)
    after = play(state, 0, take("dragon"))  # not the last discarded
    assert "dragon" in after.hands[0]
    assert after.discard_area == ("hydra", "swamp")
    assert after.deck == state.deck


def test_t3_only_deck_when_discard_area_empty_and_only_discard_when_deck_empty() -> None:
    state = make_state(four_hands())
    assert dumped(rules.legal_moves(state, 0)) == [TAKE_DECK]
    hands = four_hands(("dragon",))
    empty_deck = make_state(hands, discard_area=["dragon"], deck_size=0)
    assert dumped(rules.legal_moves(empty_deck, 0)) == [take("dragon")]
    assert rejected(empty_deck, 0, TAKE_DECK).code == "deck_empty"


def test_t4_discard_may_be_the_card_just_taken() -> None:
    state = make_state(four_hands(("dragon",)), discard_area=["dragon"])
    state = play(state, 0, take("dragon"))
    after = play(state, 0, discard("dragon"))
    assert after.discard_area == ("dragon",)


def test_t4_option_forbids_discarding_the_card_taken_from_discard_area() -> None:
    state = make_state(four_hands(("dragon",)), discard_area=["dragon"], may_discard_taken_card=False)
    state = play(state, 0, take("dragon"))
    err = rejected(state, 0, discard("dragon"))
    assert (err.code, err.message) == (
        "keep_taken_card",
        "You cannot discard the card you just took from the discard area.",
    )
    assert {"action": "discard", "card": "dragon"} not in dumped(rules.legal_moves(state, 0))
    assert len(rules.legal_moves(state, 0)) == 7


def test_t4_card_from_deck_may_always_be_discarded() -> None:
    state = make_state(four_hands(("dragon",)), deck_top=["dragon"], may_discard_taken_card=False)
    state = play(state, 0, TAKE_DECK)
    after = play(state, 0, discard("dragon"))
    assert after.discard_area == ("dragon",)


def test_t5_hand_back_to_seven() -> None:
    state = make_state(four_hands())
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard(state.hands[0][3]))
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]


def test_t6_game_continues_at_ninth_discard() -> None:
    pile = filler(8, exclude=[c for h in four_hands() for c in h])
    state = make_state(four_hands(), discard_area=pile)
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard(state.hands[0][0]))
    assert len(state.discard_area) == 9
    assert state.phase == "play" and state.active == 1


def test_t6_game_ends_at_tenth_discard() -> None:
    hands = four_hands()
    pile = filler(9, exclude=[c for h in hands for c in h])
    state = make_state(hands, discard_area=pile, active=2, first_player=0)
    state = play(state, 2, TAKE_DECK)
    state = play(state, 2, discard(state.hands[2][0]))
    assert len(state.discard_area) == 10
    assert state.phase == "final_choices"
    assert rules.to_act(state) == {0, 1, 2, 3}
    assert rejected(state, 3, TAKE_DECK).code == "game_over"


def test_t6_taking_from_discard_area_keeps_the_count() -> None:
    hands = four_hands()
    pile = filler(9, exclude=[c for h in hands for c in h])
    state = make_state(hands, discard_area=pile)
    state = play(state, 0, take(pile[0]))
    state = play(state, 0, discard(state.hands[0][0]))
    assert len(state.discard_area) == 9 and state.phase == "play"


def test_t7_rejection_sentences() -> None:
    hands = four_hands(("dragon", "hydra"))
    state = make_state(hands, active=1)
    cases = [
        (state, 0, TAKE_DECK, "not_your_turn", "It is not your turn."),
        (state, 1, discard(hands[1][0]), "take_first", "Take a card first (deck or discard area)."),
        (
            state,
            1,
            take("dragon"),
            "discard_area_empty",
            "The discard area is empty: take the top card of the deck.",
        ),
    ]
    with_pile = make_state(hands, active=1, discard_area=["hydra"])
    cases.append(
        (with_pile, 1, take("dragon"), "not_in_discard_area", "That card is not in the discard area.")
    )
    no_deck = make_state(hands, active=1, discard_area=["hydra"], deck_size=0)
    cases.append(
        (no_deck, 1, TAKE_DECK, "deck_empty", "The deck is empty: take a card from the discard area.")
    )
    took = play(state, 1, TAKE_DECK)
    cases.append((took, 1, TAKE_DECK, "already_took", "You already took a card this turn; now discard one."))
    cases.append((took, 1, discard(hands[0][0]), "not_in_hand", "You do not hold that card."))
    for st, seat, move, code, sentence in cases:
        err = rejected(st, seat, move)
        assert (err.code, err.message) == (code, sentence), move


def test_t7_first_applicable_rejection_wins() -> None:
    hands = four_hands()
    state = make_state(hands, active=1)
    # not your turn comes before take first
    assert rejected(state, 2, discard(hands[2][0])).code == "not_your_turn"
    # game over comes before everything
    hands10 = four_hands()
    pile = filler(9, exclude=[c for h in hands10 for c in h])
    ended = make_state(hands10, discard_area=pile)
    ended = play(ended, 0, TAKE_DECK)
    ended = play(ended, 0, discard(ended.hands[0][0]))
    assert rejected(ended, 2, discard("not-a-card")).code == "game_over"
    # already took comes before discard_area_empty
    took = play(state, 1, TAKE_DECK)
    assert rejected(took, 1, take("dragon")).code == "already_took"


# --- T: seed 2-player variant ---------------------------------------------------------------------


def seed_state(h0: list[str], h1: list[str], **kw: object) -> RealmsState:
    return make_state([h0, h1], **kw)  # type: ignore[arg-type]


def test_t8_seed_variant_starts_empty_and_alternates() -> None:
    state = rules.setup(2, RealmsOptions(), random.Random(11))
    assert state.hands == ((), ())
    first = state.active
    state = play(state, first, TAKE_DECK)
    state = play(state, first, TAKE_DECK)
    state = play(state, first, discard(state.hands[first][0]))
    assert state.active == 1 - first


def test_t9_seed_seven_cards_play_a_standard_turn() -> None:
    h0, h1 = hands_of(7, 3)
    state = seed_state(h0, h1)
    state = play(state, 0, TAKE_DECK)
    assert all(m["action"] == "discard" for m in dumped(rules.legal_moves(state, 0)))
    assert len(rules.legal_moves(state, 0)) == 8
    err = rejected(state, 0, TAKE_DECK)
    assert (err.code, err.message) == (
        "one_take_with_seven",
        "With 7 cards you take one card and discard one.",
    )
    state = play(state, 0, discard(h0[0]))
    assert len(state.hands[0]) == 7


def test_t10a_two_card_draw_grows_the_hand_by_one() -> None:
    h0, h1 = hands_of(3, 3, exclude=("dragon", "hydra"))
    state = seed_state(h0, h1, discard_area=["dragon"], deck_top=["hydra"])
    state = play(state, 0, take("dragon"))
    state = play(state, 0, TAKE_DECK)
    assert len(state.hands[0]) == 5
    state = play(state, 0, discard("hydra"))
    assert sorted(state.hands[0]) == sorted([*h0, "dragon"])
    assert state.discard_area == ("hydra",)


def test_t10a_either_taken_card_may_be_discarded_whatever_the_option() -> None:
    h0, h1 = hands_of(3, 3, exclude=("dragon", "hydra"))
    state = seed_state(h0, h1, discard_area=["dragon", "hydra"], may_discard_taken_card=False)
    state = play(state, 0, take("dragon"))
    state = play(state, 0, take("hydra"))
    assert sorted(m["card"] for m in dumped(rules.legal_moves(state, 0))) == ["dragon", "hydra"]
    after = play(state, 0, discard("dragon"))
    assert after.discard_area == ("dragon",)


def test_t10b_swap_keeps_the_hand_size() -> None:
    h0, h1 = hands_of(4, 3)
    state = seed_state(h0, h1)
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard(h0[1]))
    assert len(state.hands[0]) == 4 and len(state.discard_area) == 1


def test_t10b_swap_respects_may_discard_taken_card() -> None:
    h0, h1 = hands_of(4, 3, exclude=("dragon",))
    state = seed_state(h0, h1, discard_area=["dragon"], may_discard_taken_card=False)
    state = play(state, 0, take("dragon"))
    assert rejected(state, 0, discard("dragon")).code == "keep_taken_card"


def test_t10_empty_hand_must_take_a_second_card() -> None:
    state = seed_state([], [])
    state = play(state, 0, TAKE_DECK)
    err = rejected(state, 0, discard(state.hands[0][0]))
    assert (err.code, err.message) == (
        "take_second_card",
        "You had no cards at the start of your turn: take a second card.",
    )


def test_t10_first_take_empties_the_discard_area_so_second_is_from_deck() -> None:
    h0, h1 = hands_of(2, 2, exclude=("dragon",))
    state = seed_state(h0, h1, discard_area=["dragon"])
    state = play(state, 0, take("dragon"))
    takes = [m for m in dumped(rules.legal_moves(state, 0)) if m["action"] == "take"]
    assert takes == [TAKE_DECK]


def test_t11_continuations_after_first_take() -> None:
    h0, h1 = hands_of(3, 0, exclude=("dragon", "hydra"))
    state = seed_state(h0, h1, discard_area=["dragon", "hydra"])
    after = play(state, 0, take("dragon"))
    moves = dumped(rules.legal_moves(after, 0))
    assert moves == [TAKE_DECK, take("hydra"), *[discard(c) for c in [*h0, "dragon"]]]
    empty = seed_state(h1, h0, discard_area=["dragon", "hydra"])  # seat 0 holds nothing
    after = play(empty, 0, take("dragon"))
    assert dumped(rules.legal_moves(after, 0)) == [TAKE_DECK, take("hydra")]


def test_t12_seed_end_needs_both_hands_full_and_twelve_discards() -> None:
    # the discard area reaches 12 with one hand at 6: play goes on
    h0, h1 = hands_of(6, 6)
    pile = filler(11, exclude=h0 + h1)
    state = seed_state(h0, h1, discard_area=pile)
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard(state.hands[0][-1]))
    assert len(state.hands[0]) == 7 and len(state.discard_area) == 12 and state.phase == "play"
    # the second hand reaches 7: the game ends at once
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, discard(state.hands[1][-1]))
    assert state.phase == "final_choices"


def test_t12_both_hands_full_but_fewer_than_twelve_discards() -> None:
    h0, h1 = hands_of(7, 7)
    pile = filler(10, exclude=h0 + h1)
    state = seed_state(h0, h1, discard_area=pile)
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard(h0[0]))
    assert len(state.discard_area) == 11 and state.phase == "play"
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, discard(h1[0]))
    assert len(state.discard_area) == 12 and state.phase == "final_choices"


def test_t13_seed_empty_deck_take_from_discard_area() -> None:
    h0, h1 = hands_of(5, 5)
    pile = [c for c in all_slugs() if c not in h0 + h1]
    state = seed_state(h0, h1, discard_area=pile, deck_size=0)
    assert len(pile) == 43
    err = rejected(state, 0, TAKE_DECK)
    assert err.code == "deck_empty"
    assert all(m["source"] == "discard" for m in dumped(rules.legal_moves(state, 0)))


def test_t14_seed_rejections() -> None:
    h0, h1 = hands_of(4, 7, exclude=("dragon", "hydra", "swamp"))
    state = seed_state(h0, h1, discard_area=["dragon", "hydra", "swamp"])
    two = play(play(state, 0, take("dragon")), 0, take("hydra"))
    err = rejected(two, 0, discard(h0[0]))
    assert (err.code, err.message) == (
        "discard_taken_card",
        "Discard one of the two cards you took this turn.",
    )
    err = rejected(two, 0, take("swamp"))
    assert (err.code, err.message) == ("already_took_two", "You already took two cards this turn.")
    # T7 checks come first: a card held by the other seat is not_in_hand
    assert rejected(two, 0, discard(h1[0])).code == "not_in_hand"
    # not_your_turn before anything of T14
    assert rejected(two, 1, discard(h1[0])).code == "not_your_turn"


# --- T: published 2-player variant ----------------------------------------------------------------


def pub_state(h0: list[str], h1: list[str], **kw: object) -> RealmsState:
    return make_state([h0, h1], two_player_variant="published", **kw)  # type: ignore[arg-type]


def test_t15_take_from_discard_area_ends_the_turn_without_discard() -> None:
    h0, h1 = hands_of(3, 3, exclude=("dragon",))
    state = pub_state(h0, h1, discard_area=["dragon"])
    after = play(state, 0, take("dragon"))
    assert after.hands[0] == (*h0, "dragon") and after.discard_area == ()
    assert after.active == 1 and after.deck == state.deck


def test_t15_draw_two_keeps_one() -> None:
    h0, h1 = hands_of(3, 3, exclude=("knights", "queen"))
    state = pub_state(h0, h1, deck_top=["knights", "queen"])
    state = play(state, 0, {"action": "draw_two"})
    assert dumped(rules.legal_moves(state, 0)) == [discard("knights"), discard("queen")]
    state = play(state, 0, discard("knights"))
    assert state.hands[0] == (*h0, "queen") and state.discard_area == ("knights",)
    assert len(state.deck) == 53 - 6 - 2


def test_t15_seven_cards_play_a_standard_turn() -> None:
    h0, h1 = hands_of(7, 3)
    state = pub_state(h0, h1)
    assert dumped(rules.legal_moves(state, 0)) == [TAKE_DECK]
    state = play(state, 0, TAKE_DECK)
    state = play(state, 0, discard(h0[0]))
    assert len(state.hands[0]) == 7 and len(state.discard_area) == 1


def test_t15_gathering_legal_moves() -> None:
    h0, h1 = hands_of(3, 3, exclude=("dragon", "hydra"))
    state = pub_state(h0, h1, discard_area=["dragon", "hydra"])
    assert dumped(rules.legal_moves(state, 0)) == [take("dragon"), take("hydra"), {"action": "draw_two"}]


def test_t16_published_end_check() -> None:
    h0, h1 = hands_of(7, 6, exclude=("dragon",))
    pile = ["dragon", *filler(11, exclude=[*h0, *h1, "dragon"])]
    state = pub_state(h0, h1, discard_area=pile, active=1)
    after = play(state, 1, take("dragon"))  # gathering take: hand 7, discard area 11
    assert after.phase == "play"
    state = pub_state(h0, h1, discard_area=pile, active=1)
    state = play(state, 1, {"action": "draw_two"})
    state = play(state, 1, discard(state.turn.taken[0].card))  # hand 7, discard area 13
    assert state.phase == "final_choices"


def test_t16_published_rejections() -> None:
    h0, h1 = hands_of(3, 7, exclude=("dragon",))
    state = pub_state(h0, h1)
    err = rejected(state, 0, take("dragon"))
    assert (err.code, err.message) == (
        "discard_area_empty",
        "The discard area is empty: draw two from the deck.",
    )
    err = rejected(state, 0, TAKE_DECK)
    assert (err.code, err.message) == (
        "gather_take",
        "With fewer than 7 cards, take a card from the discard area or draw two from the deck.",
    )
    drew = play(state, 0, {"action": "draw_two"})
    err = rejected(drew, 0, discard(h0[0]))
    assert (err.code, err.message) == ("discard_drawn_card", "Discard one of the two cards you drew.")
    assert rejected(drew, 0, {"action": "draw_two"}).code == "already_took"
    seven = pub_state(h1, h0)
    err = rejected(seven, 0, {"action": "draw_two"})
    assert (err.code, err.message) == (
        "one_take_with_seven",
        "With 7 cards you take one card and discard one.",
    )


# --- other rejections and the move vocabulary (§4.4) ----------------------------------------------


def test_other_rejections_wrong_action_during_play() -> None:
    state = make_state(four_hands())
    for move in (
        {"action": "draw_two"},
        {"action": "final_choices_update", "choices": {}},
        {"action": "final_choices_confirm"},
        {"action": "force_final_choices"},
    ):
        err = rejected(state, 0, move, host=True)
        assert (err.code, err.message) == ("wrong_action", "That action is not available now.")
    seed = seed_state([], [])
    assert rejected(seed, 0, {"action": "draw_two"}).code == "wrong_action"


def test_move_type_rejects_malformed_moves() -> None:
    bad = [
        {"action": "pass"},
        {"action": "take"},
        {"action": "take", "source": "discard"},
        {"action": "take", "source": "deck", "card": "dragon"},
        {"action": "take", "source": "hand", "card": "dragon"},
        {"action": "discard"},
        {"action": "discard", "card": "dragon", "extra": 1},
        {"action": "draw_two", "count": 2},
        {"action": "final_choices_update", "choices": {"wizard": "dragon"}},
        {"action": "final_choices_update", "choices": {"book_of_changes": {"target": "dragon"}}},
    ]
    for data in bad:
        with pytest.raises(ValidationError):
            rules.MOVE_ADAPTER.validate_python(data)


def test_move_json_round_trip() -> None:
    for data in (
        TAKE_DECK,
        take("dragon"),
        discard("dragon"),
        {"action": "draw_two"},
        {"action": "final_choices_update", "choices": {"mirage": "rainstorm", "island": None}},
        {
            "action": "final_choices_update",
            "choices": {"book_of_changes": {"target": "dragon", "suit": "wizard"}},
        },
        {"action": "final_choices_confirm"},
        {"action": "force_final_choices"},
    ):
        move = rules.MOVE_ADAPTER.validate_python(data)
        assert rules.MOVE_ADAPTER.dump_python(move, mode="json", exclude_none=True) == data


def test_legal_moves_start_of_turn_standard() -> None:
    hands = four_hands(("dragon", "hydra"))
    state = make_state(hands, discard_area=["dragon", "hydra"], active=2)
    assert dumped(rules.legal_moves(state, 2)) == [TAKE_DECK, take("dragon"), take("hydra")]
    after = play(state, 2, take("hydra"))
    assert dumped(rules.legal_moves(after, 2)) == [discard(c) for c in [*hands[2], "hydra"]]


def test_legal_moves_are_all_accepted() -> None:
    h0, h1 = hands_of(3, 5, exclude=("dragon", "hydra"))
    for state in (
        seed_state(h0, h1, discard_area=["dragon", "hydra"]),
        pub_state(h0, h1, discard_area=["dragon", "hydra"]),
        make_state(four_hands(("dragon", "hydra")), discard_area=["dragon", "hydra"]),
    ):
        for move in rules.legal_moves(state, 0):
            nxt = rules.apply(state, 0, move, random.Random(0))
            for move2 in rules.legal_moves(nxt, 0):
                rules.apply(nxt, 0, move2, random.Random(0))


# --- E: end of game -------------------------------------------------------------------------------


def test_e1_trigger_freezes_the_discard_area() -> None:
    state = ended_state(NO_CHOICE_HANDS)
    assert state.phase == "final_choices"
    frozen = state.discard_area
    assert rejected(state, 1, take(frozen[0])).code == "game_over"
    assert rejected(state, 1, discard(NO_CHOICE_HANDS[1][0])).code == "game_over"
    assert "The discard area holds 10 cards: the game ends." in log_texts(view(state, None))


def test_e2_phase_with_drafts_prefilled_by_best_choice() -> None:
    hands = [
        list(NO_CHOICE_HANDS[0]),
        list(NO_CHOICE_HANDS[1]),
        ["island", "book-of-changes", "dragon", "knights", "queen", "king", "forest"],
    ]
    state = ended_state(hands)
    assert state.phase == "final_choices"
    best = scoring.best_choices(hands[2], state.options, discard_area=list(state.discard_area))
    assert state.final[2].draft == {k: best.choices.get(k) for k in ("book_of_changes", "island")}
    assert state.final[2].preselection == state.final[2].draft
    assert state.final[0].draft == {} and state.final[1].draft == {}
    mine = view(state, 2)["final_choices"]["mine"]
    assert mine["preview"]["total"] == best.score.total


def test_e3_forms_are_independent() -> None:
    hands = [["mirage", *NO_CHOICE_HANDS[0][:6]], list(NO_CHOICE_HANDS[1]), list(NO_CHOICE_HANDS[2])]
    state = ended_state(hands)
    before = [view(state, s)["final_choices"]["mine"]["preview"]["total"] for s in (1, 2)]
    state = play(state, 2, {"action": "final_choices_confirm"})  # any order
    state = play(state, 0, {"action": "final_choices_update", "choices": {"mirage": "mountain"}})
    after = [view(state, s)["final_choices"]["mine"]["preview"]["total"] for s in (1, 2)]
    assert before == after
    assert state.final[1].draft == {} and not state.final[1].confirmed


def test_e4_preselection_is_the_best_choice() -> None:
    # EX-B2: Book of Changes: Bell Tower -> Wizard, total 380
    hand = [
        "bell-tower",
        "candle",
        "queen",
        "sword-of-keth",
        "shield-of-keth",
        "gem-of-order",
        "book-of-changes",
    ]
    state = ended_state([hand, NO_CHOICE_HANDS[1], NO_CHOICE_HANDS[2]])
    assert state.final[0].preselection == {"book_of_changes": {"target": "bell-tower", "suit": "wizard"}}
    assert view(state, 0)["final_choices"]["mine"]["preview"]["total"] == 380


def test_e5_canonical_order_breaks_equal_keys() -> None:
    # EX-B4: Book of Changes: Island -> Wizard (47) ties with {Dragon -> Flood; Island clears Dragon}
    hand = ["island", "book-of-changes", "dragon", "elven-longbow", "magic-wand", "world-tree", "candle"]
    state = ended_state([NO_CHOICE_HANDS[0], hand, NO_CHOICE_HANDS[2]])
    best = scoring.best_choices(hand, state.options, discard_area=list(state.discard_area))
    assert state.final[1].draft == {k: best.choices.get(k) for k in ("book_of_changes", "island")}
    three = ended_state([NO_CHOICE_HANDS[0], ["island", "book-of-changes", "dragon"], NO_CHOICE_HANDS[2]])
    assert three.final[1].draft == {"book_of_changes": {"target": "island", "suit": "wizard"}, "island": None}
    assert view(three, 1)["final_choices"]["mine"]["preview"]["total"] == 47


def test_e6_search_uses_the_frozen_discard_area_and_is_exhaustive() -> None:
    # EX-B1: the Necromancer takes Warhorse from the discard area; Book of Changes: Bell Tower -> Leader; 397
    hand = [
        "bell-tower",
        "candle",
        "necromancer",
        "book-of-changes",
        "sword-of-keth",
        "shield-of-keth",
        "gem-of-order",
    ]
    pile = ["warhorse", "king", "swamp", "dragon", "knights", "forge", "rangers", "hydra", "smoke", "unicorn"]
    others = hands_of(7, 7, exclude=(*hand, *pile))
    state = make_state([hand, *others], discard_area=pile[:9], deck_top=[pile[9]], active=1)
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, discard("unicorn"))
    assert state.phase == "final_choices"
    assert state.final[0].draft == {
        "necromancer": "warhorse",
        "book_of_changes": {"target": "bell-tower", "suit": "leader"},
    }
    mine = view(state, 0)["final_choices"]["mine"]
    assert mine["preview"]["total"] == 397
    assert mine["search_stopped_early"] is False
    # R2: the Necromancer's draft removes nothing from the shown discard area
    assert view(state, 1)["discard_area"] == pile


def test_e7_editing_changes_draft_and_preview() -> None:
    hand = ["mirage", "whirlwind", "air-elemental", "smoke", "wildfire", "mountain", "great-flood"]
    state = ended_state(
        [
            hand,
            ["light-cavalry", "dwarvish-infantry", "warlock-lord", "swamp", "knights", "hydra", "empress"],
            ["forge", "blizzard", "unicorn", "lightning", "war-dirigible", "warlord", "sword-of-keth"],
        ]
    )
    state = play(state, 0, {"action": "final_choices_update", "choices": {"mirage": None}})
    assert state.final[0].draft == {"mirage": None}
    empty_total = view(state, 0)["final_choices"]["mine"]["preview"]["total"]
    state = play(state, 0, {"action": "final_choices_update", "choices": {"mirage": "rainstorm"}})
    assert state.final[0].draft == {"mirage": "rainstorm"}
    assert view(state, 0)["final_choices"]["mine"]["preview"]["total"] == 260  # hand H01
    assert empty_total != 260


def test_e7_dependent_choice_reset() -> None:
    # EX-B8
    hand = ["island", "book-of-changes", "dragon"]
    state = ended_state([NO_CHOICE_HANDS[0], hand, NO_CHOICE_HANDS[2]])
    state = play(
        state,
        1,
        {
            "action": "final_choices_update",
            "choices": {"book_of_changes": {"target": "dragon", "suit": "flood"}, "island": "dragon"},
        },
    )
    assert view(state, 1)["final_choices"]["mine"]["preview"]["total"] == 47
    state = play(
        state,
        1,
        {
            "action": "final_choices_update",
            "choices": {"book_of_changes": {"target": "dragon", "suit": "wizard"}},
        },
    )
    assert state.final[1].draft == {"book_of_changes": {"target": "dragon", "suit": "wizard"}, "island": None}
    mine = view(state, 1)["final_choices"]["mine"]
    assert mine["notices"] == [
        {"text": "Island's target is no longer a Flood or Flame; Island choice cleared.", "params": {}}
    ]
    assert mine["preview"]["total"] == 47


def test_e7_illegal_choice_rejected_draft_unchanged() -> None:
    # EX-B7 rows that the game reaches through its own checks
    hand = ["island", "mirage", "book-of-changes", "dragon", "necromancer", "doppelganger", "forest"]
    pile = filler(9, exclude=hand)
    state = make_state([hand, *hands_of(7, 7, exclude=(*hand, *pile))], discard_area=pile, active=1)
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, discard(state.turn.taken[0].card))
    assert state.phase == "final_choices"
    cases = [
        (
            {"mirage": "king"},
            "Mirage can only become an Army, Land, Weather, Flood or Flame; King is a Leader.",
        ),
        ({"doppelganger": "doppelganger"}, "The Doppelgänger cannot copy itself."),
        (
            {"book_of_changes": {"target": "book-of-changes", "suit": "army"}},
            "The Book of Changes must target another card.",
        ),
        ({"book_of_changes": {"target": "dragon", "suit": "wild"}}, "Choose one of the ten suits."),
        ({"island": "dragon"}, "Island must target a Flood or Flame; Dragon is a Beast."),
        ({"necromancer": "dragon"}, "Dragon is not in the discard area."),
        ({"shapeshifter": "dragon"}, "You do not hold Shapeshifter."),
    ]
    for choices, sentence in cases:
        err = rejected(state, 0, {"action": "final_choices_update", "choices": choices})
        assert err.code == "illegal_choice"
        assert err.message % err.params == sentence if err.params else err.message == sentence


def test_e7_keys_applied_in_c54_order() -> None:
    # the Book targets the Necromancer's card: legal only because necromancer is applied first
    hand = [
        "necromancer",
        "book-of-changes",
        *filler(5, exclude=["necromancer", "book-of-changes", "knights"]),
    ]
    pile = ["knights", *filler(8, exclude=[*hand, "knights"])]
    state = make_state([hand, *hands_of(7, 7, exclude=(*hand, *pile))], discard_area=pile, active=1)
    state = play(state, 1, TAKE_DECK)
    state = play(state, 1, discard(state.turn.taken[0].card))
    move = {
        "action": "final_choices_update",
        "choices": {"book_of_changes": {"target": "knights", "suit": "wizard"}, "necromancer": "knights"},
    }
    state = play(state, 0, move)
    assert state.final[0].draft["necromancer"] == "knights"
    assert state.final[0].draft["book_of_changes"] == {"target": "knights", "suit": "wizard"}


def test_e8_confirmation_locks_the_choices() -> None:
    hands = [["mirage", *NO_CHOICE_HANDS[0][:6]], NO_CHOICE_HANDS[1], NO_CHOICE_HANDS[2]]
    state = ended_state(hands)
    state = play(state, 0, {"action": "final_choices_confirm"})
    assert state.final[0].confirmed and rules.to_act(state) == {1, 2}
    assert rules.legal_moves(state, 0) == []
    for move in (
        {"action": "final_choices_confirm"},
        {"action": "final_choices_update", "choices": {"mirage": "mountain"}},
    ):
        err = rejected(state, 0, move)
        assert (err.code, err.message) == ("already_confirmed", "You have already confirmed your choices.")
    assert view(state, 1)["final_choices"]["status"] == [
        {"seat": 0, "confirmed": True},
        {"seat": 1, "confirmed": False},
        {"seat": 2, "confirmed": False},
    ]


def test_e9_host_forces_waiting_seats_with_preselection() -> None:
    hands = [["mirage", *NO_CHOICE_HANDS[0][:6]], NO_CHOICE_HANDS[1], NO_CHOICE_HANDS[2]]
    state = ended_state(hands)
    pre = state.final[0].preselection
    state = play(state, 0, {"action": "final_choices_update", "choices": {"mirage": "knights"}})
    if pre.get("mirage") == "knights":  # make the edit differ from the pre-selection
        state = play(state, 0, {"action": "final_choices_update", "choices": {"mirage": "swamp"}})
    state = play(state, 1, {"action": "final_choices_confirm"})
    err = rejected(state, 2, {"action": "force_final_choices"})
    assert (err.code, err.message) == ("not_host", "Only the table host can confirm for waiting players.")
    done = play(state, 1, {"action": "force_final_choices"}, host=True)
    assert done.phase == "finished"
    assert done.final[0].draft == pre  # unconfirmed edits discarded
    texts = log_texts(view(done, None))
    assert "Seat 1 was confirmed automatically (best choice)." in texts
    assert "Seat 3 was confirmed automatically (best choice)." in texts
    assert "Seat 2 was confirmed automatically (best choice)." not in texts


def test_e10_automatic_mode_goes_straight_to_reveal() -> None:
    hand = [
        "bell-tower",
        "candle",
        "queen",
        "sword-of-keth",
        "shield-of-keth",
        "gem-of-order",
        "book-of-changes",
    ]
    state = ended_state([hand, NO_CHOICE_HANDS[1], NO_CHOICE_HANDS[2]], final_choices="automatic")
    assert state.phase == "finished"
    assert rules.to_act(state) == frozenset()
    assert state.result is not None
    assert state.result["seats"][0]["total"] == 380
    assert state.result["seats"][0]["choices"] == {
        "book_of_changes": {"target": "bell-tower", "suit": "wizard"}
    }


def test_e11_reveal_when_all_confirmed() -> None:
    state = ended_state(NO_CHOICE_HANDS)
    for seat in (2, 0):
        state = play(state, seat, {"action": "final_choices_confirm"})
        assert state.phase == "final_choices"
    state = play(state, 1, {"action": "final_choices_confirm"})
    assert state.phase == "finished"
    # EX-T1: Ann 58, Ben 58, Cat 132; highest card: 1 Cat, 2 Ben, 3 Ann
    assert state.result is not None
    assert [s["total"] for s in state.result["seats"]] == [58, 58, 132]
    assert [s["rank"] for s in state.result["seats"]] == [3, 2, 1]
    result = rules.game_result(state)
    assert result is not None and list(result.winners) == [2]
    assert [s.rank for s in result.seats] == [3, 2, 1]
    for seat in (None, 0, 1, 2):
        v = view(state, seat)
        assert v["hands"] == [sorted(h, key=all_slugs().index) for h in NO_CHOICE_HANDS]
        assert v["result"]["winners"] == [2]
    assert rejected(state, 0, {"action": "final_choices_confirm"}).code == "game_over"


def test_e20_ranking_with_lowest_base_total() -> None:
    state = ended_state(NO_CHOICE_HANDS, tie_break="lowest_base_total", final_choices="automatic")
    assert state.result is not None
    assert [s["rank"] for s in state.result["seats"]] == [2, 3, 1]
    state = ended_state(
        NO_CHOICE_HANDS,
        tie_break="lowest_base_total",
        tie_break_base_counts_blanked=False,
        final_choices="automatic",
    )
    assert state.result is not None
    assert [s["rank"] for s in state.result["seats"]] == [2, 2, 1]
