"""The Qwixx Card Game end to end in a real headless Chromium (Debian's, driven by Playwright, as in
test_web_browser.py): the host sets the game up on the setup page, two phones in separate browser contexts and the
table screen play a few turns, dealt by the table and with real cards. On every step each page is checked to show
no colour it may not: a phone sees its own hand in colour and the others' hands, the tableau and the table
screen only by their numbers. Screenshots of every page land in out/browser-failures/ when something fails."""
from __future__ import annotations


from tests.test_web_browser import browser  # noqa: F401 (a fixture)
from tests.test_web_browser import caught_up, hears_states, screenshots_on_failure, unlock_host
from tests.web_helpers import PIN, served, wait_until

import pytest

PLAYERS = ("Ann", "Bob")
COLOUR_CLASSES = ("c-red", "c-yellow", "c-green", "c-blue", "joker")


@pytest.fixture
def address(app):
    with served(app) as url:
        yield url


def game_of(table):
    """The game being played now (each action gives the table a new game object)."""
    return lambda: table.session.game


def set_up_cards(page, address: str, deal: str) -> None:
    """The setup page, as the host fills it in: the card game for Ann and Bob, Ann first."""
    page.goto(f"{address}/setup")
    page.check("input[name=variant][value=cards]")
    assert page.is_visible("#deal-choice") and not page.is_visible("#match-choice")
    assert "birthday" in page.inner_text("#starter-hint")
    page.check(f"input[name=deal][value={deal}]")
    page.click("button[aria-label='Remove Player 3']")
    for index, name in enumerate(PLAYERS):
        page.fill(f"#player-{index}", name)
    assert page.eval_on_selector_all("#starter option", "nodes => nodes.map(node => node.textContent)") == list(PLAYERS)
    page.select_option("#starter", "0")
    page.click("#setup button[type=submit]")
    unlock_host(page, PIN)  # the first host action asks for the PIN
    page.wait_for_url(f"{address}/table")


def join(browser, address: str, person: int):  # noqa: F811 (browser: the fixture's value)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = hears_states(context.new_page())
    page.goto(address + "/")
    page.click(f"#join-{person}")
    page.wait_for_selector(".sheet")
    return page


def shown_colours(page, selector: str) -> list[str]:
    """The colour of every card under `selector` that shows one: "c-red", ..., "joker"; a number side shows none."""
    classes = page.eval_on_selector_all(f"{selector} .playing-card", "nodes => nodes.map(node => node.className)")
    return [name for value in classes for name in value.split() if name in COLOUR_CLASSES]


def check_nothing_hidden_shows(table, pages: dict) -> None:
    """Each phone shows its own hand in colour and every other card that is not face up by its number only; so does
    the table screen, which shows no hand's colour at all."""
    state = table.state()
    game = table.session.game
    for seat, player in enumerate(game.players):
        page = pages[player]
        # A page that has not yet had the last live update would still show the hand from before it.
        caught_up(page, state)
        own = sorted(f"c-{card.colour}" if not card.is_joker else "joker" for card in game.hand(player))
        page.wait_for_function("count => document.querySelectorAll('.hand .playing-card').length === count"
                               " && !document.querySelector('.hand .playing-card.back')", arg=len(own))
        assert sorted(shown_colours(page, ".hand")) == own
        assert shown_colours(page, ".others") == [] and shown_colours(page, ".middle .card-row") == []
    screen = pages["table"]
    caught_up(screen, state)
    assert shown_colours(screen, "#scores") == [] and shown_colours(screen, "#card-middle .card-row") == []


