"""Turn structure T1-T12."""

from __future__ import annotations

from app.games.fantasy import GAME, auto_move, rules
from app.games.fantasy.rules import EndTurn, Pass, PlayCreature, ReactPass
from tests.games.fantasy.helpers import (
    ANA,
    BOB,
    CID,
    creature,
    fill,
    forest_of,
    make,
    options,
    play,
    rejected,
    settle,
)

EXP = options(expansion=True)
DECK = fill(10, used=[])


def test_T1_the_active_player_keeps_the_turn_after_moving_place():
    s = make(
        3,
        hands={ANA: ["farfadet-1", "gnome-1"], BOB: ["gnome-2"]},
        forests={BOB: ["lutin-1"]},
        opts=EXP,
        deck=DECK,
    )
    s = settle(play(s, ANA, creature("farfadet-1", target_player=BOB)))
    assert s.window is not None and s.active == ANA and s.turn_place == 0
    s = play(s, BOB, ReactPass())
    assert s.place_of[ANA] == 1 and s.active == ANA and s.turn_place == 1  # T8: the next place is his again


def test_T2_draw_at_turn_start_and_none_from_an_empty_deck():
    s = make(3, hands={ANA: ["fee-1"], BOB: []}, deck=["gnome-5"])
    s = play(s, ANA, creature("fee-1"))
    assert s.hands[BOB] == ("gnome-5",) and s.deck == ()
    s = play(s, BOB, creature("gnome-5"))  # deck empty: Cid's turn has no draw
    assert s.active == CID and s.hands[CID] == ()


def test_T3_main_play_and_when_pass_is_legal():
    s = make(2, hands={ANA: ["gnome-1"]}, opts=EXP, deck=DECK)
    assert rejected(s, ANA, Pass()) == "must_play"
    assert Pass() not in GAME.legal_moves(s, ANA)
    free = s.model_copy(update={"options": options(expansion=True, must_play=False)})
    assert Pass() in GAME.legal_moves(free, ANA)
    assert play(free, ANA, Pass()).active == BOB
    empty = make(2, hands={ANA: []}, deck=DECK)
    assert GAME.legal_moves(empty, ANA) == [Pass()]
    assert auto_move(empty, ANA, None) == Pass()  # T3d: the service may pass for an empty hand
    only_secret = make(
        2,
        hands={ANA: ["secret-gnome"]},
        forests={ANA: ["gnome-1"]},
        opts=options(expansion=True, secret_placement="absent_only"),
    )
    assert GAME.legal_moves(only_secret, ANA) == [Pass()]
    assert auto_move(only_secret, ANA, None) is None  # decided from hand sizes only


def test_T4_after_bieres_one_creature_or_end_turn():
    s = make(
        3,
        hands={ANA: ["biere-1", "biere-2", "gnome-1"], BOB: ["gnome-2"]},
        forests={BOB: ["homme-1", "lutin-1"]},
        opts=EXP,
        deck=DECK,
    )
    s = settle(
        play(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": ["homme-1"]},
        )
    )
    s = play(s, BOB, ReactPass())
    assert s.step == "after_bieres" and s.biere_target == BOB
    assert rejected(s, ANA, creature("gnome-1")) == "biere_followup"
    assert (
        rejected(s, ANA, {"action": "play_bieres", "cards": ["biere-2"], "target_player": CID})
        == "wrong_step"
    )
    assert GAME.legal_moves(s, ANA) == [EndTurn()]
    anyf = s.model_copy(update={"options": options(expansion=True, biere_followup="any")})
    assert settle(play(anyf, ANA, creature("gnome-1"))).active == BOB
    e = play(s, ANA, EndTurn())
    assert e.active == BOB and e.neutralised == ()
    empty = s.model_copy(update={"hands": ((), *s.hands[1:])})
    assert auto_move(empty, ANA, None) == EndTurn()
    assert auto_move(s, ANA, None) is None


