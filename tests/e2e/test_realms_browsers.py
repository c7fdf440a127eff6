"""Two real browsers (Debian's Chromium through Playwright) play a 2-player
game of Fantasy Realms (seed variant, the default) to the end against a real
server process on SQLite.

Player 1 registers and creates the table through the pages, player 2 comes
in through the invite link as a guest. They play by clicking the buttons of
the board (take the top card, take a card of the discard area, discard a
card), make and confirm their end-of-game choices, and both pages show the
final breakdown without a reload. Until the reveal, neither page's HTML nor
any websocket frame it received may name a card of the other hand that has
never been in the discard area; after it, both pages show every card of both
hands.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from app.games.realms.cards import BY_SLUG, by_no
from tests.e2e.conftest import WAIT_MS
from tests.e2e.test_two_browsers import Person, open_table_for_two
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("servers")]

SHOT_P1 = Path("/tmp/realms-end-p1.png")
SHOT_P2 = Path("/tmp/realms-end-p2.png")
PHONE = {"width": 390, "height": 844}
MAX_STEPS = 120  # the seed variant ends after 14 turns of 3 clicks; this only stops a runaway loop

# Card texts name other cards ("+30 with Rainstorm"): they say nothing about where those cards are.
EFFECT_TEXT = re.compile(r'<span class="card-effect">[^<]*</span>')
# The "Why" cells of the holder's own score preview quote those card texts too ("+40 (+15 with a
# Leader, or +40 with a Leader and Sword of Keth)"). The card of each line stays checked (its <th>).
WHY_CELL = re.compile(r"<td>[^<]*</td>")


def name_of(slug: str) -> str:
    return BY_SLUG[slug].name_en


def card_words(slugs: set[str]) -> re.Pattern[str] | None:
    """The cards' slugs and English names, each as a whole word ("King" not in "Making",
    "great-flood" not in "the-great-flood-x")."""
    if not slugs:
        return None
    words = {w for s in slugs for w in (s, name_of(s))}
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def checked_text(html: str) -> str:
    return WHY_CELL.sub("", EFFECT_TEXT.sub("", html))


def naming_exempt(view: dict[str, Any]) -> set[str]:
    """In the final-choices phase, a holder of Mirage (Shapeshifter) may name any card of cards 1-25
    (26-50): its select offers them all and its preview shows the name chosen. Naming them says
    nothing about where they lie (spec C51, C52); the server's own hidden_from exempts them alike."""
    if view["phase"] != "final_choices":
        return set()
    ranges = {"mirage": range(1, 26), "shapeshifter": range(26, 51)}
    held = [ranges[slug] for slug in view["hand"] if slug in ranges]
    return {c.slug for c in BY_SLUG.values() if any(c.no in r for r in held)}


class Player(Person):
    """A Person that also remembers which frames it has already cleaned for the secrecy check."""

    def __init__(self, browser: Any, base_url: str, name: str) -> None:
        super().__init__(browser, base_url, name)
        self.clean_frames: list[str] = []

    def frames_to_check(self) -> list[str]:
        while len(self.clean_frames) < len(self.frames):
            self.clean_frames.append(checked_text(self.frames[len(self.clean_frames)]))
        return self.clean_frames

    def version(self) -> int:
        return int(self.live().get_attribute("data-version"))


def assert_never_named(viewer: Player, secret: set[str], where: str) -> None:
    """No card of `secret` is named (slug or name) on the viewer's page now, nor in any frame
    the viewer's page has received so far."""
    pattern = card_words(secret)
    if pattern is None:
        return
    html = checked_text(viewer.page.content())
    found = pattern.search(html)
    assert found is None, (
        f"{where}: {viewer.name}'s page names {found.group(0)} from the other hand:\n"
        f"...{html[max(0, found.start() - 600) : found.end() + 200]}..."
    )
    for i, frame in enumerate(viewer.frames_to_check()):
        found = pattern.search(frame)
        assert found is None, (
            f"{where}: websocket frame {i} to {viewer.name} names {found.group(0)} "
            f"from the other hand:\n{viewer.frames[i][:2000]}"
        )


def test_two_browsers_play_fantasy_realms_to_the_end(server, browser):
    try:
        play_a_game(server, browser)
    except AssertionError as exc:
        log = server.log_tail(6000)
        raise AssertionError(f"{exc}\n----- server log ({server.log_path}) -----\n{log}") from exc