def test_a_dealt_card_game_on_two_phones_and_the_table_screen(browser, app, table, address):  # noqa: F811
    screen = hears_states(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    pages = {"table": screen}
    with screenshots_on_failure(pages, "cards-dealt"):
        set_up_cards(screen, address, "shuffled")
        game = game_of(table)
        assert table.session.kind == "cards" and game().dealt
        pages.update({name: join(browser, address, person) for person, name in enumerate(PLAYERS)})
        for turn in range(4):
            active = pages[game().active]
            check_nothing_hidden_shows(table, pages)
            # Action 1: the active player takes a card from the tableau; the number is announced everywhere.
            active.click("#slot-2")
            active.click("#confirm")
            wait_until(lambda: game().phase.value == "number", "the announced number")
            screen.wait_for_selector(f"#white-sum >> text='{game().announced}'")
            assert screen.inner_text("#sum-label") == "the number"
            check_nothing_hidden_shows(table, pages)
            # Action 2: everyone crosses the number in the first row offered, or passes.
            for player in game().players:
                page = pages[player]
                # The decision before this one drawn: its live update would take the options away a while, between
                # a tap on a box and Cross.
                caught_up(page, table.state())
                page.wait_for_selector("#pass")
                if page.query_selector(".box.legal"):
                    page.click(".box.legal")
                    page.click("#confirm")
                else:
                    page.click("#pass")
                wait_until(lambda: game().phase.value != "number" or player not in game().waiting_for,
                           f"{player}'s decision")
            # Action 3: the active player plays their first card, crossing nothing or its number as offered. The
            # answer to the active player's own last decision may come before the live update and offer the hand
            # with the choices of the action before; the live update has the phone ask for its hand again.
            caught_up(active, table.state())
            active.wait_for_selector("#hand-0")
            active.click("#hand-0")
            active.click("#play-0")
            active.click("#confirm")
            wait_until(lambda: game().turn == turn + 1, f"turn {turn + 1}")
            played = game().last_play
            screen.wait_for_selector(f"#news >> text={played.player} played")
            for page in pages.values():  # a played card is shown face up to everyone
                caught_up(page, table.state())  # else the last play before may still show, of as many cards
                page.wait_for_function("count => document.querySelectorAll('.last-play .playing-card').length === count",
                                       arg=len(played.cards))
                assert shown_colours(page, ".last-play") == [f"c-{card.colour}" for card in played.cards]
        check_nothing_hidden_shows(table, pages)
        # The hands under the names on the table screen: a 10, 11 or 12 on one line, not a 1 over a 0.
        screen.evaluate("""() => document.querySelector('#scores').append(
            Qwixx.el('span', { class: 'mini-cards', id: 'wide-numbers' }, [10, 11, 12].map((n) => QwixxCards.card([null, n]))))""")
        lines = screen.eval_on_selector_all("#wide-numbers .num, #scores .mini-cards .num", """nodes => nodes.map((node) =>
            Math.round(node.getBoundingClientRect().height / (1.2 * parseFloat(getComputedStyle(node).fontSize))))""")
        assert lines and set(lines) == {1}, lines
        for seat, player in enumerate(game().players):  # the sheets on the table screen are the referee's
            assert f"{player}" in screen.inner_text("#scores")
            total = pages[player].inner_text(".sheet .total")
            assert total == f"Total {game().score(player).total}"
    for page in pages.values():
        page.context.close()


def to_the_number_7(screen, browser, address, game, pages: dict) -> None:  # noqa: F811
    """A real-cards game on the table screen and two phones (added to `pages`), Ann first; the host entered 7."""
    set_up_cards(screen, address, "real-cards")
    pages.update(zip(PLAYERS, (join(browser, address, person) for person in range(2))))
    assert "You hold 4 cards" in pages["Ann"].inner_text(".hand")
    screen.click("#announce-7")
    screen.click("#enter-number")
    wait_until(lambda: game().announced == 7, "the number 7")


def to_anns_real_play(screen, browser, address, game, pages: dict) -> None:  # noqa: F811
    """As to_the_number_7, then Bob crossed red 7 and Ann passed."""
    to_the_number_7(screen, browser, address, game, pages)
    ann, bob = pages["Ann"], pages["Bob"]
    bob.click("#box-red-7.legal")
    bob.click("#confirm")
    ann.click("#pass")
    wait_until(lambda: game().phase.value == "play", "Ann's play")


def test_real_cards_told_on_the_table_screen_and_the_phones(browser, app, table, address):  # noqa: F811
    """Real cards: the host enters the announced number on the table screen, then the phones decide, and the active
    phone says which cards it plays; the referee offers the ways to cross them."""
    screen = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    pages = {"table": screen}
    with screenshots_on_failure(pages, "cards-real"):
        game = game_of(table)
        to_anns_real_play(screen, browser, address, game, pages)
        ann, bob = pages["Ann"], pages["Bob"]
        # Ann plays red 5 and 6 and crosses both (her red 2-4 skipped: before a play's first cross is free).
        ann.click("#colour-red")
        ann.click("#card-5")
        ann.click("#card-6")
        # The plays of red 5 alone may show until the page has the answer for red 5 and 6.
        ann.wait_for_selector(".play-options button >> text=Cross red 5 and 6")
        labels = ann.eval_on_selector_all(".play-options button", "nodes => nodes.map(node => node.textContent)")
        assert "Cross red 5 and 6 · skips 3 · 0 → 3 points" in labels, labels
        ann.click("text=Cross red 5 and 6")
        ann.click("#confirm")
        wait_until(lambda: game().turn == 1, "Bob's turn")
        assert game().sheet("Ann").rows[0].marks == (5, 6) and game().sheet("Bob").rows[0].marks == (7,)
        screen.wait_for_selector("#news >> text=Ann played red 5 and red 6, crossing 5 and 6.")
        # Bob's turn: he announces on his phone; a card of two colours at once is refused with the rule.
        bob.click("#announce-3")
        bob.click("#confirm")
        wait_until(lambda: game().phase.value == "number", "the number 3")
        bob.click("#pass")
        ann.click("#pass")
        wait_until(lambda: game().phase.value == "play", "Bob's play")
        bob.click("#colour-blue")
        bob.click("#card-9")
        bob.click("#colour-green")
        bob.click("#card-9")
        bob.wait_for_selector(".refusal >> text=Cards played together must be one colour, not green and blue.")
        bob.click("#played-1")  # takes the green 9 back
        bob.wait_for_selector(".play-options button")
        bob.click("#play-0")
        bob.click("#confirm")
        wait_until(lambda: game().turn == 2, "Ann's turn again")
        screen.wait_for_selector("#prompt >> text=Ann's turn: draw to 5 cards")
        screen.wait_for_selector("#enter-number")  # the host may announce for Ann again
    for page in pages.values():
        page.context.close()


def test_a_late_answer_for_cards_since_changed_is_not_shown(browser, app, table, address):  # noqa: F811
    """The referee's ways to play the cards chosen before the last tap, answered after those of the cards chosen
    now, do not take their place (a quick tapper saw the plays of other cards, or none)."""
    screen = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    pages = {"table": screen}
    with screenshots_on_failure(pages, "cards-late-answer"):
        to_anns_real_play(screen, browser, address, game_of(table), pages)
        ann = pages["Ann"]
        held = []
        ann.route("**/api/options", lambda route: held.append(route) if not held else route.continue_())
        ann.click("#colour-red")
        ann.click("#card-5")  # its question is held back
        ann.click("#card-6")
        ann.wait_for_selector(".play-options button >> text=Cross red 5 and 6")
        with ann.expect_response("**/api/options"):
            held[0].continue_()
        ann.wait_for_timeout(300)  # time for the page to act on the late answer
        labels = ann.eval_on_selector_all(".play-options button", "nodes => nodes.map(node => node.textContent)")
        assert labels == ["Cross nothing · penalty −5", "Cross red 5 · skips 3 · 0 → 1 point",
                          "Cross red 6 · skips 4 · 0 → 1 point", "Cross red 5 and 6 · skips 3 · 0 → 3 points"], labels
    for page in pages.values():
        page.context.close()


def test_an_answer_older_than_a_live_update_is_not_shown(browser, app, table, address):  # noqa: F811
    """Ann's pass is answered (the table waiting for Bob) only after the live update of Bob's choice reached her phone:
    the phone stays at her play rather than going back to waiting for Bob."""
    screen = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    pages = {"table": screen}
    with screenshots_on_failure(pages, "cards-old-answer"):
        game = game_of(table)
        to_the_number_7(screen, browser, address, game, pages)
        ann, bob = pages["Ann"], pages["Bob"]
        held = []
        ann.route("**/api/act", lambda route: held.append((route, route.fetch())))
        ann.click("#pass")
        while not held:
            ann.wait_for_timeout(20)
        assert game().waiting_for == ("Bob",)
        bob.click("#box-red-7.legal")
        bob.click("#confirm")
        wait_until(lambda: game().phase.value == "play", "Ann's play")
        ann.wait_for_selector(".prompt >> text=Your play")
        route, answer = held[0]
        assert answer.json()["game"]["waiting_for"] == [1]
        route.fulfill(response=answer)
        ann.wait_for_timeout(300)  # time for the page to act on the answer
        assert ann.inner_text(".prompt").startswith("Your play"), ann.inner_text(".prompt")
    for page in pages.values():
        page.context.close()


def test_one_phone_plays_two_people_and_shows_each_their_own_hand(browser, app, table, address):  # noqa: F811
    screen = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    pages = {"table": screen}
    with screenshots_on_failure(pages, "cards-two-people"):
        set_up_cards(screen, address, "shuffled")
        game = game_of(table)
        pages["phone"] = phone = join(browser, address, 0)
        phone.click("#add-person")
        phone.click("#join-1")
        unlock_host(phone, PIN)  # the host lets this phone play Bob too
        phone.wait_for_selector("#tab-1[aria-pressed=true]")
        for seat in (1, 0):
            phone.click(f"#tab-{seat}")
            own = sorted(f"c-{card.colour}" if not card.is_joker else "joker" for card in game().hand(PLAYERS[seat]))
            phone.wait_for_function("count => document.querySelectorAll('.hand .playing-card').length === count"
                                    " && !document.querySelector('.hand .playing-card.back')", arg=len(own))
            assert sorted(shown_colours(phone, ".hand")) == own
            assert shown_colours(phone, ".others") == []
    for page in pages.values():
        page.context.close()
