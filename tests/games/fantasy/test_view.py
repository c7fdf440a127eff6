"""The view (§8): its shape, what each seat may see, private log lines, and the lossless state."""

from __future__ import annotations

import json
import random

from app.games.base import LogEntry
from app.games.fantasy import GAME, rules
from app.games.fantasy.options import FantasyOptions
from app.games.fantasy.rules import ReactPass
from tests.games.fantasy.helpers import ANA, BOB, CID, creature, make, options, pass_all, play, strings

DECK = ["elfe-8", "elfe-7", "elfe-6", "farfadet-8", "farfadet-7"]


def test_view_shape():
    s = GAME.setup(3, options(expansion=True, reaction_timeout_s=30), random.Random(2))
    v = GAME.view(s, s.active)
    for key in (
        "expansion",
        "options",
        "reconstruction_notice",
        "places",
        "players",
        "deck_size",
        "out_of_play",
        "turn",
        "hand",
        "window",
        "decision",
        "final_round",
        "idle_turns",
        "prompt",
        "log",
        "end",
    ):
        assert key in v, key
    assert v["places"] == [0, 1, 2] and v["turn"]["step"] == "main" and v["turn"]["number"] == 1
    assert set(v["players"][0]) == {"seat", "place", "hand_size", "score", "forest"}
    assert v["hand"] == list(s.hands[s.active])
    assert GAME.view(s, None)["hand"] is None
    assert json.loads(json.dumps(v)) == v


def test_window_and_decision_in_the_view():
    s = make(
        3,
        hands={ANA: ["korrigan-1"], BOB: ["elfe-1", "elfe-2", "elfe-3"], CID: ["gnome-1"]},
        deck=DECK,
        opts=options(korrigan_take="actor_chooses", reaction_timeout_s=20),
    )
    w = play(s, ANA, creature("korrigan-1", target_player=BOB))
    v = GAME.view(w, CID)
    assert v["turn"]["step"] == "window"
    win = v["window"]
    assert win["chain"][0]["kind"] == "creature" and win["chain"][0]["params"]["target"] == {"seat": BOB}
    assert win["eligible"] == [BOB, CID] and win["waiting"] == [BOB, CID] and win["affected"] == [BOB]
    assert win["timeout_s"] == 20 and win["prompt"]["text"].endswith("Play a Fée or pass.")
    assert GAME.view(w, ANA)["prompt"]["text"] == "Waiting for %(players)s to answer."
    d = pass_all(w)
    assert GAME.view(d, ANA)["turn"]["step"] == "decision"
    assert GAME.view(d, ANA)["decision"]["cards"] == ["elfe-1", "elfe-2", "elfe-3"]
    assert GAME.view(d, BOB)["decision"]["cards"] == ["elfe-1", "elfe-2", "elfe-3"]
    assert GAME.view(d, CID)["decision"]["cards"] is None and GAME.view(d, None)["decision"]["cards"] is None
    assert not strings(GAME.view(d, CID)) & {"elfe-1", "elfe-2", "elfe-3"}


def test_private_log_lines_go_only_to_the_players_allowed():
    s = make(
        3, hands={ANA: ["korrigan-1", "gnome-1"], BOB: ["elfe-1", "elfe-2"], CID: ["lutin-1"]}, deck=DECK
    )
    s = pass_all(play(s, ANA, creature("korrigan-1", target_player=BOB)))
    for seat, may in ((ANA, True), (BOB, True), (CID, False), (None, False)):
        text = json.dumps([LogEntry.for_seat(e, seat) for e in s.log])
        assert ("elfe-1" in text) == may, seat
    draws = json.dumps(GAME.view(s, CID)["log"])
    assert "elfe-8" not in draws  # Bob's draw at his turn start is his alone
    assert "elfe-8" in json.dumps(GAME.view(s, BOB)["log"])


def test_lutin_each_player_sees_his_new_hand():
    s = make(3, hands={ANA: ["lutin-1", "gnome-1"], BOB: ["elfe-1"], CID: ["dryade-1"]}, deck=DECK)
    s = pass_all(play(s, ANA, creature("lutin-1", target_player=CID)))
    assert "dryade-1" in json.dumps(GAME.view(s, ANA)["log"])
    assert "gnome-1" in json.dumps(GAME.view(s, CID)["log"])
    assert not strings(GAME.view(s, BOB)) & {"dryade-1", "gnome-1"}
    assert "gnome-1" not in GAME.hidden_from(s, ANA).values  # Ana knows where her old hand went


def test_hidden_from_spectators_and_seats():
    s = GAME.setup(4, FantasyOptions(expansion=True), random.Random(11))
    spect = GAME.hidden_from(s, None).values
    assert set(s.deck) <= spect and all(set(h) <= spect for h in s.hands)
    mine = GAME.hidden_from(s, 1).values
    assert not set(s.hands[1]) & mine and set(s.hands[2]) <= mine
    for seat in (None, 0, 1, 2, 3):
        assert not strings(GAME.view(s, seat)) & GAME.hidden_from(s, seat).values


def test_dump_load_round_trip_and_apply_never_mutates():
    s = GAME.setup(3, options(expansion=True), random.Random(5))
    rng = random.Random(5)
    for _ in range(60):
        if s.end is not None:
            break
        data = json.loads(json.dumps(GAME.dump_state(s)))
        assert GAME.load_state(data) == s and GAME.dump_state(GAME.load_state(data)) == data
        seat = min(GAME.to_act(s))
        before = GAME.dump_state(s)
        nxt = GAME.apply(s, seat, rng.choice(GAME.legal_moves(s, seat)), rng)
        assert GAME.dump_state(s) == before
        s = nxt


def test_moves_serialise_with_the_spec_field_names():
    m = rules.PlayCreature(card="elfe-1", copy_card="dryade-1", target_player=1, target_card="x-1")
    data = GAME.Move.dump_python(m, mode="json")
    assert data["copy"] == "dryade-1" and "copy_card" not in data
    assert GAME.Move.validate_python(data) == m
    assert GAME.Move.validate_python({"action": "react_pass"}) == ReactPass()
