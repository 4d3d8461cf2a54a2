"""Every player: each page kind passes axe-core, fits a phone, and the table can be played
by keyboard and followed by ear, at 1280 and 360 px."""

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.models import Profile
from botapi.tokens import token_create
from botarena.models import Entrant
from duplicate.days import today
from duplicate.event_services import event_join, event_start
from duplicate.models import DuplicateEvent, DuplicateRating, EventTable
from duplicate.services import duplicate_play
from friends import services as friends
from games.models import Game, Play
from games.table import seats as services
from puzzles.services import puzzle_answer
from ratings.models import Leaderboard
from tests.games.helpers import play_out
from tests.puzzles.helpers import analysed as with_puzzles
from tournaments.models import Tournament
from tournaments.services import entry_join

from .actions import PLAYABLE, analysed, board_moves, drop_connection, sign_up
from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
SIZES = {"desktop": (1280, 800), "phone": (360, 740)}


def axe_violations(page) -> list[dict]:
    """Run axe-core (vendored: tests may be offline) on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))"
        ".slice(0, 4)}))"
    )
    return found


def sideways_scroll(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def too_wide(page) -> list[str]:
    """The elements that stick out of the viewport on the right (to say what to fix)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('body *'))
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .filter(e => !e.parentElement.closest('[data-scrolls], table'))
        .slice(0, 6).map(e => e.tagName + '.' + e.className + '#' + e.id
          + ' ' + Math.round(e.getBoundingClientRect().right))"""
    )


def pages_of_every_kind(base: str, user, django_user_model) -> dict[str, str]:
    waiting = services.game_create(creator=user, target=10, seat_kinds=["me", "open", "random"])
    running = services.game_create(
        creator=user, target=20, seat_kinds=["me", "careful", "careful"], is_rated=False
    )
    finished = play_out(
        services.game_create(creator=user, target=5, seat_kinds=["me", "random", "random"]), user
    )
    analysed(finished)  # the replay, the result panel and the player page show the analysis
    puzzled = play_out(  # a game whose (hand-made) analysis makes puzzles
        services.game_create(creator=user, target=5, seat_kinds=["me", "random", "random"]), user
    )
    answered = puzzled.puzzles.get(move=with_puzzles(puzzled, count=2)[1])  # the other: served
    puzzle_answer(puzzle_id=answered.pk, user=user, card=answered.view["hand"][0])
    with override_settings(COINS_DUPLICATE_BOT="random", COINS_DUPLICATE_TARGET=3):
        play_out(duplicate_play(user=user, number=1, day=today()), user)  # a result to show
    DuplicateRating.objects.create(  # a duplicate rating to show, as a closed day leaves it
        user=user, mu=27.0, sigma=6.0, ordinal=27.0 - 18.0, results=3, last_day=today()
    )
    event = DuplicateEvent.objects.create(name="Winter duplicate", target=3, bot="random")
    event_join(user=user, event_id=event.pk)
    event_start(event.pk)  # the person and two bots: one table, the person in seat 0
    play_out(EventTable.objects.get(event=event).game, user)  # results and standings to show
    open_event = DuplicateEvent.objects.create(name="Spring duplicate")
    board = Leaderboard.objects.create(name="All time", slug="all-time")
    soon = timezone.now() + timedelta(hours=1)
    arena = Tournament.objects.create(
        name="Evening arena", kind="arena", starts_at=soon, ends_at=soon + timedelta(hours=1)
    )
    entry_join(tournament_id=arena.pk, user=user)
    friend = django_user_model.objects.create_user(f"{user.username}f", password="pw-Coins-123")
    for suffix, status in (("b", Entrant.Status.ACTIVE), ("p", Entrant.Status.PAUSED)):
        program = django_user_model.objects.create_user(f"{user.username}{suffix}")
        Profile.objects.update_or_create(user=program, defaults={"is_bot": True})
        Entrant.objects.create(user=program, owner="Ada", status=status, played=12, wins=5)
    Entrant.objects.create(level="hard", games=12, played=12, wins=6)
    for one, other in ((user, friend), (friend, user)):
        friends.follow(user=one, username=other.username)
    token_create(user=user, name="my bot", scopes=["bot:play"])
    friends.invite_to_new_table(
        sender=friend, username=user.username, target=10, clock=None, third_seat="open", rated=True
    )
    return {
        "home": "/",
        "rules": "/rules/",
        "learn": "/learn/",
        "lobby": "/games/",
        "new table": "/games/new/",
        "table waiting": f"/games/{waiting.pk}/",
        "table mid-game": f"/games/{running.pk}/",
        "table finished": f"/games/{finished.pk}/",
        "replay": f"/games/{finished.pk}/replay/",
        "player": f"/players/{user.username}/",
        "history": f"/players/{user.username}/games/",
        "settings": "/accounts/profile/",
        "friends": "/friends/",
        "invite a friend": f"/friends/invite/{friend.username}/",
        "leaderboards": "/leaderboards/",
        "leaderboard": f"/leaderboards/{board.slug}/",
        "puzzle": "/puzzles/",
        "puzzle answered": f"/puzzles/{answered.pk}/",
        "daily duplicate": "/duplicate/",
        "duplicate rating": "/duplicate/ratings/",
        "duplicate event": f"/duplicate/events/{event.pk}/",
        "duplicate event open": f"/duplicate/events/{open_event.pk}/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{arena.pk}/",
        "bot arena": "/bots/",
        "api tokens": "/account/tokens/",
        "challenges": "/challenges/",
    }


# Learn to play, after its introduction: a turn, a trick's result, the end.
LESSON_STEPS = [
    ("learn turn", "[data-action=start]"),
    ("learn result", "#hand button.suggested"),
    *[
        step
        for _ in range(4)
        for step in (("learn turn", "[data-action=next]"), ("learn result", "#hand .suggested"))
    ],
    ("learn end", "[data-action=next]"),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_page_kind_has_no_axe_violations_and_no_sideways_scroll(
    live_server_url, new_page, django_user_model, size, scheme
):
    page = new_page()
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{live_server_url}/accounts/signup/")
    problems = {"sign up": axe_violations(page)}
    username = f"axe{size[:3]}{scheme[0]}"
    sign_up(page, live_server_url, username)
    user = django_user_model.objects.get(username=username)
    scroll = {}
    for kind, path in pages_of_every_kind(live_server_url, user, django_user_model).items():
        page.goto(f"{live_server_url}{path}")
        if kind.startswith("table"):
            page.wait_for_selector("body[data-ws='open']")
        problems[kind] = axe_violations(page)
        scroll[kind] = sideways_scroll(page) and too_wide(page)
    page.goto(f"{live_server_url}/learn/")
    for kind, button in LESSON_STEPS:  # the lesson's other kinds of step, swapped in by htmx
        page.click(button)
        page.wait_for_selector(f"#learn[data-phase='{kind.split()[1]}']")
        problems[kind] = problems.get(kind, []) + axe_violations(page)
        scroll[kind] = scroll.get(kind) or (sideways_scroll(page) and too_wide(page))
    print(json.dumps(problems, indent=1))
    print(scroll)
    assert not {kind: found for kind, found in problems.items() if found}
    assert not {kind: px for kind, px in scroll.items() if px > 0}


LISTEN = """() => {
  const out = document.getElementById('announcer');
  window.heard = [];
  new MutationObserver(() => window.heard.push(out.textContent))
    .observe(out, {childList: true, characterData: true, subtree: true});
}"""


def active_card(page) -> str | None:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e && e.closest('#hand') && e.dataset ? (e.dataset.card || 'hand') : null; }"
    )


def start_casual_game(page, base: str, username: str, django_user_model) -> Game:
    sign_up(page, base, username)
    user = django_user_model.objects.get(username=username)
    game = services.game_create(
        creator=user, target=20, seat_kinds=["me", "careful", "careful"], is_rated=False
    )
    page.goto(f"{base}/games/{game.pk}/")
    page.wait_for_selector("body[data-ws='open']")
    return game


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_table_plays_by_keyboard_and_speaks_each_card(
    live_server_url, page, django_user_model, size
):
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    start_casual_game(page, live_server_url, f"kim{size[:2]}", django_user_model)
    page.evaluate(LISTEN)
    page.wait_for_selector(PLAYABLE)
    assert page.locator("h1").count() == 1 and page.locator("#announcer[aria-live]").count()

    # A hint marks its card and puts the focus on it.
    page.click('[data-action="hint"]')
    page.wait_for_selector("#table-message[data-hint-card]")
    hinted = page.locator("#table-message").get_attribute("data-hint-card")
    assert page.locator(f"#hand button.hinted[data-card='{hinted}']").count() == 1
    assert active_card(page) == hinted

    # Arrow keys walk the hand; Enter plays the card that has the focus.
    cards = page.locator(PLAYABLE).evaluate_all("els => els.map(e => e.dataset.card)")
    page.locator(f"{PLAYABLE}[data-card='{cards[0]}']").focus()
    page.keyboard.press("ArrowRight")
    assert active_card(page) == cards[1]
    page.keyboard.press("End")
    assert active_card(page) == cards[-1]
    page.keyboard.press("ArrowLeft")
    chosen = active_card(page)
    assert chosen == cards[-2]
    name = page.locator(f"#hand [data-card='{chosen}'] .sr-only").inner_text()
    before = board_moves(page)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
    )
    # The card was announced, and once the bots have answered the focus is back in the hand.
    page.wait_for_selector(PLAYABLE)
    page.wait_for_function("() => (window.heard || []).join(' ').includes('Your turn.')")
    heard = " ".join(page.evaluate("() => window.heard"))
    assert f"kim{size[:2]}: {name.removeprefix('Play the ')}." in heard, heard
    assert active_card(page) is not None

    # Three cards make a trick: its winner and points are said too.
    for _ in range(4):
        before = board_moves(page)
        page.locator(PLAYABLE).first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
        )
        page.wait_for_selector(f"#game-result, {PLAYABLE}")
    heard = " ".join(page.evaluate("() => window.heard"))
    assert re.search(r"takes the trick and \d+ points?\.|won \d+ points?\.", heard), heard
    # The trick just won is in view without scrolling: on the table until its winner leads
    # (then it is not repeated beside it), afterwards as the last trick.
    won = "#trick.complete" if page.locator("#trick.complete").count() else ".felt #last-trick"
    box = page.locator(won).bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (won, box)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_cards_cannot_be_played_while_the_connection_is_down(
    live_server_url, page, django_user_model, size
):
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    game = start_casual_game(page, live_server_url, f"lou{size[:2]}", django_user_model)
    page.wait_for_selector(PLAYABLE)
    moves = Game.objects.get(pk=game.pk).moves
    drop_connection(page)
    page.wait_for_selector("body[data-ws='closed']")
    assert page.locator("#hand button.card:not([disabled])").count() == 0
    page.locator("#hand button.card").first.click(force=True)  # a click does nothing
    page.wait_for_selector("body[data-ws='open']", timeout=20_000)
    page.wait_for_selector(PLAYABLE)  # back: the hand is playable again
    assert Game.objects.get(pk=game.pk).moves == moves  # and nothing was played meanwhile
    # A double click plays one card, without "It is not your turn".
    page.locator(PLAYABLE).first.dblclick()
    page.wait_for_function(
        "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=moves
    )
    page.wait_for_timeout(500)
    assert page.locator("#table-message").inner_text().strip() == ""
    assert Play.objects.filter(game=game, seat=0).count() == 1


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_table_reads_at_a_glance_on_a_phone_and_a_desktop(
    live_server_url, new_page, django_user_model, size, language
):
    page = new_page()
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    username = f"v{size[:2]}{language}"
    game = start_casual_game(page, live_server_url, username, django_user_model)
    if language != "en":
        from accounts.models import Profile

        Profile.objects.filter(user__username=username).update(language=language)
        page.goto(f"{live_server_url}/games/{game.pk}/")
        page.wait_for_selector("body[data-ws='open']")
    page.wait_for_selector(PLAYABLE)
    assert sideways_scroll(page) <= 0, too_wide(page)
    boxes = page.locator("#hand button.card").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.offsetTop, r.width, r.height]; })"  # offsetTop: a lifted card is in its row
    )
    room = page.locator("#hand form").evaluate("e => e.clientWidth")
    assert len({top for top, _, _ in boxes}) <= 2, (room, boxes)  # the hand in two rows at most
    assert all(w >= 44 and h >= 44 for _, w, h in boxes), boxes  # tap targets
    # While it is your turn: the trick, the scores and the target in view without scrolling.
    for spot in ("#trick", "[data-score-seat='0']", "[data-score-seat='1']", ".table-info strong"):
        box = page.locator(spot).first.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (spot, box)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"table-{width}-{language}.png"), full_page=True)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_dark_preference_darkens_the_site_and_keeps_it_readable(
    live_server_url, new_page, django_user_model, size
):
    page = new_page()
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme="dark")
    start_casual_game(page, live_server_url, f"dark{size[:2]}", django_user_model)
    background = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(20, 23, 29)", background  # the dark paper
    assert axe_violations(page) == []  # every page kind: the axe test above, dark too
