"""Two real browsers (Debian's Chromium through Playwright) play Fantasy with
the Fantasy II expansion against a real server process on SQLite, including
one Fée reaction and one Farfadet place swap (issue 4, acceptance 4).

The table is created through the pages with the expansion on and place 0
starting; its secret seed is fixed before the start (straight in the
server's database, as an operator could) so that the deal gives Ann a
Korrigan and a Farfadet and Bob a Fée: the game is then played only by
clicking the page's buttons.

1. Ann lays her Korrigan at Bob. Bob's page asks him to play a Fée or pass;
   he plays his Fée. Ann's page asks her about Bob's Fée; she passes. The
   Korrigan is cancelled and both logs say so.
2. Bob lays his Secret. 3. Ann lays her Farfadet at Bob; Bob passes; they
   exchange places, and as the player who moved into the next place Ann
   plays again at once.

Both pages follow live (no reload), and neither ever shows a card of the
other's hand.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.e2e.conftest import WAIT_MS
from tests.e2e.test_two_browsers import Person, assert_never_shown, open_table_for_two
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("servers")]

# Found with the rules layer: with the expansion and place 0 first, this seed deals
# Ann (seat 0) korrigan-5 and farfadet-2, and Bob (seat 1) fee-2 and secret-ogre
# and no Homme. tests/games/fantasy cannot drift from it unnoticed: the test
# checks the hands before it starts clicking.
SEED = "e2e-fantasy-51"


def test_two_browsers_play_fantasy_ii_with_a_fee_and_a_place_swap(server, browser):
    try:
        play(server, browser)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n----- server log -----\n{server.log_tail(6000)}") from exc


def play(server: ServerProcess, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    ann = Person(browser, server.base_url, "ann")
    bob = Person(browser, server.base_url, "bob")

    def house_rules(page: Any) -> None:
        page.select_option("#opt-expansion", "true")
        page.select_option("#opt-first_player", "place0")

    def fix_seed(table_id: int) -> None:
        path = server.database_url.split("///", 1)[1]
        with sqlite3.connect(path) as db:
            db.execute("UPDATE tables SET seed = ? WHERE id = ?", (SEED, table_id))

    tid = open_table_for_two(server, ann, bob, "fantasy", on_form=house_rules, before_start=fix_seed)
    people = (ann, bob)

    def states() -> tuple[dict[str, Any], dict[str, Any]]:
        return ann.state(tid), bob.state(tid)

    def check_secrecy(where: str) -> None:
        a, b = states()
        assert_never_shown(ann, b["view"]["hand"], where)
        assert_never_shown(bob, a["view"]["hand"], where)

    def wait_version(version: int) -> None:
        for person in people:
            expect(person.live()).to_have_attribute("data-version", str(version))
            person.assert_not_reloaded()

    def lay(person: Person, card: str) -> None:
        """Click the button under `card` in the hand (it has a single way to be laid here)."""
        version = person.state(tid)["version"]
        item = person.live().locator(f".hand li:has(.card-meta:text-is('{card}'))")
        item.get_by_role("button").click()
        expect(person.live()).not_to_have_attribute("data-version", str(version))

    a, b = states()
    assert a["view"]["options"]["expansion"] and a["to_act"] == [0]
    assert {"korrigan-5", "farfadet-2"} <= set(a["view"]["hand"]), a["view"]["hand"]
    assert {"fee-2", "secret-ogre"} <= set(b["view"]["hand"]), b["view"]["hand"]
    expect(ann.live().locator(".prompt")).to_contain_text("Your turn")
    expect(ann.live().locator(".forests")).to_contain_text("Place 1: Ann")
    check_secrecy("after the start")

    # 1. The Korrigan, and Bob's Fée.
    lay(ann, "korrigan-5")
    window = bob.live().locator(".window")
    expect(window).to_contain_text("Ann's Korrigan will take 2 cards from Bob. Play a Fée or pass.")
    expect(ann.live().locator(".window")).to_contain_text("Waiting for: Bob")
    check_secrecy("Korrigan window")
    version = bob.state(tid)["version"]
    window.get_by_role("button", name="Play Fée").click()
    wait_version(version + 1)
    ann_window = ann.live().locator(".window")
    expect(ann_window).to_contain_text("Waiting for: Ann")
    ann_window.get_by_role("button", name="Pass").click()
    for person in people:
        log = person.live().locator(".log")
        expect(log).to_contain_text("The Fées cancel Ann's Korrigan.")
        expect(person.live().locator(".window")).to_have_count(0)
        person.assert_not_reloaded()
    a, b = states()
    assert len(a["view"]["hand"]) == 5 and "fee-2" not in b["view"]["hand"]  # nothing was taken
    bob_forest = b["view"]["players"][1]["forest"]["columns"]
    assert any(c["id"] == "fee-2" for col in bob_forest for c in col["cards"])
    check_secrecy("after the Fée")

    # 2. Bob's turn: he lays his Secret (no target, no window).
    expect(bob.live().locator(".prompt")).to_contain_text("Your turn")
    lay(bob, "secret-ogre")

    # 3. The Farfadet: Ann and Bob exchange places; Ann plays again at once.
    expect(ann.live().locator(".prompt")).to_contain_text("Your turn")
    lay(ann, "farfadet-2")
    window = bob.live().locator(".window")
    expect(window).to_contain_text("Ann's Farfadet will exchange places with Bob. Play a Fée or pass.")
    window.get_by_role("button", name="Pass").click()
    for person in people:
        expect(person.live().locator(".log")).to_contain_text("Ann and Bob exchanged places")
        expect(person.live().locator(".forests")).to_contain_text("Place 1: Bob")
        expect(person.live().locator(".forests")).to_contain_text("Place 2: Ann")
        person.assert_not_reloaded()
    expect(ann.live().locator(".prompt")).to_contain_text("Your turn")
    a, b = states()
    assert a["view"]["places"] == [1, 0] and a["to_act"] == [0]
    # The Forest Ann left (with her Korrigan and Farfadet) is now Bob's.
    bob_cards = {c["id"] for col in a["view"]["players"][1]["forest"]["columns"] for c in col["cards"]}
    assert {"korrigan-5", "farfadet-2"} <= bob_cards
    check_secrecy("after the swap")
