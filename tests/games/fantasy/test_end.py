"""End of the game E1-E8."""

from __future__ import annotations

from app.games.fantasy import GAME, rules, scoring
from app.games.fantasy.rules import ChooseCards, Pass
from tests.games.fantasy.helpers import ANA, BOB, CID, DEE, creature, make, options, pass_all, play, settle

EXP = options(expansion=True)


def test_E1_end_rule_auto():
    assert options().ending == "final_round" and EXP.ending == "replenish"
    assert options(expansion=True, end_rule="final_round").ending == "final_round"
    assert options(end_rule="replenish").ending == "replenish"


def test_E2_deck_exhausted_no_draw_and_no_gnome():
    s = make(3, hands={ANA: ["gnome-1", "fee-1"], BOB: ["fee-2"], CID: ["fee-3"]}, deck=[])
    t = play(s, ANA, creature("gnome-1"))
    assert t.window is None and t.hands[BOB] == ("fee-2",)


def test_E3_final_round_triggered_by_any_empty_hand_and_only_once():
    s = make(
        3,
        hands={ANA: ["korrigan-1", "fee-1"], BOB: ["gnome-2", "gnome-3"], CID: ["fee-3"]},
        deck=["elfe-8"],
    )
    s = pass_all(play(s, ANA, creature("korrigan-1", target_player=BOB)))  # Bob emptied, deck not yet
    assert s.final_round is None and s.active == BOB and s.deck == ()
    s = play(s, BOB, creature("elfe-8"))  # Bob's last card; deck empty
    assert s.final_round == (2, 0) and s.final_round_fired
    s = play(s, CID, creature("fee-3"))
    assert s.final_round == (0,) and s.active == ANA
    s = settle(play(s, ANA, creature("fee-1")))
    assert s.end is not None and s.end.reason == "final_round"
    c = make(
        3,
        hands={CID: ["fee-3"], ANA: ["fee-1"], BOB: ["fee-2"]},
        deck=[],
        active=CID,
        opts=options(final_round_anchor="complete_round", first_player="place0"),
    )
    c = play(c, CID, creature("fee-3"))  # triggered at the place just before first_place: ends at once
    assert c.end is not None


def test_E4_replenishment_order_and_giver_chooses():
    hands = {ANA: ["gnome-7"], BOB: ["lutin-1", "lutin-2"], CID: [], DEE: ["elfe-1", "elfe-2", "elfe-3"]}
    s = make(4, hands=hands, deck=[], opts=options(expansion=True, replenish_take="giver_chooses"))
    s = play(s, ANA, creature("gnome-7"))
    # Ana first (the active player), givers clockwise from her place: Bob then Dee
    assert s.decision.seat == BOB and s.decision.receiver == ANA and s.decision.count == 1
    s = play(s, BOB, ChooseCards(cards=("lutin-2",)))
    assert s.decision.seat == DEE
    s = play(s, DEE, ChooseCards(cards=("elfe-3",)))
    # then Cid, whose hand was already empty: Dee still holds 2
    assert s.decision.seat == DEE and s.decision.receiver == CID
    last = [e for e in s.log if e["private"]][-1]
    assert set(last["private"]) == {str(ANA), str(DEE)} and "elfe-3" not in str(last["params"])
    s = play(s, DEE, ChooseCards(cards=("elfe-1",)))
    assert s.decision.seat == ANA  # Ana now holds 2: clockwise from Cid's place, Dee then Ana give
    s = play(s, ANA, ChooseCards(cards=("lutin-2",)))
    assert s.hands[ANA] == ("elfe-3",) and s.hands[CID] == ("elfe-1", "lutin-2") and s.active == BOB
    # before the deck is empty nothing happens
    t = make(4, hands={ANA: ["fee-1"], BOB: ["lutin-1", "lutin-2"]}, deck=["elfe-8"], opts=EXP)
    t = play(t, ANA, creature("fee-1"))
    assert t.hands[ANA] == () and t.hands[BOB] == ("elfe-8", "lutin-1", "lutin-2")


def test_E5_stalemate_after_a_full_round_of_passes():
    s = make(
        3,
        hands={ANA: ["fee-1"], BOB: ["fee-2"], CID: ["fee-3"]},
        deck=[],
        opts=options(expansion=True, must_play=False),
    )
    for seat in (ANA, BOB):
        s = play(s, seat, Pass())
    assert s.idle_turns == 2 and s.end is None
    s = play(s, CID, Pass())
    assert s.end.reason == "stalemate"


def test_E6_each_player_scores_the_forest_at_his_place():
    s = make(
        2,
        forests={ANA: ["gnome-1", "gnome-2", "lutin-1"], BOB: ["elfe-1"]},
        secrets={ANA: ["secret-gnome"]},
        opts=EXP,
    )
    assert scoring.score(s, ANA) == 2 + 2 + 1 and scoring.score(s, BOB) == 1
    # after a places swap, what lies at the place counts, whoever laid it
    moved = s.model_copy(update={"occupant": (1, 0), "place_of": (1, 0)})
    assert scoring.score(moved, BOB) == 5 and scoring.score(moved, ANA) == 1


def test_E7_ties_fewest_cards_then_shared():
    s = make(
        3,
        hands={ANA: ["x-1"], BOB: ["x-2"], CID: []},
        forests={ANA: ["gnome-1"], BOB: ["gnome-2"]},
        end=rules.End(reason="stalemate"),
    )
    r = GAME.result(s)
    assert r.winners == [ANA, BOB] and "share" in r.note
    s2 = s.model_copy(update={"hands": (("x-1",), ("x-2", "x-3"), ())})
    r2 = GAME.result(s2)
    assert r2.winners == [ANA] and "fewest cards" in r2.note
    shared = s2.model_copy(update={"options": options(tiebreak="shared")})
    assert GAME.result(shared).winners == [ANA, BOB]


def test_E8_result_breakdown():
    s = make(
        2,
        hands={ANA: ["x-1"]},
        forests={ANA: ["homme-1", "gnome-1", "homme-3"], BOB: ["lutin-1"]},
        secrets={ANA: ["secret-gnome", "secret-ogre"]},
        races={"homme-3": "gnome"},
        occupant=(1, 0),
        opts=EXP,
        end=rules.End(reason="replenish_failed", seat=BOB),
    )
    r = GAME.result(s)
    assert [x.seat for x in r.seats] == [BOB, ANA]  # place order
    ana = next(x for x in r.seats if x.seat == ANA)
    assert ana.score == 5 and [(ln.label, ln.points) for ln in ana.lines] == [
        ("Homme", 1),
        ("Gnome", 4),
        ("Ogre", 0),
    ]
    assert "homme-3" in ana.lines[1].detail and ana.lines[1].extra["messages"]
    assert "replenish" in r.note
    assert GAME.result(make(2)) is None
    dumped = r.dump()
    assert dumped["winners"] == [ANA]
