"""The calculator request handling (K2, K3) and its line-by-line CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.games.realms.calculator import RequestError, best_request, score_request

ROOT = Path(__file__).resolve().parents[3]
H01 = ["mountain", "great-flood", "smoke", "whirlwind", "air-elemental", "wildfire", "mirage"]


def test_k2_example_response():
    body = score_request(
        {"cards": H01, "choices": {"mirage": "rainstorm"}, "options": {"collector_mode": "sum_over_suits"}}
    )
    assert body["total"] == 260 and body["legal_hand"] is True and body["warnings"] == []
    assert body["choices"] == {"mirage": "rainstorm"}
    assert body["tie_break"] == {"rule": "highest_card", "value": 59}
    assert set(body) == {"total", "legal_hand", "warnings", "options", "choices", "tie_break", "cards"}
    assert body["cards"][0] == {
        "card": "mountain",
        "acts_as_name": "Mountain",
        "suit": "land",
        "status": "active",
        "reason": None,
        "base": 9,
        "bonus": 50,
        "penalty": 0,
        "total": 59,
        "notes": ["+50 with Smoke and Wildfire", "clears the penalty of every Flood"],
    }
    assert body["cards"][1]["reason"] == "penalty cleared by Mountain"
    assert body["cards"][6] == {
        "card": "mirage",
        "acts_as_name": "Rainstorm",
        "suit": "weather",
        "status": "active",
        "reason": None,
        "base": 0,
        "bonus": 0,
        "penalty": 0,
        "total": 0,
        "notes": ["Mirage copies Rainstorm (name and suit only)"],
    }


def test_k2_cards_by_number_and_8_card_hand():
    body = score_request(
        {
            "cards": [3, 17, 28, 49, 43, 46, 47, 38],
            "choices": {
                "necromancer": "warhorse",
                "book_of_changes": {"target": "bell-tower", "suit": "leader"},
            },
        }
    )
    assert body["total"] == 397 and [c["card"] for c in body["cards"]][-1] == "warhorse"


@pytest.mark.parametrize(
    ("request_body", "sentence"),
    [
        ({"cards": ["montain"]}, "Unknown card 'montain'."),
        ({"cards": ["mountain", "mountain"]}, "Mountain is listed twice."),
        (
            {"cards": ["necromancer"], "choices": {"necromancer": "book-of-changes"}},
            "The Necromancer can only take an Army, Leader, Wizard or Beast; Book of Changes is an Artifact.",
        ),
        (
            {"cards": ["island", "dragon"], "choices": {"island": "dragon"}},
            "Island must target a Flood or Flame; Dragon is a Beast.",
        ),
        (
            {"cards": ["doppelganger"], "choices": {"doppelganger": "doppelganger"}},
            "The Doppelgänger cannot copy itself.",
        ),
        (
            {"cards": ["mirage"], "choices": {"mirage": "king"}},
            "Mirage can only become an Army, Land, Weather, Flood or Flame; King is a Leader.",
        ),
        (
            {"cards": ["knights"], "choices": {"mirage": "rainstorm"}},
            "Choice 'mirage' given but Mirage is not in the hand.",
        ),
    ],
)
def test_k2_validation_failures(request_body, sentence):
    with pytest.raises(RequestError) as err:
        score_request(request_body)
    assert str(err.value) == sentence


def test_k2_island_reset_after_book_is_a_warning():
    body = score_request(
        {
            "cards": ["island", "book-of-changes", "swamp"],
            "choices": {"island": "swamp", "book_of_changes": {"target": "swamp", "suit": "army"}},
        }
    )
    assert body["choices"]["island"] is None
    assert "Island's target is no longer a Flood or Flame; Island choice cleared." in body["warnings"]


def test_k2_partial_hand_is_scored_with_warning():
    body = score_request({"cards": ["knights"]})
    assert (
        body["total"] == 12 and body["legal_hand"] is False and body["warnings"] == ["not a legal final hand"]
    )


def test_k3_best_with_pinned_choice():
    body = best_request({"cards": ["island", "book-of-changes", "dragon"]})
    assert body["total"] == 47 and body["search"]["exhaustive"] is True
    assert body["choices"]["book_of_changes"] == {"target": "island", "suit": "wizard"}
    pinned = best_request(
        {
            "cards": ["island", "book-of-changes", "dragon"],
            "choices": {"book_of_changes": {"target": "dragon", "suit": "flood"}},
            "pinned": ["book_of_changes"],
        }
    )
    assert pinned["choices"] == {"book_of_changes": {"target": "dragon", "suit": "flood"}, "island": "dragon"}
    assert pinned["total"] == 47


def test_cli_one_line_out_per_line_in_bad_lines_interleaved():
    lines = [
        json.dumps({"cards": H01, "choices": {"mirage": "rainstorm"}}),
        "{not json",
        json.dumps({"cards": ["montain"]}),
        json.dumps({"cards": ["great-flood", "blizzard", "wildfire"]}),
        json.dumps({"cards": ["knights"], "options": {"gem_mode": "sideways"}}),
        "",
        json.dumps(["mountain"]),
        json.dumps({"cards": ["cavern", "great-flood", "blizzard", "wildfire"]}),
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "app.games.realms.calculator"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["total"] == 260
    assert out[1] == {"error": "The request is not valid JSON."}
    assert out[2] == {"error": "Unknown card 'montain'."}
    assert out[3]["total"] == 65
    assert "error" in out[4] and "gem_mode" in out[4]["error"]
    assert out[5] == {"error": "The request is not valid JSON."}
    assert out[6] == {"error": "The request must be a JSON object."}
    assert out[7]["total"] == 62


def test_cli_scores_thousands_of_lines_quickly():
    line = json.dumps({"cards": H01, "choices": {"mirage": "rainstorm"}})
    proc = subprocess.run(
        [sys.executable, "-m", "app.games.realms.calculator"],
        input=(line + "\n") * 3000,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert proc.stdout.count("\n") == 3000
