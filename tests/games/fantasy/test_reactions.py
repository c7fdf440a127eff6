"""Reactions R1-R10: windows, eligibility, chains, and what the service does (R9)."""

from __future__ import annotations

import random

from app.games.fantasy import GAME, auto_move, rules
from app.games.fantasy.options import FantasyPrefs
from app.games.fantasy.rules import ReactFee, ReactPass
from tests.games.fantasy.helpers import (
    ANA,
    BOB,
    CID,
    DEE,
    creature,
    forest_of,
    make,
    options,
    pass_all,
    play,
    rejected,
    settle,
)

EXP = options(expansion=True)
DECK = ["elfe-8", "elfe-7", "elfe-6", "farfadet-8", "farfadet-7"]
HANDS = {
    ANA: ["dryade-1", "gnome-1", "homme-1", "secret-gnome"],
    BOB: ["fee-1", "gnome-2"],
    CID: ["fee-2", "gnome-3"],
}


def test_R1_which_plays_open_a_window():
    s = make(3, hands=HANDS, forests={BOB: ["lutin-1"]}, opts=EXP, deck=DECK)
    assert play(s, ANA, creature("gnome-1")).window is not None
    assert play(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1")).window is not None
    assert play(s, ANA, creature("homme-1")).window is None
    assert play(s, ANA, {"action": "play_secret", "card": "secret-gnome"}).window is None
    assert play(s, ANA, creature("dryade-1", target_player=CID)).window is None  # cannot apply


def test_R2_declared_choices_are_public_during_the_window():
    s = make(3, hands=HANDS, forests={BOB: ["lutin-1"]}, opts=EXP, deck=DECK)
    w = play(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1"))
    for seat in (None, ANA, BOB, CID):
        item = GAME.view(w, seat)["window"]["chain"][0]
        assert item["declared"] == {
            "action": "play_creature",
            "card": "dryade-1",
            "target_player": BOB,
            "target_card": "lutin-1",
        }
        assert item["text"] == "%(player)s's Dryade will take %(card)s from %(target)s."


def test_R3_eligible_reactors():
    s = make(4, hands={**HANDS, DEE: []}, forests={BOB: ["lutin-1"]}, opts=EXP, deck=DECK)
    w = play(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1"))
    assert w.window.eligible == (BOB, CID)  # not the player, not an empty hand
    w = play(w, BOB, ReactFee(card="fee-1"))
    assert w.window.eligible == (ANA, CID)  # the active player may answer someone else's Fée
    a = make(
        4,
        hands={**HANDS, DEE: ["fee-3"]},
        forests={BOB: ["lutin-1"]},
        opts=options(fee_reactors="affected_only"),
        deck=DECK,
    )
    a = play(a, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1"))
    assert a.window.eligible == (BOB,)
    n = make(3, hands=HANDS, opts=options(fee_reactors="affected_only"), deck=DECK)
    n = play(n, ANA, creature("gnome-1"))  # nobody affected: no window, the Gnome draws at once
    assert n.window is None and len(n.hands[ANA]) == 3 + 2


def test_R4_answers_and_to_act():
    s = make(3, hands=HANDS, opts=EXP, deck=DECK)
    w = play(s, ANA, creature("gnome-1"))
    assert GAME.to_act(w) == {BOB, CID}
    w = play(w, CID, ReactPass())
    assert GAME.to_act(w) == {BOB}
    assert rejected(w, CID, ReactPass()) == "not_your_turn"  # an answer is final


def test_R5_the_first_fee_wins_and_a_new_window_opens():
    s = make(3, hands=HANDS, opts=EXP, deck=DECK)
    w = play(play(s, ANA, creature("gnome-1")), CID, ReactPass())
    n0 = w.window.number
    w = play(w, BOB, ReactFee(card="fee-1"))
    assert "fee-1" in forest_of(w, BOB) and w.window.passed == () and w.window.number == n0 + 1
    assert w.window.eligible == (ANA, CID) and rules.affected(w) == (ANA,)
    assert rejected(w, BOB, ReactFee(card="gnome-2")) == "not_your_turn"  # never answers his own Fée


def test_R6_even_fees_let_the_item_act_odd_cancel():
    s = make(
        3, hands={ANA: ["gnome-1", "fee-5"], BOB: ["fee-1", "gnome-2"], CID: ["fee-2", "gnome-3"]}, deck=DECK
    )
    one = pass_all(play(play(s, ANA, creature("gnome-1")), BOB, ReactFee(card="fee-1")))
    assert one.hands[ANA] == ("fee-5",)  # cancelled: no draw
    two = play(play(s, ANA, creature("gnome-1")), BOB, ReactFee(card="fee-1"))
    two = pass_all(play(two, ANA, ReactFee(card="fee-5")))
    assert len(two.hands[ANA]) == 2  # two Fées: the Gnome draws


def test_R7_cancelled_bieres_continue_at_T4():
    s = make(
        3,
        hands={ANA: ["biere-1", "dryade-1"], BOB: ["fee-1", "gnome-2"]},
        forests={BOB: ["homme-1"]},
        opts=EXP,
        deck=DECK,
    )
    s = play(
        s, ANA, {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": ["homme-1"]}
    )
    s = pass_all(play(s, BOB, ReactFee(card="fee-1")))
    assert s.step == "after_bieres" and s.active == ANA and s.neutralised == () and "biere-1" in s.out_of_play


def test_R8_reacting_costs_a_card_not_a_turn():
    s = make(3, hands=HANDS, opts=EXP, deck=DECK)
    w = pass_all(play(play(s, ANA, creature("gnome-1")), BOB, ReactFee(card="fee-1")))
    assert w.active == BOB and w.hands[BOB] == ("elfe-8", "gnome-2")  # his normal turn, his normal draw


def test_R9_prefs_timeouts_and_public_only_auto_moves():
    s = make(
        4,
        hands={**HANDS, DEE: ["gnome-4"]},
        forests={BOB: ["lutin-1"]},
        opts=options(reaction_timeout_s=30),
        deck=DECK,
    )
    w = play(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1"))
    assert auto_move(w, BOB, FantasyPrefs()) is None  # affected: asked
    assert auto_move(w, BOB, None) is None
    assert auto_move(w, CID, FantasyPrefs()) == ReactPass()  # not affected: passed at once
    assert auto_move(w, DEE, FantasyPrefs(react_pref="ask_always")) is None
    assert auto_move(w, BOB, FantasyPrefs(react_pref="never")) == ReactPass()
    assert auto_move(w, ANA, FantasyPrefs(react_pref="never")) is None  # not a reactor
    t = GAME.timeout(w)
    assert t.key == f"window:{w.window.number}" and t.after_seconds == 30 and t.seat == BOB
    w2 = play(w, BOB, t.move)
    assert GAME.timeout(w2).key == t.key and GAME.timeout(w2).seat == CID
    done = settle(play(play(w2, CID, ReactPass()), DEE, ReactPass()))
    assert GAME.timeout(done) is None
    assert GAME.timeout(make(3, hands=HANDS, deck=DECK)) is None


def test_R9_a_fee_in_hand_changes_nothing_that_others_see():
    """Swap Bob's Fée for a non-Fée card from the deck: every other seat's view, the window prompt,
    to_act and every auto answer stay the same."""
    s = make(
        4, hands={**HANDS, DEE: ["gnome-4"]}, forests={BOB: ["lutin-1"]}, opts=EXP, deck=["elfe-5", *DECK]
    )
    w = play(s, ANA, creature("dryade-1", target_player=BOB, target_card="lutin-1"))
    swapped = w.model_copy(
        update={
            "hands": (w.hands[0], tuple(sorted(("elfe-5", "gnome-2"))), *w.hands[2:]),
            "deck": ("fee-1", *DECK),
        }
    )
    for seat in (None, ANA, CID, DEE):
        assert GAME.view(w, seat) == GAME.view(swapped, seat)
    assert (
        GAME.view(w, BOB)["prompt"]
        == GAME.view(swapped, BOB)["prompt"]
        == GAME.view(w, BOB)["window"]["prompt"]
    )
    assert GAME.to_act(w) == GAME.to_act(swapped)
    for seat in range(4):
        for pref in ("ask_when_affected", "ask_always", "never"):
            p = FantasyPrefs(react_pref=pref)
            assert auto_move(w, seat, p) == auto_move(swapped, seat, p)
    assert GAME.timeout(w) == GAME.timeout(swapped)
    assert ReactFee(card="fee-1") in GAME.legal_moves(w, BOB) and GAME.legal_moves(swapped, BOB) == [
        ReactPass()
    ]
    # and after everybody passes, the outcome (and its log) is the same for the others too
    a, b = pass_all(w), pass_all(swapped)
    for seat in (None, ANA, CID, DEE):
        va, vb = GAME.view(a, seat), GAME.view(b, seat)
        assert va == vb


def test_R10_a_fee_is_played_out_of_turn_only_in_a_window():
    s = make(3, hands=HANDS, opts=EXP, deck=DECK)
    assert rejected(s, BOB, ReactFee(card="fee-1")) == "not_your_turn"
    own = make(3, hands={ANA: ["fee-4"]}, deck=DECK)
    assert rejected(own, ANA, ReactFee(card="fee-4")) == "wrong_step"
    assert GAME.apply(own, ANA, creature_move("fee-4"), random.Random(0)).window is None


def creature_move(card: str) -> rules.PlayCreature:
    return rules.PlayCreature(card=card)
