"""The decisions D1-D26 of the spec (§9): each default, and its option where there is one."""

from __future__ import annotations

import random

from app.games.fantasy import GAME, rules, scoring
from app.games.fantasy.rules import EndTurn, Pass, PlayCreature, ReactFee, ReactPass
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


def _farfadet(opts):
    s = make(
        2,
        hands={ANA: ["farfadet-1", "fee-1"], BOB: ["fee-2"]},
        forests={ANA: ["gnome-1"], BOB: ["lutin-1"]},
        opts=opts,
        deck=DECK,
    )
    return pass_all(play(s, ANA, creature("farfadet-1", target_player=BOB)))


def test_D1_farfadet_swaps_forests_without_and_places_with_the_expansion():
    assert _farfadet(options()).place_of == (0, 1) and forest_of(_farfadet(options()), ANA) == ["lutin-1"]
    assert _farfadet(EXP).place_of == (1, 0)
    assert _farfadet(options(farfadet_mode="places")).place_of == (1, 0)
    assert _farfadet(options(expansion=True, farfadet_mode="forests")).place_of == (0, 1)


def test_D2_a_secret_may_be_laid_any_time_by_default():
    s = make(2, hands={ANA: ["secret-gnome"]}, forests={ANA: ["gnome-1"]}, opts=EXP, deck=DECK)
    assert play(s, ANA, {"action": "play_secret", "card": "secret-gnome"}).secrets_of(ANA) == (
        "secret-gnome",
    )
    a = s.model_copy(update={"options": options(expansion=True, secret_placement="absent_only")})
    assert rejected(a, ANA, {"action": "play_secret", "card": "secret-gnome"}) == "secret_not_allowed"


def test_D3_secrets_never_move():
    for opts in (options(expansion=True, farfadet_mode="forests"), EXP):
        s = make(
            2,
            hands={ANA: ["farfadet-1", "fee-1"], BOB: ["fee-2"]},
            secrets={ANA: ["secret-fee"]},
            forests={BOB: ["lutin-1"]},
            opts=opts,
            deck=DECK,
        )
        s = pass_all(play(s, ANA, creature("farfadet-1", target_player=BOB)))
        assert s.secrets == (("secret-fee",), ())


def test_D4_only_opponents_hommes_stop_an_ability():
    s = make(
        2,
        hands={ANA: ["farfadet-1", "fee-1"], BOB: ["fee-2"]},
        forests={ANA: ["homme-1"], BOB: ["lutin-1"]},
        opts=EXP,
        deck=DECK,
    )
    assert play(s, ANA, creature("farfadet-1", target_player=BOB)).window is not None
    b = s.model_copy(update={"options": options(expansion=True, hommes_block_own=True)})
    assert play(b, ANA, creature("farfadet-1", target_player=BOB)).window is None


def test_D5_which_abilities_hommes_stop():
    s = make(
        3,
        hands={ANA: ["gnome-1"], BOB: ["fee-2", "fee-3"]},
        forests={BOB: ["homme-1", "lutin-1"]},
        opts=EXP,
        deck=DECK,
    )
    stopped = {r for r in ("dryade", "farfadet") if not rules.can_apply(s, ANA, r, BOB, None)}
    assert stopped == {"dryade", "farfadet"}
    for race in ("korrigan", "lutin", "gnome", "ogre", "garou"):
        assert rules.can_apply(s, ANA, race, BOB, None), race
    assert (
        rejected(
            s.model_copy(update={"hands": (("ogre-1",), *s.hands[1:])}),
            ANA,
            creature("ogre-1", target_player=BOB, target_card="lutin-1"),
        )
        == "forest_protected"
    )


def test_D6_bieres_last_until_the_end_of_the_turn():
    s = make(
        3, hands={ANA: ["biere-1", "fee-1"], BOB: ["fee-2"]}, forests={BOB: ["homme-1"]}, opts=EXP, deck=DECK
    )
    s = pass_all(
        play(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": ["homme-1"]},
        )
    )
    assert not s.protected(BOB)
    s = play(s, ANA, EndTurn())
    assert s.protected(BOB)