def play_a_game(server: ServerProcess, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    started = time.monotonic()
    rng = random.Random(7)
    ann = Player(browser, server.base_url, "ann")
    bob = Player(browser, server.base_url, "bob")
    bob.page.set_viewport_size(PHONE)  # player 2 plays on a phone-sized page

    def keeps_the_seed_variant(page: Any) -> None:
        assert page.input_value("#opt-two_player_variant") == "seed"  # the default, kept

    table_id = open_table_for_two(server, ann, bob, "realms", keeps_the_seed_variant)

    people = {0: ann, 1: bob}
    assert ann.state(table_id)["seat"] == 0 and bob.state(table_id)["seat"] == 1
    ever_discarded: set[str] = set()

    def check(where: str) -> dict[int, dict[str, Any]]:
        """Both API views; both pages on that version; the secrecy rule; own hands and buttons shown."""
        states = {seat: p.state(table_id) for seat, p in people.items()}
        assert states[0]["version"] == states[1]["version"], where
        version = states[0]["version"]
        for state in states.values():
            ever_discarded.update(state["view"]["discard_area"])
        for seat, viewer in people.items():
            expect(viewer.live()).to_have_attribute("data-version", str(version))
            viewer.assert_not_reloaded()
            if states[seat]["status"] == "finished":
                continue
            other = set(states[1 - seat]["view"]["hand"])
            secret = other - ever_discarded - naming_exempt(states[seat]["view"])
            assert_never_named(viewer, secret, f"{where} (v{version})")
            mine = states[seat]["view"]["hand"]
            own = card_words(set(mine))
            # The same matching does find the viewer's own cards on the viewer's page.
            assert own is None or own.search(checked_text(viewer.page.content())), f"{where}: no own card"
            shown = viewer.live().locator(".zone.hand .card-name").all_inner_texts()
            assert shown == [name_of(s) for s in mine], f"{where}: {viewer.name}'s hand {shown} != {mine}"
            if states[seat]["view"]["phase"] == "play":
                buttons = viewer.live().locator(".board form.move button")
                assert buttons.count() == len(states[seat]["legal_moves"]), (
                    f"{where}: {viewer.name} has {buttons.count()} move buttons for "
                    f"{len(states[seat]['legal_moves'])} legal moves"
                )
        return states

    def click_and_follow(person: Player, button: Any, what: str) -> None:
        before = person.version()
        button.click()
        try:
            expect(person.live()).not_to_have_attribute("data-version", str(before))
        except AssertionError as exc:
            error = person.page.locator("#move-error").inner_text()
            raise AssertionError(f"{person.name}: {what} did not go through (error: {error!r})") from exc

    states = check("after the start")
    counts = {"deck": 0, "discard area": 0, "discard": 0, "apply": 0, "confirm": 0}
    turns = 0
    for step in range(MAX_STEPS):
        snap = states[0]
        if snap["status"] == "finished":
            break
        assert snap["status"] == "playing", snap["status"]
        phase = snap["view"]["phase"]
        if phase == "play":
            (seat,) = snap["to_act"]
            mover = people[seat]
            view = states[seat]["view"]
            board = mover.live().locator(".board")
            taken = len(view["turn"]["taken"])
            discard_buttons = board.get_by_role("button", name=re.compile(r"^Discard "))
            deck_button = board.get_by_role("button", name="Take the top card", exact=True)
            pile_buttons = board.locator(".zone.discard").get_by_role("button", name=re.compile(r"^Take "))
            # Seed variant: with fewer than 7 cards, take two and discard one of them (T10a);
            # with 7, take one and discard one. Every third turn the first take is from the
            # discard area, so both kinds of take are clicked.
            wants_take = taken == 0 or (taken == 1 and view["turn"]["start_hand_size"] < 7)
            if wants_take:
                if taken == 0:
                    turns += 1
                from_pile = pile_buttons.count() > 0 and (turns % 3 == 0 or deck_button.count() == 0)
                if from_pile:
                    button = pile_buttons.first
                    label = button.inner_text()
                    card = label.removeprefix("Take ")
                    counts["discard area"] += 1
                else:
                    button, label, card = deck_button, "Take the top card", None
                    counts["deck"] += 1
                click_and_follow(mover, button, label)
                if card is not None:  # the card left the discard area, on both pages
                    for person in people.values():
                        names = person.live().locator(".zone.discard .card-name")
                        expect(names.filter(has_text=re.compile(rf"^{re.escape(card)}$"))).to_have_count(0)
            else:
                assert discard_buttons.count() >= 1, f"step {step}: no discard button for {mover.name}"
                button = discard_buttons.nth(rng.randrange(discard_buttons.count()))
                label = button.inner_text()
                click_and_follow(mover, button, label)
                counts["discard"] += 1
                card = label.removeprefix("Discard ")
                for person in people.values():  # the discarded card is public, on both pages
                    expect(person.live().locator(".zone.discard .card-name").last).to_have_text(card)
            states = check(f"after {mover.name}: {label}")
        else:
            assert phase == "final_choices", phase
            (seat,) = snap["to_act"][:1]
            person = people[seat]
            mine = states[seat]["view"]["final_choices"]["mine"]
            final = person.live().locator(".zone.final")
            expect(final.get_by_role("button", name="Confirm my choices")).to_be_visible()
            changeable = [c for c in mine["controls"] if len(c["values"]) > 1]
            if changeable:
                # Change one choice away from the server's pre-selection, then apply it.
                ctl = changeable[0]
                select = final.locator(f"#choice-{ctl['key']}")
                current = select.evaluate("s => s.selectedIndex")
                options = select.locator("option").count()
                select.select_option(index=(current + 1) % options)
                form = select.locator("xpath=ancestor::form[1]")
                click_and_follow(person, form.get_by_role("button", name="Apply"), "Apply")
                counts["apply"] += 1
                states = check(f"after {person.name} applied a choice for {ctl['key']}")
                mine = states[seat]["view"]["final_choices"]["mine"]
                assert not mine["confirmed"]
                assert mine["draft"].get(ctl["key"]) != ctl["value"], (
                    f"Apply did not change {person.name}'s {ctl['key']} choice "
                    f"(was {ctl['value']!r}, draft now {mine['draft']!r})"
                )
            click_and_follow(person, final.get_by_role("button", name="Confirm my choices"), "Confirm")
            counts["confirm"] += 1
            states = check(f"after {person.name} confirmed")
    else:
        pytest.fail(f"the game did not end within {MAX_STEPS} clicks: {counts}")

    assert counts["confirm"] == 2, counts
    assert counts["discard area"] >= 1 and counts["deck"] >= 1, counts
    snap = states[0]
    hands = snap["view"]["hands"]
    assert hands == states[1]["view"]["hands"] and len(hands) == 2
    assert all(len(h) == 7 for h in hands), hands
    assert len(snap["view"]["discard_area"]) >= 12
    result = snap["result"]
    scores = {r["seat"]: r["score"] for r in result["seats"]}
    winners = result["winners"]

    # The final breakdown, on both pages, without a reload.
    for person in people.values():
        live = person.live()
        expect(live).to_have_attribute("data-status", "finished")
        person.assert_not_reloaded()
        section = live.locator("section.result")
        expect(section.get_by_role("heading", name="Final scores")).to_be_visible()
        tables = section.locator("table.breakdown")
        expect(tables).to_have_count(2)
        for i in range(2):
            heads = tables.nth(i).locator("thead th").all_inner_texts()
            assert heads[:4] == ["Card", "Base", "Bonus", "Penalty"], heads
        captions = " | ".join(section.locator("caption").all_inner_texts())
        for seat, who in ((0, "Ann"), (1, "Bob")):
            assert f"{who}: {scores[seat]} points" in captions, captions
        assert captions.count("winner") == len(winners), captions
        # Every card of both hands is revealed: a breakdown line per card, on both pages.
        for i in range(2):
            caption = tables.nth(i).locator("caption").inner_text()
            seat = 0 if "Ann:" in caption else 1
            labels = tables.nth(i).locator("tbody th").all_inner_texts()
            assert len(labels) >= len(hands[seat]), (labels, hands[seat])
            for slug in hands[seat]:
                assert any(label.startswith(name_of(slug)) for label in labels), (
                    f"{person.name}'s page does not show {name_of(slug)} of seat {seat}: {labels}"
                )
        assert any('id="table-live"' in f for f in person.frames), f"{person.name}: no live frame"
        assert any(f"/ws/tables/{table_id}" in url for url in person.sockets)

    ann.page.screenshot(path=str(SHOT_P1), full_page=True)
    bob.page.screenshot(path=str(SHOT_P2), full_page=True)
    elapsed = time.monotonic() - started
    print(f"realms e2e: {counts}, scores {scores}, winners {winners}, {elapsed:.1f} s")


def test_card_words_match_whole_names_only():
    pattern = card_words({"king", "great-flood", by_no(53).slug})
    assert pattern is not None
    assert pattern.search("Ann took King.") and pattern.search('"card":"great-flood"')
    assert pattern.search("Doppelgänger")
    assert not pattern.search("Making the Great Floods") and not pattern.search("kingdom")
    assert checked_text('<span class="card-effect">+20 per Army with King</span>') == ""
