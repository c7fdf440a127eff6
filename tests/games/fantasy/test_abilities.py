"""Card effects C0-C13."""

from __future__ import annotations

from app.games.fantasy import GAME, rules, scoring
from app.games.fantasy.rules import ChooseCards, PlayCreature, ReactPass
from tests.games.fantasy.helpers import (
    ANA,
    BOB,
    CID,
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


def test_C0_1_a_required_target_is_required_even_when_nothing_can_apply():
    s = make(2, hands={ANA: ["korrigan-1"], BOB: []}, deck=DECK)
    assert rejected(s, ANA, creature("korrigan-1")) == "missing_choice"
    assert rejected(s, ANA, creature("korrigan-1", target_player=ANA)) == "bad_target"
    assert play(s, ANA, creature("korrigan-1", target_player=BOB)).window is None


def test_C0_2_protection_touches_forests_not_hands():
    s = make(
        3,
        hands={
            ANA: ["dryade-1", "farfadet-1", "ogre-1", "lutin-1", "korrigan-1", "gnome-1"],
            BOB: ["fee-9", "elfe-1"],
        },
        forests={BOB: ["homme-1", "gnome-2"]},
        opts=EXP,
        deck=DECK,
    )
    assert not rules.can_apply(rules._lay(s, ANA, "dryade-1"), ANA, "dryade", BOB, None)
    assert not rules.can_apply(s, ANA, "farfadet", BOB, None)
    for race in ("ogre", "lutin", "korrigan", "gnome", "garou"):
        assert (
            rules.can_apply(
                s.model_copy(update={"forests": (("gnome-5",), *s.forests[1:])}), ANA, race, BOB, None
            )
            or race == "garou"
        )
    assert (
        rejected(s, ANA, creature("ogre-1", target_player=BOB, target_card="gnome-2")) == "forest_protected"
    )
    own = make(
        3, hands={ANA: ["farfadet-1"]}, forests={ANA: ["homme-1"], BOB: ["gnome-2"]}, opts=EXP, deck=DECK
    )
    assert rules.can_apply(own, ANA, "farfadet", BOB, None)
    blocked = own.model_copy(update={"options": options(expansion=True, hommes_block_own=True)})
    assert not rules.can_apply(blocked, ANA, "farfadet", BOB, None)


def test_C0_3_neutralised_hommes_do_not_protect():
    s = make(
        3,
        hands={ANA: ["dryade-1"]},
        forests={BOB: ["homme-1", "gnome-2"]},
        opts=EXP,
        neutralised=("homme-1",),
        deck=DECK,
    )
    assert not s.protected(BOB)
    t = settle(play(s, ANA, creature("dryade-1", target_player=BOB, target_card="homme-1")))
    t = play(t, BOB, ReactPass()) if t.window else t
    assert "homme-1" in forest_of(t, ANA) and t.neutralised == ()  # awake again, now protecting Ana


def test_C0_4_hand_sizes_are_read_again_at_resolution():
    s = make(
        3,
        hands={ANA: ["korrigan-1", "gnome-1"], BOB: ["fee-1", "gnome-2"], CID: ["fee-2", "gnome-3"]},
        deck=[],
    )
    s = play(s, ANA, creature("korrigan-1", target_player=BOB))
    s = play(s, BOB, {"action": "react_fee", "card": "fee-1"})
    s = play(s, CID, {"action": "react_fee", "card": "fee-2"})  # cancels Bob's Fée: the Korrigan acts
    s = pass_all(s)
    assert s.hands[BOB] == () and "gnome-2" in s.hands[ANA]  # only 1 card was left to take


def test_C0_5_abilities_are_mandatory():
    s = make(2, hands={ANA: ["dryade-1"], BOB: ["gnome-9"]}, forests={BOB: ["gnome-2"]}, deck=DECK)
    assert rejected(s, ANA, creature("dryade-1", target_player=BOB)) == "missing_choice"


def test_C1_gnome_draws_two_or_what_remains():
    s = make(2, hands={ANA: ["gnome-1"], BOB: ["x-1"]}, deck=["elfe-1"])
    s = pass_all(play(s, ANA, creature("gnome-1")))
    assert s.hands[ANA] == ("elfe-1",) and s.deck == ()


def test_C2_korrigan_random_victim_and_actor_choose():
    hands = {ANA: ["korrigan-1", "gnome-1"], BOB: ["elfe-1", "elfe-2", "elfe-3"], CID: ["gnome-3"]}
    r = pass_all(play(make(3, hands=hands, deck=DECK), ANA, creature("korrigan-1", target_player=BOB)))
    assert len(r.hands[ANA]) == 3 and len(r.hands[BOB]) == 1 + 1
    v = pass_all(
        play(
            make(3, hands=hands, deck=DECK, opts=options(korrigan_take="victim_chooses")),
            ANA,
            creature("korrigan-1", target_player=BOB),
        )
    )
    assert v.decision.seat == BOB and v.decision.count == 2
    assert GAME.view(v, BOB)["decision"]["cards"] == ["elfe-1", "elfe-2", "elfe-3"]
    assert GAME.view(v, ANA)["decision"]["cards"] is None
    assert len(GAME.legal_moves(v, BOB)) == 3
    v = play(v, BOB, ChooseCards(cards=("elfe-1", "elfe-3")))
    assert "elfe-1" in v.hands[ANA] and "elfe-3" in v.hands[ANA] and v.active == BOB
    a = pass_all(
        play(
            make(3, hands=hands, deck=DECK, opts=options(korrigan_take="actor_chooses")),
            ANA,
            creature("korrigan-1", target_player=BOB),
        )
    )
    assert a.decision.seat == ANA
    assert GAME.view(a, ANA)["decision"]["cards"] == [
        "elfe-1",
        "elfe-2",
        "elfe-3",
    ]  # during the decision only
    assert "elfe-2" not in GAME.hidden_from(a, ANA).values
    assert GAME.view(a, CID)["decision"]["cards"] is None
    a = play(a, ANA, ChooseCards(cards=("elfe-2", "elfe-3")))
    assert "elfe-1" in GAME.hidden_from(a, ANA).values  # after it, Bob's hand is hidden again
    assert a.hands[ANA] == ("elfe-2", "elfe-3", "gnome-1")


def test_C3_lutin_cannot_apply_only_when_both_hands_are_empty():
    s = make(2, hands={ANA: ["lutin-1"], BOB: []}, deck=DECK)
    assert play(s, ANA, creature("lutin-1", target_player=BOB)).window is None
    t = make(2, hands={ANA: ["lutin-1", "gnome-1"], BOB: []}, deck=DECK)
    t = play(t, ANA, creature("lutin-1", target_player=BOB))
    assert t.window is None  # Bob cannot answer (empty hand): it takes effect at once
    assert t.hands[BOB][:1] == ("gnome-1",) or "gnome-1" in t.hands[BOB]


def test_C4_farfadet_forests_mode_secrets_stay():
    s = make(
        2,
        hands={ANA: ["farfadet-1", "gnome-9"], BOB: ["gnome-8"]},
        forests={ANA: ["gnome-1"], BOB: ["lutin-1", "lutin-2"]},
        secrets={ANA: ["secret-lutin"]},
        opts=options(expansion=True, farfadet_mode="forests"),
        deck=DECK,
    )
    s = pass_all(play(s, ANA, creature("farfadet-1", target_player=BOB)))
    assert forest_of(s, ANA) == ["lutin-1", "lutin-2"] and s.secrets_of(ANA) == ("secret-lutin",)
    assert s.place_of == (0, 1) and scoring.score(s, ANA) == 4


def test_C5_farfadet_places_mode_hands_travel_forests_stay():
    s = make(
        3,
        hands={ANA: ["farfadet-1", "gnome-9"], BOB: ["gnome-8"]},
        forests={ANA: ["gnome-1"], BOB: ["lutin-1"]},
        opts=EXP,
        deck=DECK,
    )
    s = pass_all(play(s, ANA, creature("farfadet-1", target_player=BOB)))
    assert s.occupant[:2] == (BOB, ANA) and "gnome-9" in s.hands[ANA] and len(s.hands[ANA]) == 2
    assert forest_of(s, BOB) == ["gnome-1", "farfadet-1"] and s.active == ANA and s.turn_place == 1


def test_C6_dryade_stolen_homme_stays_neutralised_and_secrets_cannot_be_named():
    s = make(
        3,
        hands={ANA: ["dryade-1", "gnome-9"], BOB: ["gnome-8"]},
        forests={BOB: ["homme-1", "gnome-2"]},
        secrets={BOB: ["secret-gnome"]},
        neutralised=("homme-1",),
        opts=EXP,
        deck=DECK,
    )
    assert (
        rejected(s, ANA, creature("dryade-1", target_player=BOB, target_card="secret-gnome"))
        == "not_in_forest"
    )
    t = play(s, ANA, creature("dryade-1", target_player=BOB, target_card="homme-1"))
    assert t.window is not None
    t = pass_all(t)
    assert forest_of(t, ANA) == ["dryade-1", "homme-1"]
    empty = make(2, hands={ANA: ["dryade-1"]}, deck=DECK)
    assert (
        rejected(empty, ANA, creature("dryade-1", target_player=BOB, target_card="gnome-1"))
        == "not_in_forest"
    )


def test_C7_elfe_scope_any_and_copied_garou_column():
    s = make(
        3,
        hands={ANA: ["elfe-1", "gnome-9"], BOB: ["gnome-8"]},
        forests={BOB: ["dryade-2", "lutin-1"], CID: ["homme-1"]},
        opts=options(expansion=True, elfe_copy_scope="any"),
        deck=DECK,
    )
    m = PlayCreature(card="elfe-1", copy_card="dryade-2", target_player=BOB, target_card="lutin-1")
    assert m in GAME.legal_moves(s, ANA)
    t = pass_all(play(s, ANA, m))
    assert forest_of(t, ANA) == ["elfe-1", "lutin-1"] and "dryade-2" in forest_of(t, BOB)
    g = make(3, hands={ANA: ["elfe-1"]}, forests={ANA: ["garou-1"], CID: ["homme-1"]}, opts=EXP, deck=DECK)
    assert rules.garou_columns(rules._lay(g, ANA, "elfe-1"), ANA, "elfe-1") == ["elfe", "garou"]
    g = pass_all(play(g, ANA, creature("elfe-1", copy="garou-1", target_card="homme-1", column="elfe")))
    assert g.race("homme-1") == "elfe" and "homme-1" in forest_of(g, ANA)
    assert (
        rejected(
            make(2, hands={ANA: ["elfe-1"]}, forests={ANA: ["gnome-1"]}, deck=DECK), ANA, creature("elfe-1")
        )
        == "missing_choice"
    )


def test_C8_fee_laid_on_its_owners_turn_has_no_window():
    s = make(3, hands={ANA: ["fee-1"], BOB: ["fee-2"]}, deck=DECK)
    t = play(s, ANA, creature("fee-1"))
    assert t.window is None and forest_of(t, ANA) == ["fee-1"] and t.active == BOB
    assert rejected(s, ANA, creature("fee-1", target_player=BOB)) == "unexpected_choice"


def test_C9_homme_protects_whoever_occupies_its_place():
    s = make(3, hands={ANA: ["homme-1"], BOB: ["fee-2"]}, opts=EXP, deck=DECK)
    t = play(s, ANA, creature("homme-1"))
    assert t.window is None and t.protected(ANA)
    moved = t.model_copy(update={"occupant": (1, 0, 2), "place_of": (1, 0, 2)})
    assert moved.protected(BOB) and not moved.protected(ANA)


def test_C10_ogre_eats_a_neutralised_homme_and_cannot_apply_on_an_empty_forest():
    s = make(
        3,
        hands={ANA: ["ogre-1", "gnome-9"], BOB: ["gnome-8"]},
        forests={BOB: ["homme-1", "gnome-2"]},
        neutralised=("homme-1",),
        opts=EXP,
        deck=DECK,
    )
    t = pass_all(play(s, ANA, creature("ogre-1", target_player=BOB, target_card="gnome-2")))
    assert "gnome-2" in t.out_of_play
    e = make(3, hands={ANA: ["ogre-1"]}, opts=EXP, deck=DECK)
    assert rejected(e, ANA, creature("ogre-1", target_player=BOB, target_card="gnome-2")) == "not_in_forest"
    assert play(e, ANA, creature("ogre-1", target_player=BOB)).window is None


def test_C11_garou_requires_a_homme_and_a_column():
    s = make(3, hands={ANA: ["garou-1"], BOB: ["gnome-8"]}, forests={BOB: ["homme-1"]}, opts=EXP, deck=DECK)
    assert rejected(s, ANA, creature("garou-1")) == "missing_choice"
    assert rejected(s, ANA, creature("garou-1", target_card="homme-1")) == "missing_choice"
    legal = GAME.legal_moves(s, ANA)
    assert legal == [PlayCreature(card="garou-1", target_player=BOB, target_card="homme-1", column="garou")]
    t = pass_all(play(s, ANA, legal[0]))
    assert t.race("homme-1") == "garou" and not t.protected(ANA)


def test_C12_bieres_one_per_homme_and_a_single_dead_biere():
    s = make(
        3,
        hands={ANA: ["biere-1", "biere-2", "gnome-1"], BOB: ["gnome-8"]},
        forests={BOB: ["homme-1", "homme-2"]},
        opts=EXP,
        deck=DECK,
    )
    assert (
        rejected(s, ANA, {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": []})
        == "bad_hommes"
    )
    assert (
        rejected(s, ANA, {"action": "play_bieres", "cards": ["gnome-1"], "target_player": BOB})
        == "wrong_card_kind"
    )
    assert rejected(s, ANA, {"action": "play_bieres", "cards": [], "target_player": BOB}) == "missing_choice"
    t = pass_all(
        play(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-2"], "target_player": BOB, "hommes": ["homme-2"]},
        )
    )
    assert t.neutralised == ("homme-2",) and t.protected(BOB)  # one of two: still protected
    dead = play(s, ANA, {"action": "play_bieres", "cards": ["biere-1"], "target_player": CID})
    assert dead.window is None and dead.active == BOB and "biere-1" in dead.out_of_play
    bieres = [m for m in GAME.legal_moves(s, ANA) if isinstance(m, rules.PlayBieres)]
    assert len([m for m in bieres if m.target_player == BOB]) == 2 * 2 + 1


def test_C13_secrets_are_not_creatures():
    s = make(2, hands={ANA: ["secret-ogre", "elfe-1"]}, forests={ANA: ["gnome-1"]}, opts=EXP, deck=DECK)
    t = play(s, ANA, {"action": "play_secret", "card": "secret-ogre"})
    assert t.window is None and GAME.view(t, None)["players"][ANA]["forest"]["size"] == 1
    assert rejected(s, ANA, {"action": "play_secret", "card": "elfe-1"}) == "wrong_card_kind"
    assert rejected(s, ANA, creature("secret-ogre")) == "wrong_card_kind"
    c = make(
        2,
        hands={ANA: ["elfe-1"]},
        forests={ANA: ["gnome-1"]},
        secrets={ANA: ["secret-ogre"]},
        opts=EXP,
        deck=DECK,
    )
    assert rejected(c, ANA, creature("elfe-1", copy="secret-ogre")) == "cannot_copy"