def test_D7_one_batch_per_turn_at_one_opponent():
    s = make(
        3,
        hands={ANA: ["biere-1", "biere-2"], BOB: ["fee-2"]},
        forests={BOB: ["homme-1"], CID: ["homme-2"]},
        opts=EXP,
        deck=DECK,
    )
    assert (
        rejected(
            s,
            ANA,
            {
                "action": "play_bieres",
                "cards": ["biere-1", "biere-2"],
                "target_player": BOB,
                "hommes": ["homme-1", "homme-2"],
            },
        )
        == "too_many_bieres"
    )
    s = pass_all(
        play(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": ["homme-1"]},
        )
    )
    assert (
        rejected(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-2"], "target_player": CID, "hommes": ["homme-2"]},
        )
        == "wrong_step"
    )


def test_D8_laying_is_compulsory_by_default():
    s = make(2, hands={ANA: ["fee-1"]}, deck=DECK)
    assert rejected(s, ANA, Pass()) == "must_play"
    assert play(s.model_copy(update={"options": options(must_play=False)}), ANA, Pass()).active == BOB


def test_D9_any_other_player_may_play_a_fee():
    s = make(
        3, hands={ANA: ["dryade-1"], BOB: ["fee-2"], CID: ["fee-3"]}, forests={BOB: ["lutin-1"]}, deck=DECK
    )
    m = creature("dryade-1", target_player=BOB, target_card="lutin-1")
    assert play(s, ANA, m).window.eligible == (BOB, CID)
    a = s.model_copy(update={"options": options(fee_reactors="affected_only")})
    assert play(a, ANA, m).window.eligible == (BOB,)


def test_D10_a_reactive_fee_costs_no_turn():
    s = make(3, hands={ANA: ["gnome-1"], BOB: ["fee-2", "gnome-3"], CID: ["fee-3"]}, deck=DECK)
    s = pass_all(play(play(s, ANA, creature("gnome-1")), CID, ReactFee(card="fee-3")))
    assert s.active == BOB and s.turn_place == 1


def test_D11_korrigan_takes_random_cards_by_default():
    hands = {ANA: ["korrigan-1"], BOB: ["elfe-1", "elfe-2", "elfe-3", "elfe-4"]}
    picks = set()
    for seed in range(12):
        s = make(2, hands=hands, deck=DECK)
        s = GAME.apply(
            play(s, ANA, creature("korrigan-1", target_player=BOB)), BOB, ReactPass(), random.Random(seed)
        )
        picks.add(tuple(c for c in s.hands[ANA] if c.startswith("elfe-") and c in hands[BOB]))
    assert len(picks) > 2
    for mode, chooser in (("victim_chooses", BOB), ("actor_chooses", ANA)):
        s = make(2, hands=hands, deck=DECK, opts=options(korrigan_take=mode))
        s = pass_all(play(s, ANA, creature("korrigan-1", target_player=BOB)))
        assert s.decision.seat == chooser


def test_D12_elfe_copies_its_own_forest_not_elfe_fee_homme():
    s = make(
        2,
        hands={ANA: ["elfe-1"]},
        forests={ANA: ["elfe-2", "fee-1", "homme-1"], BOB: ["gnome-1"]},
        opts=EXP,
        deck=DECK,
    )
    assert rules.copy_candidates(rules._lay(s, ANA, "elfe-1"), ANA) == []
    for bad in ("elfe-2", "fee-1", "homme-1"):
        assert (
            rejected(s, ANA, creature("elfe-1", copy=bad)) == "unexpected_choice"
        )  # nothing copyable at all
    t = make(
        2, hands={ANA: ["elfe-1"]}, forests={ANA: ["lutin-1", "fee-1"], BOB: ["gnome-1"]}, opts=EXP, deck=DECK
    )
    for bad in ("elfe-1", "fee-1"):
        assert rejected(t, ANA, creature("elfe-1", copy=bad)) == "cannot_copy"
    assert rejected(t, ANA, creature("elfe-1", copy="gnome-1")) == "copy_not_own"
    anyc = t.model_copy(update={"options": options(expansion=True, elfe_copy_scope="any")})
    assert PlayCreature(card="elfe-1", copy_card="gnome-1") in GAME.legal_moves(anyc, ANA)


