"""Setup S1-S8: options, player counts, places, deck, first player, deal, initial state, Forest layout."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from pydantic import ValidationError

from app.games.base import IllegalMove
from app.games.fantasy import GAME, cards
from app.games.fantasy.options import FantasyOptions, FantasyPrefs
from app.games.fantasy.state import all_cards
from tests.games.fantasy.helpers import ANA, BOB, make, options


def test_S1_options_defaults_and_validation():
    o = FantasyOptions()
    assert o.model_dump() == {
        "expansion": False,
        "f2_counts": {"homme": 8, "ogre": 8, "garou": 8, "biere": 6},
        "f2_secrets": True,
        "farfadet_mode": "auto",
        "end_rule": "auto",
        "final_round_anchor": "after_trigger",
        "korrigan_take": "random",
        "replenish_take": "random",
        "secret_placement": "any",
        "fee_reactors": "any_other",
        "elfe_copy_scope": "own",
        "hommes_block_own": False,
        "biere_followup": "target_forest",
        "must_play": True,
        "tiebreak": "fewest_cards",
        "first_player": "random",
        "large_base": False,
        "reaction_timeout_s": None,
    }
    for bad in ({"nope": 1}, {"f2_counts": {"homme": 13}}, {"reaction_timeout_s": 4}, {"tiebreak": "x"}):
        with pytest.raises(ValidationError):
            FantasyOptions.model_validate(bad)
    for name, field in FantasyOptions.model_fields.items():
        assert field.title and field.description, name
    assert FantasyPrefs().react_pref == "ask_when_affected"
    assert FantasyPrefs.model_fields["react_pref"].title
    assert GAME.Prefs is FantasyPrefs


@pytest.mark.parametrize(
    ("n", "kw", "ok"),
    [
        (1, {}, False),
        (2, {}, True),
        (4, {}, True),
        (5, {}, False),
        (6, {"large_base": True}, True),
        (6, {"expansion": True}, True),
        (7, {"expansion": True}, False),
    ],
)
def test_S2_player_count(n, kw, ok):
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    if ok:
        GAME.setup(n, options(**kw), random.Random(0))
    else:
        with pytest.raises(IllegalMove) as err:
            GAME.setup(n, options(**kw), random.Random(0))
        assert err.value.code == "bad_player_count"


def test_S3_player_i_sits_at_place_i():
    s = GAME.setup(4, options(), random.Random(3))
    assert s.occupant == (0, 1, 2, 3) and s.place_of == (0, 1, 2, 3)


def test_S4_deck_composition():
    base = GAME.setup(2, options(), random.Random(1))
    assert len(all_cards(base)) == 56
    assert Counter(c.rsplit("-", 1)[0] for c in all_cards(base)) == {r: 8 for r in cards.BASE_RACES}
    full = GAME.setup(2, options(expansion=True), random.Random(1))
    assert len(all_cards(full)) == 96
    assert {f"secret-{r}" for r in cards.RACES} <= set(all_cards(full))
    custom = GAME.setup(
        2,
        options(expansion=True, f2_secrets=False, f2_counts={"homme": 2, "ogre": 0, "garou": 1, "biere": 12}),
        random.Random(1),
    )
    ids = all_cards(custom)
    assert len(ids) == 56 + 2 + 1 + 12 and "biere-12" in ids and not any(c.startswith("secret") for c in ids)
    assert GAME.setup(2, options(), random.Random(2)).deck != base.deck  # shuffled with the table rng


def test_S5_first_player():
    firsts = {GAME.setup(4, options(), random.Random(seed)).first_place for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert {
        GAME.setup(4, options(first_player="place0"), random.Random(seed)).first_place for seed in range(10)
    } == {0}


def test_S6_deal_five_each_one_at_a_time_from_the_first_player():
    rng = random.Random(5)
    s = GAME.setup(4, options(), random.Random(5))
    deck = list(cards.base_ids())
    rng.shuffle(deck)
    first = s.first_place
    for i in range(4):
        dealt = sorted(deck[((i - first) % 4) : 20 : 4])
        expected = set(dealt) | ({deck[20]} if i == first else set())  # T2: the first player drew
        assert set(s.hands[i]) == expected
    assert len(s.deck) == 36 - 1
    six = GAME.setup(6, options(expansion=True), random.Random(5))
    assert len(six.deck) == 66 - 1 and sum(map(len, six.hands)) == 31


def test_S7_initial_state():
    s = GAME.setup(3, options(expansion=True), random.Random(9))
    assert all(f == () for f in s.forests) and all(x == () for x in s.secrets) and s.out_of_play == ()
    assert s.neutralised == () and s.final_round is None and s.idle_turns == 0
    assert s.turn_place == s.first_place and s.active == s.first_place and s.step == "main"
    assert GAME.to_act(s) == {s.first_place}


def test_S8_forest_layout_columns_in_fixed_order():
    s = make(
        2,
        forests={ANA: ["gnome-1", "homme-1", "fee-1", "homme-2"], BOB: []},
        secrets={ANA: ["secret-dryade"]},
        neutralised=("homme-2",),
        races={"homme-1": "gnome"},
        opts=options(expansion=True),
    )
    cols = GAME.view(s, None)["players"][ANA]["forest"]["columns"]
    assert [c["race"] for c in cols] == ["homme", "gnome", "dryade", "fee"]
    assert cols[0]["cards"] == [{"id": "homme-2", "race": "homme", "was_homme": False, "neutralised": True}]
    assert cols[1]["cards"][1] == {"id": "homme-1", "race": "gnome", "was_homme": True, "neutralised": False}
    assert cols[2] == {"race": "dryade", "secret": "secret-dryade", "cards": []}
    assert GAME.view(s, None)["players"][BOB]["forest"] == {"size": 0, "columns": []}


def test_cards_data_and_names():
    assert cards.display_name("gnome-3") == "Gnome" and cards.display_name("secret-fee") == "Secret (Fées)"
    assert cards.display_name("biere-2") == "Bière" and cards.english_name("farfadet-1") == "Leprechaun"
    assert cards.RECONSTRUCTION_NOTICE.startswith("This card list is a reconstruction")
    data = cards.load_data()
    assert data.copyable_races == ("gnome", "korrigan", "lutin", "farfadet", "dryade", "ogre", "garou")
    assert "fantasy2.biere" in data.reconstructed
    assert GAME.view(GAME.setup(2, options(expansion=True), random.Random(0)), None)["reconstruction_notice"]
    assert GAME.view(GAME.setup(2, options(), random.Random(0)), None)["reconstruction_notice"] is None
