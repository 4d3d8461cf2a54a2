"""Learn to play (/learn/): the scripted hand shows each trick case, every explanation agrees
with the engine's verdict on the trick's cards, a refused card changes nothing, the lesson
restarts, works signed in or not, with or without htmx, and never shows a bot's unplayed
card."""

import ast
import random
import re
from pathlib import Path

import pytest

from games.bots import LEVEL_BOTS
from games.engine import (
    CARD_CODES,
    NotACard,
    NotInHand,
    card_name,
    deal,
    parse_card,
    trick_winner,
)
from games.engine.tricks import ONE_SUIT, PAIR, THREE_SUITS
from games.models import Game
from games.tutorial import lesson, script
from games.tutorial.lesson import END, RESULT, TURN, OutOfStep, Progress, advance, lesson_at
from games.tutorial.views import SESSION_KEY

CASES = [THREE_SUITS, PAIR, ONE_SUIT, THREE_SUITS, PAIR]


def suggested_path():
    """Every progress of the lesson, following its suggestions."""
    progress = advance(Progress(), "start")
    yield progress
    for code in script.SUGGESTED:
        progress = advance(progress, "card", code)
        yield progress
        progress = advance(progress, "next")
        yield progress


def random_path(rng: random.Random):
    """Every progress of the lesson, playing a random card of the hand each time."""
    progress = advance(Progress(), "start")
    yield progress
    while progress.phase != END:
        if progress.phase == TURN:
            hand = lesson_at(progress).view.hand
            progress = advance(progress, "card", CARD_CODES[rng.choice(hand)])
        else:
            progress = advance(progress, "next")
        yield progress


# -- the script and the lesson, without Django -----------------------------------------------


