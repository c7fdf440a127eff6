"""The worked examples W1-W25 of the spec, one test each (variants and rejections included)."""

from __future__ import annotations

from app.games.fantasy import GAME, auto_move, rules, scoring
from app.games.fantasy.options import FantasyPrefs
from app.games.fantasy.rules import ReactPass
from tests.games.fantasy.helpers import (
    ANA,
    BOB,
    CID,
    DEE,
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


def test_W1_gnome_draws_two_and_unaffected_reactors_are_passed():
    hand = ["gnome-3", "lutin-1", "fee-2", "dryade-5", "elfe-7"]
    top = ["korrigan-4", "gnome-6", "farfadet-2"]
    deck = top + fill(
        38, used=hand + top + ["gnome-1"], races=("korrigan", "lutin", "farfadet", "dryade", "elfe", "fee")
    )
    s = make(3, hands={ANA: hand, BOB: ["gnome-1"], CID: ["gnome-2"]}, deck=deck)
    s = rules._draw_for_turn(s)  # T2: the turn starts with Ana's draw
    assert "korrigan-4" in s.hands[ANA] and len(s.deck) == 40
    assert rejected(s, ANA, creature("gnome-3", target_player=BOB)) == "unexpected_choice"
    s = play(s, ANA, creature("gnome-3"))
    assert s.window is not None and s.window.eligible == (BOB, CID)
    assert rules.affected(s) == ()
    s = settle(s)  # neither is affected by a Gnome: both passed by the service
    assert sorted(s.hands[ANA]) == sorted(
        ["lutin-1", "fee-2", "dryade-5", "elfe-7", "korrigan-4", "gnome-6", "farfadet-2"]
    )
    assert forest_of(s, ANA) == ["gnome-3"]
    assert s.turn_place == 1 and s.active == BOB and len(s.deck) == 37  # Bob drew at his turn start


def test_W2_korrigan_takes_the_only_card_and_aims_at_an_empty_hand():
    deck = fill(12, used=["korrigan-2", "elfe-3", "gnome-1"])
    s = make(3, hands={ANA: ["korrigan-2", "gnome-1"], BOB: ["elfe-3"], CID: []}, deck=deck)
    t = play(s, ANA, creature("korrigan-2", target_player=BOB))
    assert t.window is not None and t.window.eligible == (BOB,)  # Cid has no cards
    t = play(t, BOB, ReactPass())
    assert "elfe-3" in t.hands[ANA]
    assert t.active == BOB and len(t.hands[BOB]) == 1  # emptied, then Bob draws on his turn
    v = play(s, ANA, creature("korrigan-2", target_player=CID))  # cannot apply: no window
    assert v.window is None and forest_of(v, ANA) == ["korrigan-2"] and v.active == BOB


def test_W3_lutin_exchanges_hands():
    s = make(
        3,
        hands={
            ANA: ["lutin-1", "gnome-1", "gnome-2", "dryade-4", "fee-6"],
            BOB: ["gnome-5"],
            CID: ["elfe-2", "korrigan-7"],
        },
    )
    assert rejected(s, ANA, creature("lutin-1", target_player=ANA)) == "bad_target"
    s = settle(play(s, ANA, creature("lutin-1", target_player=CID)))
    assert s.window is not None and s.window.waiting == (CID,)
    s = play(s, CID, ReactPass())
    assert s.hands[ANA] == ("elfe-2", "korrigan-7")
    assert s.hands[CID] == ("dryade-4", "fee-6", "gnome-1", "gnome-2")
    bob = GAME.view(s, BOB)
    assert [p["hand_size"] for p in bob["players"]][0::2] == [2, 4]
    text = str(bob)
    assert "korrigan-7" not in text and "dryade-4" not in text


def test_W4_farfadet_swaps_forests_in_the_base_game():
    s = make(
        3,
        hands={ANA: ["farfadet-5", "gnome-3"], BOB: ["gnome-4"], CID: ["gnome-6"]},
        forests={ANA: ["gnome-1", "elfe-2"], BOB: ["dryade-1", "dryade-2", "fee-3", "lutin-4"]},
    )
    s = settle(play(s, ANA, creature("farfadet-5", target_player=BOB)))
    s = play(s, BOB, ReactPass())
    assert forest_of(s, ANA) == ["dryade-1", "dryade-2", "fee-3", "lutin-4"]
    assert forest_of(s, BOB) == ["gnome-1", "elfe-2", "farfadet-5"]
    assert s.occupant == (0, 1, 2) and s.active == BOB and s.turn_place == 1


def test_W5_dryade_steals_without_triggering():
    s = make(
        3,
        hands={ANA: ["dryade-2", "lutin-5"], BOB: ["gnome-1"], CID: ["gnome-2"]},
        forests={CID: ["gnome-4", "korrigan-1"]},
    )
    assert rejected(s, ANA, creature("dryade-2", target_player=BOB, target_card="gnome-4")) == "not_in_forest"
    assert rejected(s, ANA, creature("dryade-2", target_player=CID)) == "missing_choice"
    s = settle(play(s, ANA, creature("dryade-2", target_player=CID, target_card="gnome-4")))
    s = play(s, CID, ReactPass())
    assert forest_of(s, ANA) == ["dryade-2", "gnome-4"] and forest_of(s, CID) == ["korrigan-1"]
    assert s.hands[ANA] == ("lutin-5",)  # the stolen Gnome's power does not act


def test_W6_elfe_copies_only_its_own_forest():
    s = make(
        3,
        hands={ANA: ["elfe-1", "gnome-3"], BOB: ["gnome-4"], CID: ["elfe-2"]},
        forests={ANA: ["dryade-1", "fee-4"], BOB: ["gnome-5", "korrigan-2"]},
    )
    fields = {"target_player": BOB, "target_card": "korrigan-2"}
    assert rejected(s, ANA, creature("elfe-1", copy="gnome-5", **fields)) == "copy_not_own"
    assert rejected(s, ANA, creature("elfe-1", copy="fee-4", **fields)) == "cannot_copy"
    assert rejected(s, ANA, creature("elfe-1", copy="elfe-1", **fields)) == "cannot_copy"
    t = settle(play(s, ANA, creature("elfe-1", copy="dryade-1", **fields)))
    t = play(t, BOB, ReactPass())
    assert forest_of(t, ANA) == ["dryade-1", "fee-4", "elfe-1", "korrigan-2"] and forest_of(t, BOB) == [
        "gnome-5"
    ]
    v = make(
        3, hands={CID: ["elfe-2"], ANA: ["gnome-1"], BOB: ["gnome-2"]}, forests={CID: ["fee-1"]}, active=CID
    )
    v = play(v, CID, creature("elfe-2"))
    assert v.window is None and forest_of(v, CID) == ["fee-1", "elfe-2"] and v.active == ANA


def _w7():
    s = make(
        4,
        hands={
            ANA: ["dryade-3", "fee-5", "gnome-1"],
            BOB: ["fee-2", "gnome-3", "gnome-4"],
            CID: ["fee-7", "gnome-5"],
            DEE: ["gnome-6", "gnome-7"],
        },
        forests={BOB: ["lutin-1", "gnome-2"]},
    )
    prefs = {CID: FantasyPrefs(react_pref="ask_always")}
    return s, prefs


def test_W7_a_chain_of_fees():
    s, prefs = _w7()
    s = play(s, ANA, creature("dryade-3", target_player=BOB, target_card="lutin-1"))
    assert s.window.eligible == (BOB, CID, DEE)
    s = settle(s, prefs)
    assert s.window.waiting == (BOB, CID)
    s = play(s, BOB, {"action": "react_fee", "card": "fee-2"})
    assert "fee-2" in forest_of(s, BOB) and s.window.eligible == (ANA, CID, DEE)
    s = settle(s, prefs)
    s = play(s, ANA, {"action": "react_fee", "card": "fee-5"})
    assert s.window.eligible == (BOB, CID, DEE)
    assert rejected(s, ANA, {"action": "react_fee", "card": "gnome-1"}) == "not_your_turn"
    s = settle(s, prefs)
    before_cid = s
    s = play(play(s, BOB, ReactPass()), CID, ReactPass())
    assert forest_of(s, ANA) == ["dryade-3", "fee-5", "lutin-1"]
    assert forest_of(s, BOB) == ["gnome-2", "fee-2"]
    assert s.active == BOB
    # variant: Cid answers with a third Fée; all pass: the Dryade is cancelled
    v = play(before_cid, CID, {"action": "react_fee", "card": "fee-7"})
    assert v.window.eligible == (ANA, BOB, DEE)
    v = settle(v, prefs)
    for seat in v.window.waiting:
        v = play(v, seat, ReactPass())
    assert forest_of(v, BOB) == ["lutin-1", "gnome-2", "fee-2"]
    assert "fee-5" in forest_of(v, ANA) and "fee-7" in forest_of(v, CID)


def _w8(**opts):
    used = ["dryade-3", "korrigan-5", "gnome-2", "gnome-8", "fee-1", "elfe-2", "farfadet-7"]
    pool = fill(31, used=used, races=("korrigan", "lutin", "elfe", "dryade", "farfadet", "fee"))
    forests = {ANA: pool[0:8], BOB: pool[8:15], CID: [*pool[15:23], "farfadet-7"], DEE: pool[23:31]}
    return make(
        4,
        hands={ANA: ["dryade-3"], BOB: ["korrigan-5", "gnome-2"], CID: ["gnome-8"], DEE: ["fee-1", "elfe-2"]},
        forests=forests,
        deck=[],
        active=CID,
        opts=options(**opts),
    )


def test_W8_the_final_round():
    s = _w8()
    s = settle(play(s, CID, creature("gnome-8")))
    assert s.final_round == (3, 0, 1) and s.active == DEE
    s = settle(play(s, DEE, creature("fee-1")))
    s = play(s, ANA, creature("dryade-3", target_player=CID, target_card="farfadet-7"))
    assert s.window.eligible == (BOB, DEE)
    s = settle(s)
    assert s.active == BOB
    s = play(s, BOB, creature("korrigan-5", target_player=DEE))
    assert s.window.eligible == (DEE,)
    s = settle(play(s, DEE, ReactPass()))
    assert s.end is not None and s.end.reason == "final_round"
    assert [scoring.score(s, p) for p in (ANA, BOB, CID, DEE)] == [10, 8, 9, 9]
    assert "elfe-2" in s.hands[BOB]
    assert GAME.result(s).winners == [ANA]
    v = _w8(final_round_anchor="complete_round")
    v = settle(play(v, CID, creature("gnome-8")))
    assert v.final_round == (3,)
    v = settle(play(v, DEE, creature("fee-1")))
    assert v.end is not None
    assert [scoring.score(v, p) for p in (ANA, BOB, CID, DEE)] == [8, 7, 10, 9]
    assert GAME.result(v).winners == [CID]


def _advance(s, *cards):
    """Each active player in turn lays the given no-power card (a Fée or a Homme)."""
    for card in cards:
        s = settle(play(s, s.active, creature(card)))
    return s


def test_W9_a_places_swap_and_turn_order():
    bob, carol, ted, alice = 0, 1, 2, 3
    hands = {
        bob: ["farfadet-3", "fee-1", "fee-2"],
        carol: ["fee-3", "fee-4"],
        ted: ["fee-5", "fee-6"],
        alice: ["fee-8"],
    }
    forests = {bob: ["gnome-1", "gnome-2"], carol: ["dryade-4", "lutin-5", "elfe-6", "fee-7"]}
    s0 = make(4, hands=hands, forests=forests, opts=EXP, deck=fill(10, used=[]))
    s = settle(play(s0, bob, creature("farfadet-3", target_player=carol)))
    s = play(s, carol, ReactPass())
    assert s.place_of[bob] == 1 and s.place_of[carol] == 0
    assert forest_of(s, bob) == ["dryade-4", "lutin-5", "elfe-6", "fee-7"]
    assert forest_of(s, carol) == ["gnome-1", "gnome-2", "farfadet-3"]
    assert s.turn_place == 1 and s.active == bob  # Bob plays again at once
    order = []
    for card in ("fee-1", "fee-5", "fee-8", "fee-3"):
        order.append(s.active)
        s = _advance(s, card)
    assert order == [bob, ted, alice, carol]
    v = settle(play(s0, bob, creature("farfadet-3", target_player=ted)))
    v = play(v, ted, ReactPass())
    assert v.place_of[bob] == 2 and v.place_of[ted] == 0
    order = []
    for card in ("fee-3", "fee-1", "fee-8", "fee-5"):
        order.append(v.active)
        v = _advance(v, card)
    assert order == [carol, bob, alice, ted]


def test_W10_secrets_stay_and_bieres_open_the_way():
    s = make(
        3,
        hands={ANA: ["farfadet-2", "farfadet-4", "biere-1"], BOB: ["secret-elfe"], CID: ["fee-2"]},
        forests={ANA: ["lutin-1", "lutin-2"], BOB: ["homme-1", "gnome-3", "gnome-4", "gnome-5"]},
        secrets={ANA: ["secret-lutin"]},
        opts=EXP,
        deck=fill(10, used=[]),
    )
    s = play(s, ANA, creature("farfadet-2", target_player=BOB))
    assert s.window is None and forest_of(s, ANA) == ["lutin-1", "lutin-2", "farfadet-2"]
    s = settle(play(settle(s), BOB, {"action": "play_secret", "card": "secret-elfe"}))  # nothing relevant
    s = _advance(s, "fee-2")
    assert s.active == ANA
    s = settle(
        play(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": ["homme-1"]},
        )
    )
    s = play(s, BOB, ReactPass())
    assert s.neutralised == ("homme-1",) and "biere-1" in s.out_of_play and s.step == "after_bieres"
    s = settle(play(s, ANA, creature("farfadet-4", target_player=BOB)))
    assert s.window.waiting == (BOB,)
    s = play(s, BOB, ReactPass())
    assert s.place_of[ANA] == 1 and s.place_of[BOB] == 0
    assert forest_of(s, ANA) == ["homme-1", "gnome-3", "gnome-4", "gnome-5"]
    assert forest_of(s, BOB) == ["lutin-1", "lutin-2", "farfadet-2", "farfadet-4"]
    assert s.secrets_of(BOB) == ("secret-lutin",)
    assert scoring.score(s, BOB) == 6 and scoring.score(s, ANA) == 4
    assert s.neutralised == () and s.protected(ANA)
    assert s.turn_place == 1 and s.active == ANA


def test_W11_hommes_stop_a_dryade_but_not_a_korrigan():
    s = make(
        3,
        hands={
            ANA: ["dryade-4", "korrigan-1", "fee-1"],
            BOB: ["gnome-5", "gnome-6", "gnome-7"],
            CID: ["fee-2"],
        },
        forests={BOB: ["homme-1", "gnome-2", "lutin-3"]},
        opts=EXP,
        deck=fill(10, used=[]),
    )
    assert (
        rejected(s, ANA, creature("dryade-4", target_player=BOB, target_card="lutin-3")) == "forest_protected"
    )
    t = play(s, ANA, creature("dryade-4", target_player=BOB))
    assert t.window is None and "dryade-4" in forest_of(t, ANA)
    k = settle(play(s, ANA, creature("korrigan-1", target_player=BOB)))
    k = play(k, BOB, ReactPass())
    assert len(k.hands[BOB]) == 1 + 1  # 3 -> 1, then Bob draws at his turn start
    assert len(k.hands[ANA]) == 4


def _w12(extra_ana=(), extra_bob=()):
    return make(
        3,
        hands={
            ANA: ["biere-1", "biere-2", "dryade-4", "ogre-1", *extra_ana],
            BOB: ["gnome-5", *extra_bob],
            CID: ["gnome-6"],
        },
        forests={BOB: ["homme-1", "homme-2", "gnome-2", "lutin-3"], CID: ["gnome-7"]},
        opts=EXP,
        deck=fill(10, used=[]),
    )


BATCH = {
    "action": "play_bieres",
    "cards": ["biere-1", "biere-2"],
    "target_player": BOB,
    "hommes": ["homme-1", "homme-2"],
}


def test_W12_bieres_then_a_dryade_in_one_turn():
    s = _w12()
    three = _w12(extra_ana=["biere-3"])
    assert rejected(three, ANA, {**BATCH, "cards": ["biere-1", "biere-2", "biere-3"]}) == "too_many_bieres"
    s = settle(play(s, ANA, BATCH))
    assert s.window.waiting == (BOB,)
    s = play(s, BOB, ReactPass())
    assert set(s.neutralised) == {"homme-1", "homme-2"} and {"biere-1", "biere-2"} <= set(s.out_of_play)
    assert rejected(s, ANA, {"action": "play_secret", "card": "ogre-1"}) == "wrong_step"
    assert rejected(s, ANA, {"action": "pass"}) == "wrong_step"
    assert (
        rejected(s, ANA, creature("dryade-4", target_player=CID, target_card="gnome-7")) == "biere_followup"
    )
    s = settle(play(s, ANA, creature("dryade-4", target_player=BOB, target_card="lutin-3")))
    s = play(s, BOB, ReactPass())
    assert "lutin-3" in forest_of(s, ANA)
    assert s.neutralised == () and s.protected(BOB) and forest_of(s, BOB) == ["homme-1", "homme-2", "gnome-2"]
    assert rejected(s, ANA, creature("ogre-1", target_player=BOB, target_card="homme-1")) == "not_your_turn"
    one = settle(play(_w12(), ANA, {**BATCH, "cards": ["biere-1"], "hommes": ["homme-1"]}))
    one = play(one, BOB, ReactPass())
    assert (
        rejected(one, ANA, creature("dryade-4", target_player=BOB, target_card="lutin-3"))
        == "forest_protected"
    )


def test_W13_one_fee_cancels_two_bieres():
    s = _w12(extra_bob=["fee-3"])
    s = play(s, ANA, BATCH)
    s = play(s, BOB, {"action": "react_fee", "card": "fee-3"})
    assert s.window.eligible == (ANA, CID)
    s = settle(s)
    assert s.window.waiting == (ANA,)
    s = play(s, ANA, ReactPass())
    assert {"biere-1", "biere-2"} <= set(s.out_of_play) and s.neutralised == ()
    assert forest_of(s, BOB) == ["homme-1", "homme-2", "gnome-2", "lutin-3", "fee-3"] and s.protected(BOB)
    assert s.step == "after_bieres" and s.active == ANA
    assert (
        rejected(s, ANA, creature("dryade-4", target_player=BOB, target_card="lutin-3")) == "forest_protected"
    )
    legal = GAME.legal_moves(s, ANA)
    assert rules.PlayCreature(card="ogre-1", target_player=BOB, target_card="homme-1") in legal
    assert rules.PlayCreature(card="dryade-4", target_player=BOB) in legal
    assert rules.EndTurn() in legal
    e = play(s, ANA, rules.EndTurn())
    assert e.active == BOB


def test_W14_garou_transforms_a_homme():
    s = make(
        3,
        hands={ANA: ["garou-1", "garou-2"], BOB: ["gnome-5"], CID: ["gnome-6"]},
        forests={ANA: ["gnome-1", "korrigan-2"], CID: ["homme-3", "homme-4", "elfe-5"]},
        opts=EXP,
        deck=fill(10, used=[]),
    )
    assert rules.garou_columns(rules._lay(s, ANA, "garou-1"), ANA, "garou-1") == [
        "gnome",
        "korrigan",
        "garou",
    ]
    base = {"target_card": "homme-3"}
    assert rejected(s, ANA, creature("garou-1", column="homme", **base)) == "bad_column"
    assert rejected(s, ANA, creature("garou-1", column="dryade", **base)) == "bad_column"
    assert rejected(s, ANA, creature("garou-1", column="gnome", target_card="elfe-5")) == "not_a_homme"
    assert rejected(s, ANA, creature("garou-1", column="gnome", target_player=BOB, **base)) == "not_in_forest"
    t = settle(play(s, ANA, creature("garou-1", column="gnome", **base)))
    t = play(t, CID, ReactPass())
    assert (
        forest_of(t, ANA) == ["gnome-1", "korrigan-2", "garou-1", "homme-3"] and t.race("homme-3") == "gnome"
    )
    col = next(c for c in GAME.view(t, None)["players"][ANA]["forest"]["columns"] if c["race"] == "gnome")
    assert [c["id"] for c in col["cards"]] == ["gnome-1", "homme-3"] and col["cards"][1]["was_homme"]
    assert forest_of(t, CID) == ["homme-4", "elfe-5"] and t.protected(CID)
    assert "homme-3" not in rules.hommes_of_opponents(t, BOB)
    v = make(3, hands={ANA: ["garou-2"], BOB: ["gnome-5"]}, forests={CID: ["elfe-5"]}, opts=EXP)
    assert rejected(v, ANA, creature("garou-2", column="gnome")) == "unexpected_choice"
    v = play(v, ANA, creature("garou-2"))
    assert v.window is None and forest_of(v, ANA) == ["garou-2"]


def test_W15_an_ogre():
    s = make(
        4,
        hands={ANA: ["ogre-1"], BOB: ["gnome-5"], CID: ["gnome-6"], DEE: ["gnome-7"]},
        forests={BOB: ["homme-1", "gnome-2", "gnome-3"], DEE: ["fee-1", "lutin-2"]},
        opts=EXP,
        deck=fill(10, used=[]),
    )
    assert (
        rejected(s, ANA, creature("ogre-1", target_player=BOB, target_card="gnome-2")) == "forest_protected"
    )
    t = settle(play(s, ANA, creature("ogre-1", target_player=BOB, target_card="homme-1")))
    t = play(t, BOB, ReactPass())
    assert "homme-1" in t.out_of_play and forest_of(t, BOB) == ["gnome-2", "gnome-3"] and not t.protected(BOB)
    d = settle(play(s, ANA, creature("ogre-1", target_player=DEE, target_card="fee-1")))
    d = play(d, DEE, ReactPass())
    assert "fee-1" in d.out_of_play and forest_of(d, DEE) == ["lutin-2"]


def test_W16_elfe_copies_an_ogre_and_is_cancelled():
    s = make(
        4,
        hands={ANA: ["elfe-3", "gnome-4"], BOB: ["gnome-5"], CID: ["gnome-6"], DEE: ["fee-4", "gnome-7"]},
        forests={ANA: ["ogre-2", "gnome-1"], DEE: ["fee-1", "lutin-2"]},
        opts=EXP,
        deck=fill(10, used=[]),
    )
    s = settle(play(s, ANA, creature("elfe-3", copy="ogre-2", target_player=DEE, target_card="lutin-2")))
    assert s.window.waiting == (DEE,)
    s = play(s, DEE, {"action": "react_fee", "card": "fee-4"})
    assert rules.affected(s) == (ANA,)
    s = settle(s)
    assert s.window.waiting == (ANA,)
    s = play(s, ANA, ReactPass())
    assert forest_of(s, ANA) == ["ogre-2", "gnome-1", "elfe-3"]
    assert forest_of(s, DEE) == ["fee-1", "lutin-2", "fee-4"]


def test_W17_secret_doubling_in_the_score():
    s = make(
        4,
        hands={ANA: ["gnome-8"]},
        forests={ANA: ["homme-1", "gnome-1", "gnome-4", "homme-3", "korrigan-2", "fee-1"]},
        secrets={ANA: ["secret-gnome", "secret-ogre"]},
        races={"homme-3": "gnome"},
        opts=EXP,
    )
    assert scoring.score(s, ANA) == 9
    lines = {ln.label: ln.points for ln in scoring.lines(s, ANA)}
    assert lines == {"Homme": 1, "Gnome": 6, "Korrigan": 1, "Fée": 1, "Ogre": 0}
    gnome = next(ln for ln in scoring.lines(s, ANA) if ln.label == "Gnome")
    assert gnome.detail.startswith("3 cards × 2 (Secret of the Gnomes)")


def test_W18_where_secrets_may_go():
    hands = {ANA: ["secret-gnome", "secret-dryade"], BOB: ["dryade-3", "ogre-1"], CID: ["gnome-6"]}
    s = make(3, hands=hands, forests={ANA: ["gnome-1"]}, opts=EXP, deck=fill(10, used=[]))
    t = play(s, ANA, {"action": "play_secret", "card": "secret-gnome"})
    assert t.window is None and t.secrets_of(ANA) == ("secret-gnome",)
    col = GAME.view(t, None)["players"][ANA]["forest"]["columns"][0]
    assert col["race"] == "gnome" and col["secret"] == "secret-gnome"
    assert t.active == BOB
    assert (
        rejected(t, BOB, creature("dryade-3", target_player=ANA, target_card="secret-gnome"))
        == "not_in_forest"
    )
    assert (
        rejected(t, BOB, creature("ogre-1", target_player=ANA, target_card="secret-gnome")) == "not_in_forest"
    )
    a = s.model_copy(update={"options": options(expansion=True, secret_placement="absent_only")})
    assert rejected(a, ANA, {"action": "play_secret", "card": "secret-gnome"}) == "secret_not_allowed"
    a = play(a, ANA, {"action": "play_secret", "card": "secret-dryade"})
    later = a.model_copy(update={"forests": ((*a.forests[0], "dryade-1", "dryade-2"), *a.forests[1:])})
    assert scoring.score(later, ANA) == 1 + 2 + 2


def test_W19_replenishment_after_the_deck_runs_out():
    s = make(
        4,
        hands={
            ANA: ["gnome-7"],
            BOB: ["lutin-1", "lutin-2", "lutin-3"],
            CID: ["elfe-1", "elfe-2"],
            DEE: ["fee-1"],
        },
        deck=[],
        opts=EXP,
    )
    s = play(s, ANA, creature("gnome-7"))
    assert (
        len(s.hands[BOB]) == 2
        and len(s.hands[CID]) == 1
        and len(s.hands[ANA]) == 2
        and len(s.hands[DEE]) == 1
    )
    assert {c.split("-")[0] for c in s.hands[ANA]} == {"lutin", "elfe"}
    assert s.active == BOB


def test_W20_the_game_ends_at_once_and_the_tie_break():
    pool = fill(41, used=["homme-5"], races=("korrigan", "lutin", "elfe", "dryade", "farfadet", "fee"))
    forests = {ANA: pool[0:11], BOB: pool[11:21], CID: pool[21:30], DEE: pool[30:40]}
    hands = {ANA: ["gnome-1"], BOB: ["homme-5"], CID: ["gnome-2"], DEE: ["gnome-3"]}
    s = make(4, hands=hands, forests=forests, deck=[], active=BOB, opts=EXP)
    e = play(s, BOB, creature("homme-5"))
    assert e.end is not None and e.end.reason == "replenish_failed" and e.end.seat == BOB
    assert [scoring.score(e, p) for p in range(4)] == [11, 11, 9, 10]
    r = GAME.result(e)
    assert r.winners == [BOB]
    assert {x.seat: x.rank for x in r.seats} == {BOB: 1, ANA: 2, DEE: 3, CID: 4}
    shared = play(
        s.model_copy(update={"options": options(expansion=True, tiebreak="shared")}), BOB, creature("homme-5")
    )
    assert GAME.result(shared).winners == [ANA, BOB]


def test_W21_a_reaction_window_reveals_nothing():
    hands = {
        ANA: ["korrigan-4", "gnome-1"],
        BOB: ["gnome-2", "gnome-3", "lutin-1"],
        CID: ["fee-8", "gnome-4"],
        DEE: [],
    }
    s = make(4, hands=hands, opts=EXP, deck=fill(10, used=[]))
    prefs = {CID: FantasyPrefs(react_pref="ask_always")}
    w = settle(play(s, ANA, creature("korrigan-4", target_player=BOB)), prefs)
    assert w.window.eligible == (BOB, CID) and w.window.waiting == (BOB, CID)
    vb, vc = GAME.view(w, BOB), GAME.view(w, CID)
    assert vb["prompt"] == vc["prompt"] == vb["window"]["prompt"]
    assert (
        vb["prompt"]["text"]
        == "%(player)s's Korrigan will take %(count)s cards from %(target)s. Play a Fée or pass."
    )
    assert vb["prompt"]["params"] == {"player": {"seat": ANA}, "target": {"seat": BOB}, "count": 2}
    assert GAME.view(w, DEE)["window"]["waiting"] == [BOB, CID]
    assert rules.ReactFee(card="fee-8") in GAME.legal_moves(w, CID)
    assert GAME.legal_moves(w, BOB) == [ReactPass()]
    done = play(play(w, BOB, ReactPass()), CID, ReactPass())
    assert len(done.hands[ANA]) == 1 + 2
    assert not any("fee-8" in str(e) for e in GAME.view(done, None)["log"])
    never = {BOB: FantasyPrefs(react_pref="never"), **prefs}
    assert auto_move(w, BOB, never[BOB]) == ReactPass()
    timed = w.model_copy(update={"options": options(expansion=True, reaction_timeout_s=60)})
    t1 = GAME.timeout(timed)
    assert t1.after_seconds == 60 and t1.seat == BOB and t1.move == ReactPass()
    after_bob = play(timed, BOB, ReactPass())
    t2 = GAME.timeout(after_bob)
    assert t2.key == t1.key and t2.seat == CID


def test_W22_elfe_copies_a_farfadet_and_its_player_plays_again():
    s = make(
        2,
        hands={ANA: ["elfe-6", "fee-1"], BOB: ["gnome-7"]},
        forests={ANA: ["farfadet-1", "gnome-2"], BOB: ["lutin-3", "lutin-4", "dryade-5"]},
        secrets={BOB: ["secret-lutin"]},
        opts=EXP,
        deck=fill(10, used=[]),
    )
    s = settle(play(s, ANA, creature("elfe-6", copy="farfadet-1", target_player=BOB)))
    s = play(s, BOB, ReactPass())
    assert s.place_of[ANA] == 1 and forest_of(s, ANA) == ["lutin-3", "lutin-4", "dryade-5"]
    assert scoring.score(s, ANA) == 5 and forest_of(s, BOB) == ["farfadet-1", "gnome-2", "elfe-6"]
    assert s.turn_place == 1 and s.active == ANA


def test_W23_own_hommes_do_not_stop_your_farfadet():
    def start(**kw):
        return make(
            3,
            hands={ANA: ["farfadet-2"], BOB: ["gnome-5"], CID: ["gnome-6"]},
            forests={ANA: ["homme-1", "gnome-1"], BOB: ["lutin-1", "lutin-2", "lutin-3"]},
            opts=options(expansion=True, **kw),
            deck=fill(10, used=[]),
        )

    s = settle(play(start(), ANA, creature("farfadet-2", target_player=BOB)))
    s = play(s, BOB, ReactPass())
    assert forest_of(s, ANA) == ["lutin-1", "lutin-2", "lutin-3"]
    assert forest_of(s, BOB) == ["homme-1", "gnome-1", "farfadet-2"] and s.protected(BOB)
    v = play(start(hommes_block_own=True), ANA, creature("farfadet-2", target_player=BOB))
    assert v.window is None and v.place_of[ANA] == 0


def test_W24_rejected_moves():
    s = make(
        4,
        hands={
            ANA: ["gnome-1", "biere-1", "biere-2"],
            BOB: ["gnome-2"],
            CID: ["dryade-2", "gnome-3"],
            DEE: ["gnome-4"],
        },
        forests={BOB: ["homme-1", "homme-2"]},
        opts=EXP,
        deck=fill(10, used=[]),
    )
    assert rejected(s, BOB, creature("gnome-2")) == "not_your_turn"
    assert rejected(s, ANA, {"action": "pass"}) == "must_play"
    assert (
        rejected(s, ANA, {"action": "play_bieres", "cards": ["biere-1", "biere-2"], "target_player": DEE})
        == "too_many_bieres"
    )
    assert rejected(s, ANA, {"action": "end_turn"}) == "wrong_step"
    twice = {
        "action": "play_bieres",
        "cards": ["biere-1", "biere-2"],
        "target_player": BOB,
        "hommes": ["homme-1", "homme-1"],
    }
    assert rejected(s, ANA, twice) == "bad_hommes"
    one = play(s, ANA, {"action": "play_bieres", "cards": ["biere-1"], "target_player": DEE})
    assert one.window is None and "biere-1" in one.out_of_play and one.active == BOB
    w = play(s, ANA, creature("gnome-1"))
    assert rejected(w, CID, {"action": "react_fee", "card": "dryade-2"}) == "not_a_fee"
    k = make(
        2,
        hands={ANA: ["korrigan-1"], BOB: ["gnome-1", "gnome-2", "gnome-3", "gnome-4"]},
        opts=options(korrigan_take="victim_chooses"),
    )
    k = play(play(k, ANA, creature("korrigan-1", target_player=BOB)), BOB, ReactPass())
    assert k.decision is not None and k.decision.seat == BOB
    assert rejected(k, BOB, {"action": "choose_cards", "cards": ["gnome-1"]}) == "bad_choice"


def test_W25_stalemate():
    s = make(
        2,
        hands={ANA: ["secret-gnome"], BOB: ["secret-elfe", "secret-fee"]},
        forests={ANA: ["gnome-1"], BOB: ["elfe-2", "fee-3"]},
        deck=[],
        opts=options(expansion=True, secret_placement="absent_only"),
    )
    assert GAME.legal_moves(s, ANA) == [rules.Pass()]
    s = play(s, ANA, rules.Pass())
    assert s.idle_turns == 1 and s.end is None and s.active == BOB
    s = play(s, BOB, rules.Pass())
    assert s.end is not None and s.end.reason == "stalemate"
    assert "stalemate" in GAME.result(s).note