def test_T5_the_card_lies_in_the_forest_during_the_window_and_stays_when_cancelled():
    s = make(
        3,
        hands={ANA: ["dryade-1", "gnome-3"], BOB: ["fee-1", "gnome-2"]},
        forests={BOB: ["lutin-1"]},
        deck=DECK,
    )
    s = play(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1"))
    assert forest_of(s, ANA) == ["dryade-1"] and "dryade-1" not in s.hands[ANA]
    s = settle(play(s, BOB, {"action": "react_fee", "card": "fee-1"}))
    s = play(s, ANA, ReactPass())
    assert forest_of(s, ANA) == ["dryade-1"] and forest_of(s, BOB) == ["lutin-1", "fee-1"]


def test_T6_a_card_may_be_laid_when_its_ability_cannot_apply():
    s = make(3, hands={ANA: ["gnome-1", "dryade-1"], BOB: ["x"]}, deck=[])
    g = play(s, ANA, creature("gnome-1"))
    assert g.window is None and forest_of(g, ANA) == ["gnome-1"]
    d = play(s, ANA, creature("dryade-1", target_player=BOB))  # empty Forest: for nothing
    assert d.window is None and forest_of(d, ANA) == ["dryade-1"]


def test_T7_end_of_turn_order():
    s = make(
        3,
        hands={ANA: ["biere-1", "gnome-1"], BOB: ["gnome-2"], CID: ["gnome-3"]},
        forests={BOB: ["homme-1"]},
        opts=options(expansion=True, must_play=False),
        deck=[],
        idle_turns=1,
    )
    s = settle(
        play(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": ["homme-1"]},
        )
    )
    s = play(play(s, BOB, ReactPass()), ANA, EndTurn())
    assert s.neutralised == () and s.idle_turns == 0 and s.active == BOB  # T7.1, T7.2, T7.4
    p = play(s, BOB, Pass())
    assert p.idle_turns == 1


def test_T8_turn_order_follows_places():
    s = make(
        3, hands={ANA: ["fee-1"], BOB: ["fee-2"], CID: ["fee-3"]}, occupant=(2, 0, 1), active=2, deck=DECK
    )
    order = []
    for _ in range(3):
        order.append(s.active)
        s = play(s, s.active, creature(s.hands[s.active][0]))
    assert order == [2, 0, 1] and s.turn_place == 0


def test_T9_outside_his_turn_only_answers_and_decisions():
    s = make(3, hands={ANA: ["gnome-1"], BOB: ["fee-1"]}, deck=DECK)
    assert rejected(s, BOB, {"action": "react_fee", "card": "fee-1"}) == "not_your_turn"
    assert rejected(s, ANA, {"action": "react_pass"}) == "wrong_step"
    assert rejected(s, ANA, {"action": "choose_cards", "cards": []}) == "wrong_step"
    assert GAME.legal_moves(s, BOB) == []


def test_T10_hands_are_sorted_by_id():
    s = make(
        2, hands={ANA: ["korrigan-1"], BOB: ["lutin-2", "dryade-9"]}, deck=["elfe-3", "gnome-1", "fee-2"]
    )
    s = play(play(s, ANA, creature("korrigan-1", target_player=BOB)), BOB, ReactPass())
    for hand in s.hands:
        assert list(hand) == sorted(hand)


def test_T11_to_act_in_each_phase():
    s = make(
        3,
        hands={ANA: ["korrigan-1"], BOB: ["gnome-1"], CID: ["gnome-2"]},
        opts=options(korrigan_take="victim_chooses"),
    )
    assert GAME.to_act(s) == {ANA}
    w = play(s, ANA, creature("korrigan-1", target_player=BOB))
    assert GAME.to_act(w) == {BOB, CID}
    w = play(w, CID, ReactPass())
    assert GAME.to_act(w) == {BOB}
    d = play(w, BOB, ReactPass())
    assert GAME.to_act(d) == {BOB} and d.decision is not None
    over = s.model_copy(update={"end": rules.End(reason="stalemate"), "step": "over"})
    assert GAME.to_act(over) == frozenset()


def test_T12_rejection_precedence():
    s = make(
        3,
        hands={ANA: ["dryade-1", "gnome-1", "biere-1", "elfe-1"], BOB: ["gnome-2"]},
        forests={BOB: ["homme-1", "lutin-1"], CID: ["lutin-2"]},
        opts=EXP,
        deck=DECK,
    )
    over = s.model_copy(update={"end": rules.End(reason="stalemate"), "step": "over"})
    assert rejected(over, BOB, creature("nope-1")) == "game_over"
    assert rejected(s, BOB, creature("nope-1")) == "not_your_turn"
    assert rejected(s, ANA, creature("dryade-9")) == "card_not_in_hand"
    assert rejected(s, ANA, creature("biere-1")) == "wrong_card_kind"
    try:
        play(s, ANA, creature("biere-1"))
    except rules.IllegalMove as err:  # error params are plain words: the web layer renders them as they are
        assert str(err) == "Bière is not a creature."
    # the rule names forest_protected (C6), not unexpected_choice, for a card at a protected Forest
    assert (
        rejected(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1")) == "forest_protected"
    )
    # missing_choice is listed before unexpected_choice
    assert rejected(s, ANA, creature("dryade-1", target_player=CID, column="gnome")) == "missing_choice"
    assert rejected(s, ANA, creature("dryade-1", target_player=ANA, column="gnome")) == "unexpected_choice"
    assert rejected(s, ANA, creature("dryade-1", target_player=7)) == "bad_target"
    assert (
        rejected(s, ANA, creature("elfe-1", copy="lutin-2")) == "unexpected_choice"
    )  # nothing copyable here
    try:
        play(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1"))
    except rules.IllegalMove as err:
        assert err.message == "That player's Forest is protected by a Homme." and err.params == {}
    assert PlayCreature(card="dryade-1", target_player=CID, target_card="lutin-2") in GAME.legal_moves(s, ANA)