def test_D13_every_other_place_plays_once_more():
    s = make(3, hands={ANA: ["fee-1"], BOB: ["fee-2"], CID: ["fee-3"]}, active=BOB, deck=[])
    s = play(s, BOB, creature("fee-2"))
    assert s.final_round == (2, 0)
    c = make(
        3,
        hands={ANA: ["fee-1"], BOB: ["fee-2"], CID: ["fee-3"]},
        active=BOB,
        deck=[],
        opts=options(final_round_anchor="complete_round"),
    )
    assert play(c, BOB, creature("fee-2")).final_round == (2,)


def test_D14_player_counts():
    assert GAME.setup(4, options(), random.Random(0)) is not None
    assert GAME.setup(6, options(expansion=True), random.Random(0)) is not None
    assert GAME.setup(5, options(large_base=True), random.Random(0)) is not None


def test_D15_end_procedure_by_mode():
    base = make(3, hands={ANA: ["fee-1"], BOB: ["fee-2", "fee-3"]}, deck=[])
    assert play(base, ANA, creature("fee-1")).final_round is not None
    exp = base.model_copy(update={"options": EXP})
    e = play(exp, ANA, creature("fee-1"))
    assert e.final_round is None and len(e.hands[ANA]) == 1


def test_D16_replenishment_random_at_the_end_of_each_turn():
    s = make(
        3, hands={ANA: ["fee-1"], BOB: ["elfe-1", "elfe-2"], CID: ["elfe-3", "elfe-4"]}, deck=[], opts=EXP
    )
    s = play(s, ANA, creature("fee-1"))
    assert len(s.hands[ANA]) == 2 and s.decision is None
    g = make(
        3,
        hands={ANA: ["fee-1"], BOB: ["elfe-1", "elfe-2"], CID: ["elfe-3", "elfe-4"]},
        deck=[],
        opts=options(expansion=True, replenish_take="giver_chooses"),
    )
    assert play(g, ANA, creature("fee-1")).decision.seat == BOB


def test_D17_tiebreak_fewest_cards_then_shared():
    s = make(
        2,
        hands={ANA: ["x-1"]},
        forests={ANA: ["gnome-1"], BOB: ["gnome-2"]},
        end=rules.End(reason="stalemate"),
    )
    assert GAME.result(s).winners == [BOB]
    assert GAME.result(s.model_copy(update={"options": options(tiebreak="shared")})).winners == [ANA, BOB]


def test_D18_first_player_random_or_place0():
    assert len({GAME.setup(3, options(), random.Random(i)).first_place for i in range(30)}) == 3
    assert GAME.setup(3, options(first_player="place0"), random.Random(7)).active == 0


def test_D19_garou_column_counted_after_laying_the_garou():
    s = make(2, hands={ANA: ["garou-1"], BOB: ["fee-1"]}, forests={BOB: ["homme-1"]}, opts=EXP, deck=DECK)
    assert [m.column for m in GAME.legal_moves(s, ANA)] == ["garou"]


def test_D20_a_transformed_homme_is_its_new_race_for_every_purpose():
    s = make(
        3,
        hands={ANA: ["elfe-1", "garou-9"]},
        forests={ANA: ["homme-1"], BOB: ["homme-2"]},
        secrets={ANA: ["secret-dryade"]},
        races={"homme-1": "dryade"},
        opts=EXP,
        deck=DECK,
    )
    assert scoring.score(s, ANA) == 2 and not s.protected(ANA)
    assert "homme-1" in rules.copy_candidates(s, ANA)  # copyable as a Dryade
    assert rules.hommes_of_opponents(s, BOB) == {}  # no Garou can take it again (only homme-2, Bob's own)
    assert rejected(s, ANA, creature("garou-9", target_card="homme-1", column="garou")) == "not_in_forest"


