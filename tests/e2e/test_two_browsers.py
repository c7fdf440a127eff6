"""Two real browsers (Debian's Chromium through Playwright) play a game of
tally against a real server process on SQLite.

Player 1 registers and creates the table through the pages, player 2 comes
in through the invite link as a guest, and they play by clicking the move
buttons. Each page must follow the other's moves live (no reload), and
neither page's HTML nor any websocket frame it received may ever contain a
card the other player is holding.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import PHONE_SHOT, WAIT_MS
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("servers")]


class Person:
    """One browser context (own cookies) with one page, recording every
    websocket frame the page received."""

    def __init__(self, browser: Any, base_url: str, name: str) -> None:
        self.name = name
        self.context = browser.new_context(base_url=base_url)
        self.context.set_default_timeout(WAIT_MS)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.sockets: list[str] = []
        self.page.on("websocket", self._on_socket)

    def _on_socket(self, ws: Any) -> None:
        self.sockets.append(ws.url)
        ws.on("framereceived", self._on_frame)

    def _on_frame(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))

    def state(self, table_id: int) -> dict[str, Any]:
        """GET /api/tables/{id} with this browser's own session cookie."""
        r = self.context.request.get(f"/api/tables/{table_id}")
        assert r.ok, r.text()
        return r.json()

    def live(self) -> Any:
        return self.page.locator("#table-live")

    def mark_page(self) -> None:
        """A flag in this document: it survives htmx swaps, not a reload."""
        self.page.evaluate("window.__feytableNoReload = true")

    def assert_not_reloaded(self) -> None:
        assert self.page.evaluate("window.__feytableNoReload === true"), f"{self.name}'s page was reloaded"