def test_the_lesson_modules_import_no_django():
    for name in ("script.py", "lesson.py"):
        tree = ast.parse((Path(lesson.__file__).parent / name).read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
        assert not {m for m in imported if m and m.split(".")[0] in ("django", "channels")}, name


def test_the_engine_deals_the_scripted_hands_from_the_scripted_deck():
    assert sorted(script.DECK) == list(range(48))
    assert deal(script.DECK, script.DEALER) == [sorted(hand) for hand in script.hands()]
    assert all(len(cards) == script.TRICKS for cards in script.BOT_CARDS.values())
    assert set(script.SUGGESTED) <= set(script.LEARNER_HAND)


def test_following_the_suggestions_shows_each_trick_case_within_three_tricks():
    end = list(suggested_path())[-1]
    tricks = lesson_at(end).tricks
    assert [trick.case.kind for trick in tricks] == CASES
    assert {trick.case.kind for trick in tricks[:3]} == {THREE_SUITS, PAIR, ONE_SUIT}
    # The cycle matters: a low Coin takes a King (trick 1), an Ace loses to a 7 (trick 4),
    # and a pair beats an odd card whose suit beats the pair's (trick 2).
    assert [CARD_CODES[t.cards[t.case.winner]] for t in tricks] == ["2O", "12C", "12O", "7C", "11E"]
    assert tricks[1].odd_suit_beats_pair and CARD_CODES[tricks[1].cards[tricks[1].odd]] == "1B"
    assert [t.learner_won for t in tricks] == [True, False, True, False, True]
    assert lesson_at(end).view.scores == (4, 0, 1)


@pytest.mark.parametrize("seed", range(40))
def test_every_explanation_agrees_with_the_engine_whatever_the_learner_plays(seed):
    for progress in random_path(random.Random(seed)):
        shown = lesson_at(progress)
        assert shown.view.winner is None  # the target is never reached in the lesson
        for trick in shown.tricks:
            # The case names the card the engine made the winner, by the rule as written.
            assert trick.seat_at(trick.case.winner) == trick.winner
            assert trick.case.winner == trick_winner(*trick.cards)
            suits = [card // 12 for card in trick.cards]
            assert trick.case.kind == {3: THREE_SUITS, 2: PAIR, 1: ONE_SUIT}[len(set(suits))]
            if trick.case.kind == THREE_SUITS:
                missing = ({0, 1, 2, 3} - set(suits)).pop()
                assert trick.chain[0] == (missing + 1) % 4 == suits[trick.case.winner]
                assert sorted(trick.chain) == sorted(suits)
            if trick.case.kind == PAIR:
                assert suits[trick.odd] != trick.case.suit
                assert trick.odd_suit_beats_pair == ((suits[trick.odd] + 1) % 4 == trick.case.suit)
            # "You could have taken it with": exactly the learner's other cards that win there.
            at = trick.cards.index(trick.learner_card)
            earlier = {t.learner_card for t in shown.tricks if t.number < trick.number}
            held = {parse_card(code) for code in script.LEARNER_HAND} - earlier
            for card in held - {trick.learner_card}:
                cards = list(trick.cards)
                cards[at] = card
                assert (card in trick.also_winning) == (trick_winner(*cards) == at)
            assert set(trick.also_winning) <= held


def test_a_forged_or_illegal_card_or_a_step_out_of_turn_is_refused():
    turn = advance(Progress(), "start")
    with pytest.raises(NotACard):
        advance(turn, "card", "99X")
    with pytest.raises(NotACard):
        advance(turn, "card", ["2O"])
    with pytest.raises(NotInHand):
        advance(turn, "card", "12C")  # Ana holds it
    with pytest.raises(NotInHand):
        advance(turn, "card", "12E")  # already on the table
    with pytest.raises(OutOfStep):
        advance(turn, "next")
    result = advance(turn, "card", "2O")
    assert result.phase == RESULT
    with pytest.raises(OutOfStep):
        advance(result, "card", "12O")
    assert turn == Progress(True, (), 0) and result == Progress(True, ("2O",), 0)


@pytest.mark.parametrize(
    "data",
    [
        None,
        "x",
        {"started": True, "cards": ["12C"], "read": 0},  # a bot's card
        {"started": True, "cards": ["2O", "2O"], "read": 1},
        {"started": True, "cards": ["2O"], "read": 2},
        {"started": False, "cards": ["2O"], "read": 0},
        {"started": 1, "cards": [], "read": 0},
        {"started": True, "cards": [23], "read": 0},  # a card number, not a code
        {"started": True, "cards": ["2O", "9C", "12O", "1E", "11E", "3E"], "read": 5},
    ],
)
def test_stored_progress_the_lesson_could_not_reach_starts_it_over(data):
    assert lesson.progress_from(data) == Progress()


# -- the page ---------------------------------------------------------------------------------

pages = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def lesson_html(client, htmx=False, **data) -> tuple[int, str]:
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post("/learn/", data, headers=headers)
    if response.status_code == 302:
        assert response["Location"] == "/learn/"
        response = client.get("/learn/")
    return response.status_code, response.content.decode()


def at(client) -> str:
    return str(lesson.progress_from(client.session.get(SESSION_KEY)).version)


@pages
@pytest.mark.parametrize("signed_in", [False, True])
def test_a_newcomer_plays_the_lesson_to_the_end_with_plain_form_posts(client, alice, signed_in):
    if signed_in:
        client.force_login(alice)
    html = client.get("/learn/").content.decode()
    assert "Step 1 of 7" in html and "Coins in two sentences" in html
    assert "Cups contain Coins, Coins buy Swords" in html  # the rules page's own words
    assert "Now play the first 5 tricks of a hand against two bots" in text_of(html)
    html = lesson_html(client, action="start", at="0")[1]
    assert "Step 2 of 7" in html and "Trick 1: your turn" in html
    assert "Ana led the King of Swords." in html and "Leo played the 4 of Clubs." in html
    assert "A card of Coins would make three different suits, with Cups missing" in text_of(html)
    assert re.search(r'class="card suggested" data-card="2O" data-verdict="wins"', html)
    assert "Play the 2 of Coins (suggested)" in html
    expected = [
        "Cups beat Coins, so with Cups missing Coins come first: Coins &gt; Swords &gt; Clubs.",
        "The Ace of Clubs is the odd card: it never wins, even though Clubs beat Cups.",
        "All three Coins: the King of Coins is highest.",
        "The 7 of Cups beats the 3 of Coins and the Ace of Swords, whatever their ranks.",
        "The Ace of Cups is the odd card, and the odd card never wins.",
    ]
    for number, (code, sentence) in enumerate(zip(script.SUGGESTED, expected, strict=True), 1):
        status, html = lesson_html(client, card=code, at=at(client))
        assert status == 200 and f"Step {number + 1} of 7" in html
        assert f'data-explain="result" data-trick="{number}"' in html and sentence in html, number
        html = lesson_html(client, action="next", at=at(client))[1]
    assert "You're ready" in html and "Step 7 of 7" in html
    assert len(re.findall(r"<li data-recap=", html)) == script.TRICKS
    assert 'href="/rules/"' in html and 'data-action="quick-play"' in html
    assert ('action="/games/quick-play/"' in html) == signed_in
    if signed_in:  # one click to a first game, against the easy bots
        form = re.search(r'<form[^>]*action="/games/quick-play/".*?</form>', html, re.S)[0]
        response = client.post(
            "/games/quick-play/", dict(re.findall(r'name="(\w+)" value="(\w+)"', form))
        )
        game = Game.objects.get(pk=int(re.search(r"/games/(\d+)/", response["Location"])[1]))
        bots = [seat.bot for seat in game.seats.all() if seat.is_bot]
        assert bots == [LEVEL_BOTS["easy"]] * 2


@pages
def test_after_each_trick_the_page_says_who_took_it_and_what_else_would_have(client):
    lesson_html(client, action="start", at="0")
    html = lesson_html(client, card="3C", at="1")[1]  # a Cup: Swords win (Coins missing)
    assert "Ana takes the trick and 0 points." in html
    assert "Against these two cards, you could have taken it with:" in html
    also = re.search(r'<ul class="learn-also-cards".*?</ul>', html, re.S)[0]
    winners = ["12O", "8O", "2O", "1E", "12B", "10B", "9B", "6B"]
    assert re.findall(r'data-card="([^"]+)"', also) == winners
    html = lesson_html(client, action="next", at=at(client))[1]
    assert "Ana led the King of Cups." in html  # Ana took the trick and leads the next one


@pages
def test_an_htmx_post_gets_only_the_lesson_and_focuses_its_heading(client, alice):
    client.force_login(alice)
    status, html = lesson_html(client, htmx=True, action="start", at="0")
    assert status == 200 and html.lstrip().startswith('<div id="learn"') and "<html" not in html
    assert re.search(r'<h2 tabindex="-1" autofocus>Trick 1: your turn</h2>', html)
    assert 'hx-post="/learn/"' in html and 'action="/learn/"' in html  # and without JavaScript
    assert "csrfmiddlewaretoken" in html


@pages
@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    "card, message",
    [
        ("99X", "That is not a card"),
        ("12C", "That card is not in your hand."),
        ("<b>", "That is not a card"),
    ],
)
def test_a_forged_card_is_refused_clearly_and_changes_nothing(client, htmx, card, message):
    lesson_html(client, action="start", at="0")
    before = dict(client.session[SESSION_KEY])
    status, html = lesson_html(client, htmx=htmx, card=card, at="1")
    assert status == (200 if htmx else 400) and message in html and "data-refusal" in html
    assert "Ana" not in text_of(re.search(r"data-refusal>(.*?)</p>", html)[1])  # whose hand: never
    assert client.session[SESSION_KEY] == before
    assert "Trick 1: your turn" in html


@pages
def test_a_step_out_of_turn_is_refused_and_an_old_form_changes_nothing(client):
    lesson_html(client, action="start", at="0")
    status, html = lesson_html(client, action="next", at="1")
    assert status == 400 and "That is not possible at this step of the lesson." in html
    lesson_html(client, card="2O", at="1")
    before = dict(client.session[SESSION_KEY])
    status, html = lesson_html(client, card="12O", at="1")  # the same form, posted again
    assert status == 200 and "data-refusal" not in html
    assert client.session[SESSION_KEY] == before and 'data-explain="result"' in html


@pages
def test_start_again_goes_back_to_the_introduction(client):
    lesson_html(client, action="start", at="0")
    lesson_html(client, card="2O", at="1")
    html = lesson_html(client, action="restart", at="2")[1]
    assert "Step 1 of 7" in html and client.session[SESSION_KEY] == Progress().to_data()
    html = lesson_html(client, action="start", at="0")[1]
    assert "Trick 1: your turn" in html and 'data-card="2O"' in html


def assert_no_bot_card(html: str, progress: Progress) -> None:
    shown = lesson_at(progress)
    public = set(shown.view.played) | {c for t in shown.tricks for c in t.cards}
    held = {card for hand in script.hands()[1:] for card in hand} - public
    for card in held:
        code = CARD_CODES[card]
        assert f'"{code}"' not in html and f">{code}<" not in html, (code, progress)
        assert card_name(card) not in html, (card_name(card), progress)


@pages
@pytest.mark.parametrize("seed", range(3))
def test_the_page_never_shows_a_card_a_bot_has_not_played(client, seed):
    rng = random.Random(seed)
    assert_no_bot_card(client.get("/learn/").content.decode(), Progress())
    before = Progress()
    for progress in random_path(rng):
        if not before.started:
            action = {"action": "start"}
        elif len(progress.cards) > len(before.cards):
            action = {"card": progress.cards[-1]}
        else:
            action = {"action": "next"}
        status, html = lesson_html(client, htmx=rng.random() < 0.5, at=at(client), **action)
        assert status == 200
        assert lesson.progress_from(client.session[SESSION_KEY]) == progress
        assert_no_bot_card(html, progress)
        before = progress


@pages
@pytest.mark.parametrize("name", ["/", "/games/", "/rules/"])
def test_newcomers_find_the_lesson_from_the_home_page_the_lobby_and_the_rules(client, name):
    assert 'href="/learn/"' in client.get(name).content.decode()


@pages
def test_the_lesson_speaks_the_readers_language(client):
    client.cookies["django_language"] = "es"
    lesson_html(client, action="start", at="0")
    html = lesson_html(client, card="2O", at="1")[1]
    assert "Tres palos, faltan Copas: ganan Oros." in html  # the rules page's sentence