def test_D21_no_eating_secrets_no_cancelling_hommes_or_secrets():
    s = make(
        2,
        hands={ANA: ["ogre-1", "homme-1", "secret-elfe"], BOB: ["fee-2"]},
        forests={BOB: ["gnome-1"]},
        secrets={BOB: ["secret-gnome"]},
        opts=EXP,
        deck=DECK,
    )
    assert (
        rejected(s, ANA, creature("ogre-1", target_player=BOB, target_card="secret-gnome")) == "not_in_forest"
    )
    assert play(s, ANA, creature("homme-1")).window is None
    assert play(s, ANA, {"action": "play_secret", "card": "secret-elfe"}).window is None


def test_D22_a_fee_may_be_laid_on_ones_own_turn():
    s = make(2, hands={ANA: ["fee-1"]}, deck=DECK)
    assert forest_of(play(s, ANA, creature("fee-1")), ANA) == ["fee-1"]


def test_D23_no_refill_to_five():
    s = make(2, hands={ANA: ["fee-1"], BOB: []}, deck=DECK)
    s = play(s, ANA, creature("fee-1"))
    assert len(s.hands[BOB]) == 1  # draw 1, no refill


def test_D24_mandatory_with_free_aim():
    s = make(
        3,
        hands={ANA: ["dryade-1"]},
        forests={BOB: ["homme-1", "gnome-1"], CID: ["lutin-1"]},
        opts=EXP,
        deck=DECK,
    )
    assert rejected(s, ANA, creature("dryade-1", target_player=CID)) == "missing_choice"
    assert play(s, ANA, creature("dryade-1", target_player=BOB)).window is None  # aimed where it cannot apply


def test_D25_the_game_always_ends_stalemate_rule():
    s = make(
        2, hands={ANA: ["fee-1"], BOB: ["fee-2"]}, deck=[], opts=options(expansion=True, must_play=False)
    )
    s = play(play(s, ANA, Pass()), BOB, Pass())
    assert s.end.reason == "stalemate"


def test_D26_what_may_follow_a_batch_of_bieres():
    s = make(
        3,
        hands={ANA: ["biere-1", "biere-2", "garou-1", "elfe-1", "gnome-1"], BOB: ["fee-2", "gnome-3"]},
        forests={ANA: ["dryade-1"], BOB: ["homme-1", "lutin-1"]},
        opts=EXP,
        deck=DECK,
    )
    b = pass_all(
        play(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": ["homme-1"]},
        )
    )
    legal = GAME.legal_moves(b, ANA)
    assert PlayCreature(card="garou-1", target_player=BOB, target_card="homme-1", column="garou") in legal
    assert (
        PlayCreature(card="elfe-1", copy_card="dryade-1", target_player=BOB, target_card="lutin-1") in legal
    )
    assert not any(isinstance(m, PlayCreature) and m.card == "gnome-1" for m in legal)
    c = play(
        play(
            s,
            ANA,
            {"action": "play_bieres", "cards": ["biere-1"], "target_player": BOB, "hommes": ["homme-1"]},
        ),
        BOB,
        ReactFee(card="fee-2"),
    )
    c = pass_all(c)
    assert c.step == "after_bieres"  # also after a cancelled batch
    dead = play(s, ANA, {"action": "play_bieres", "cards": ["biere-2"], "target_player": CID})
    assert dead.active == BOB  # nothing after a batch that could not apply
    anyf = b.model_copy(update={"options": options(expansion=True, biere_followup="any")})
    assert settle(play(anyf, ANA, creature("gnome-1"))).active == BOB