def card_pattern(cards: list[str]) -> re.Pattern[str] | None:
    """Card ids as whole tokens ("t1" must not match inside "t17" or a random token)."""
    if not cards:
        return None
    alternatives = "|".join(re.escape(c) for c in sorted(cards, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def assert_never_shown(viewer: Person, hidden: list[str], where: str) -> None:
    """None of `hidden` (the other player's current hand) is in the viewer's
    page now, nor in any frame the viewer's page has received so far."""
    pattern = card_pattern(hidden)
    if pattern is None:
        return
    html = viewer.page.content()
    found = pattern.search(html)
    assert found is None, f"{where}: {viewer.name}'s page shows {found.group(0)} from the other hand {hidden}"
    for i, frame in enumerate(viewer.frames):
        found = pattern.search(frame)
        assert found is None, (
            f"{where}: websocket frame {i} to {viewer.name} contains {found.group(0)} "
            f"from the other hand {hidden}:\n{frame[:2000]}"
        )


def move_label(move: dict[str, Any]) -> str:
    """The generic board labels each move button with the move's JSON."""
    return json.dumps(move, separators=(",", ":"), sort_keys=True)


def test_two_browsers_play_live_and_never_see_each_others_hand(server, browser):
    try:
        play_a_game(server, browser)
    except AssertionError as exc:
        # What went wrong in the browser usually shows up as a traceback on the server.
        log = server.log_tail(6000)
        raise AssertionError(f"{exc}\n----- server log ({server.log_path}) -----\n{log}") from exc


def open_table_for_two(
    server: ServerProcess,
    ann: Person,
    bob: Person,
    game: str,
    on_form: Callable[[Any], None] | None = None,
    before_start: Callable[[int], None] | None = None,
) -> int:
    """Through the pages only: Ann registers and creates a 2-seat table of `game`,
    Bob follows the invite link as a guest, Ann starts; both pages follow live.
    `on_form` may inspect the create-table form before it is sent;
    `before_start` gets the table id once both are seated."""
    from playwright.sync_api import expect

    ann.page.goto("/register")
    ann.page.fill("#name", "Ann")
    ann.page.fill("#password", "correct horse battery")
    ann.page.get_by_role("button", name="Create my account").click()
    ann.page.wait_for_url(f"{server.base_url}/")
    ann.page.goto("/tables/new")
    if ann.page.input_value("#game-pick") != game:
        with ann.page.expect_navigation():
            ann.page.select_option("#game-pick", game)  # the form submits itself on change
    assert ann.page.input_value("#game-pick") == game
    ann.page.select_option("#seats", "2")
    if on_form is not None:
        on_form(ann.page)
    ann.page.get_by_role("button", name="Create the table").click()
    ann.page.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = int(ann.page.url.rsplit("/", 1)[1])
    invite = ann.page.input_value("#invite-link")
    assert invite.startswith(f"{server.base_url}/invite/"), invite
    expect(ann.live()).to_have_attribute("data-status", "waiting")
    ann.mark_page()

    # Player 2 follows the invite link and plays as a guest.
    bob.page.goto(invite)
    bob.page.fill("#guest-name", "Bob")
    bob.page.get_by_role("button", name="Play as a guest").click()
    bob.page.wait_for_url(f"{server.base_url}/tables/{table_id}")
    expect(bob.live()).to_have_attribute("data-status", "waiting")
    bob.mark_page()

    # Player 1's page sees Bob sit down, without a reload.
    expect(ann.live().locator(".seats")).to_contain_text("Bob")
    ann.assert_not_reloaded()

    if before_start is not None:
        before_start(table_id)

    # Player 1 starts the game (a plain form post: player 1's page navigates);
    # player 2's page switches to the game live.
    ann.live().get_by_role("button", name="Start the game").click()
    expect(ann.live()).to_have_attribute("data-status", "playing")
    ann.mark_page()
    expect(bob.live()).to_have_attribute("data-status", "playing")
    bob.assert_not_reloaded()
    return table_id


def play_a_game(server: ServerProcess, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    ann = Person(browser, server.base_url, "ann")
    bob = Person(browser, server.base_url, "bob")

    table_id = open_table_for_two(server, ann, bob, "tally")

    people = {0: ann, 1: bob}
    assert ann.state(table_id)["seat"] == 0 and bob.state(table_id)["seat"] == 1

    def check_secrecy(where: str) -> dict[int, dict[str, Any]]:
        states = {seat: p.state(table_id) for seat, p in people.items()}
        for seat, viewer in people.items():
            other = states[1 - seat]["view"]["hand"]
            assert_never_shown(viewer, other, where)
            # The viewer does see their own hand on their page.
            own = states[seat]["view"]["hand"]
            assert own and card_pattern(own).search(viewer.page.content()), f"{where}: own hand missing"
        return states

    states = check_secrecy("after the start")
    moves = 0
    shot_taken = False
    while True:
        snap = states[0]
        if snap["status"] != "playing":
            break
        (seat,) = snap["to_act"]
        mover, watcher = people[seat], people[1 - seat]
        mine = states[seat]
        assert mine["legal_moves"], mine

        if not shot_taken and moves >= 1:
            take_phone_screenshot(browser, server.base_url, mover, table_id)
            shot_taken = True

        move = mine["legal_moves"][-1]
        version = mine["version"]
        buttons = mover.live().locator(".board .actions button")
        expect(buttons).to_have_count(len(mine["legal_moves"]))
        expect(watcher.live().locator(".board .actions button")).to_have_count(0)
        mover.live().get_by_role("button", name=move_label(move), exact=True).click()
        moves += 1

        # Both pages move on to the new version without a reload.
        for person in (mover, watcher):
            expect(person.live()).to_have_attribute("data-version", str(version + 1))
            person.assert_not_reloaded()
        expect(watcher.live()).to_contain_text(move["card"])  # the played card is public
        states = check_secrecy(f"after move {moves}")
        assert states[0]["version"] == version + 1
        assert states[0]["view"]["played"][-1] == move["card"]

    assert moves == 6, moves  # 3 turns each
    for person in (ann, bob):
        expect(person.live()).to_have_attribute("data-status", "finished")
        person.assert_not_reloaded()
        assert person.frames, f"{person.name}'s page received no websocket frame"
        assert any(f"/ws/tables/{table_id}" in url for url in person.sockets)
    check_secrecy("at the end")


def take_phone_screenshot(browser: Any, base_url: str, person: Person, table_id: int) -> None:
    """The table page as the player to act sees it on a phone (390x844)."""
    phone = browser.new_context(
        base_url=base_url,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        storage_state=person.context.storage_state(),
    )
    try:
        page = phone.new_page()
        page.goto(f"/tables/{table_id}")
        page.locator("#table-live .board").wait_for()
        page.screenshot(path=str(PHONE_SHOT))
        page.screenshot(path=str(PHONE_SHOT.with_name("feytable-phone-full.png")), full_page=True)
    finally:
        phone.close()
