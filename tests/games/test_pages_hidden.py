"""Hidden information over HTTP: no page, partial, record or message shows a card its viewer
may not know of (another seat's hand), at any point of a whole game.
"""

import html as html_lib
import json
import random
import re

import pytest
from django.test import Client
from django.utils.html import escape

from games.engine import CARD_CODES, card_name, verify_public_record
from games.models import Game
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import (
    assert_no_hidden_cards,
    board_moves,
    hand_cards,
    hidden_cards_for,
    serve_due,
    state_after,
)

pytestmark = pytest.mark.django_db


def three_humans(alice, bob, carol, target: int) -> tuple[Game, dict]:
    game = services.game_create(creator=alice, target=target, seat_kinds=["me", "open", "open"])
    services.seat_join(game_id=game.pk, user=bob)
    services.seat_join(game_id=game.pk, user=carol)
    game.refresh_from_db()
    return game, {seat.number: seat.user for seat in game.seats.select_related("user")}


def own_cards(game: Game, seat: int) -> list[str]:
    state = game_load(Game.objects.get(pk=game.pk)).state
    return [CARD_CODES[card] for card in state.hands[seat]]


def page_for(client, game: Game, htmx: bool = False) -> str:
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(game.get_absolute_url(), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def client_of(user) -> Client:
    """A browser of its own for ``user`` (None: signed out), logged in once."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def assert_no_hidden_code_in_text(html: str, state, seat: int | None) -> None:
    """Stricter than the helper: no hidden card's code as a word of the visible text or of an
    attribute, even HTML-escaped (the helper looks for ``"1O"`` and ``>1O<`` only)."""
    text = html_lib.unescape(re.sub(r"<svg.*?</svg>", " ", html, flags=re.S))
    words = set(re.findall(r"(?<![\w-])(1[0-2]|[1-9])([COEB])(?!\w)", text))
    leaked = {CARD_CODES[card] for card in hidden_cards_for(state, seat)} & {
        rank + suit for rank, suit in words
    }
    assert not leaked, (seat, leaked)


def check_pages(game: Game, viewers: list, moves: int) -> None:
    """Every viewer's page shows its own hand and no card that another seat still holds."""
    state = state_after(game, moves)
    for client, seat in viewers:
        for htmx in (False, True) if seat is None else (False,):
            html = page_for(client, game, htmx=htmx)
            assert board_moves(html) == moves, (seat, moves)
            assert_no_hidden_cards(html, game, seat, moves)
            assert_no_hidden_code_in_text(html, state, seat)
            assert game.seed not in html
            if seat is None:
                assert 'id="hand"' not in html
            else:
                own = sorted(CARD_CODES[card] for card in state.hands[seat])
                assert sorted(hand_cards(html)) == own, (seat, moves)


def check_running_record(client, game: Game, moves: int) -> None:
    """The running game's record lists played cards only: never a card someone still holds."""
    client.logout()
    response = client.get(f"{game.get_absolute_url()}record.json")
    assert response.status_code == 200
    text = response.content.decode()
    record = json.loads(text)
    assert record["status"] == "in_progress" and '"deck"' not in text and game.seed not in text
    verify_public_record(record)
    state = state_after(game, moves)
    held = {CARD_CODES[card] for hand in state.hands for card in hand}
    shown = {code for trick in record["hands"][-1]["tricks"] for code in trick["cards"]}
    assert not shown & held, (moves, shown & held)
    assert shown == {CARD_CODES[card] for card in state.played}
    assert len(record["hands"]) == state.hand_number


def test_no_page_or_record_ever_shows_a_card_another_seat_holds(
    client, alice, bob, carol, make_user
):
    # A hand hands out 12 points, so a target of 13 always deals a second hand.
    game, users = three_humans(alice, bob, carol, target=13)
    people = [(users[seat], seat) for seat in range(3)] + [(None, None), (make_user("dave"), None)]
    viewers = [(client_of(user), seat) for user, seat in people]
    rng = random.Random(20221001)
    check_pages(game, viewers, 0)
    check_running_record(client, game, 0)
    moves, new_hands = 0, 0
    for _move in range(48 * 13):  # 13 points can take at most a dozen hands
        state = game_load(Game.objects.get(pk=game.pk)).state
        hand_number, seat = state.hand_number, state.to_play
        card = CARD_CODES[rng.choice(state.hands[seat])]
        result = flow.play_card(game_id=game.pk, user=users[seat], card=card)
        moves += 1
        assert result.moves == moves
        after = result.loaded.state
        new_hands += after.hand_number != hand_number
        over = after.winner is not None
        # Every move of the first four tricks and around each new deal, then every fourth
        # (each place in a trick in turn, as 4 and 3 share no factor; to stay fast). Once
        # over, the seats' unplayed cards must stay private on the pages; the record, which
        # then reveals the decks, is checked only while the game runs.
        if moves <= 12 or moves % 4 == 0 or after.trick_number in (1, 2, 16) or over:
            check_pages(game, viewers, moves)
            if not over:
                check_running_record(client, game, moves)
        if over:
            break
    else:
        raise AssertionError("the game did not end")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and moves > 48 and new_hands >= 1


def test_a_private_tables_invited_spectator_sees_no_hand(client, alice, bob, carol):
    game = services.game_create(
        creator=alice, target=10, seat_kinds=["me", "random", "random"], is_public=False
    )
    serve_due(game.pk)
    flow.play_card(game_id=game.pk, user=alice, card=own_cards(game, 0)[0])
    game.refresh_from_db()
    client.force_login(bob)
    for htmx in (False, True):
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.get(
            f"{game.get_absolute_url()}?invite={game.invite_token}", headers=headers
        )
        html = response.content.decode()
        assert response.status_code == 200 and 'id="hand"' not in html
        assert_no_hidden_cards(html, game, None)


# -- refusal messages -----------------------------------------------------------------------


def refusal(client, game: Game, user, card: str) -> tuple[str, str]:
    """Play ``card`` as ``user`` over HTTP; return the one message and the page showing it."""
    client.force_login(user)
    moves = Game.objects.get(pk=game.pk).moves
    response = client.post(f"/games/{game.pk}/play/", {"card": card}, follow=True)
    assert Game.objects.get(pk=game.pk).moves == moves
    texts = [str(message) for message in response.context["messages"]]
    assert len(texts) == 1
    html = response.content.decode()
    assert escape(texts[0]) in html
    return texts[0], html


def names_of(code: str) -> list[str]:
    return [code, card_name(CARD_CODES.index(code))]


def test_playing_an_opponents_card_never_tells_whose_card_it_is(client, alice, bob, carol):
    game, users = three_humans(alice, bob, carol, target=10)
    for _ in range(4):  # a finished trick and one card of the next: played cards exist
        state = game_load(Game.objects.get(pk=game.pk)).state
        seat = state.to_play
        flow.play_card(game_id=game.pk, user=users[seat], card=own_cards(game, seat)[0])
    state = game_load(Game.objects.get(pk=game.pk)).state
    seat = state.to_play
    played = CARD_CODES[state.last_trick.cards[0]]
    messages = set()
    for other in ((seat + 1) % 3, (seat + 2) % 3):
        for code in own_cards(game, other)[:4]:
            text, html = refusal(client, game, users[seat], code)
            messages.add(text)
            assert "seat" not in text.lower()
            assert not any(name in text for name in names_of(code))
            assert_no_hidden_cards(html, game, seat)
    # A card someone holds and a card already played are refused the same way: no oracle.
    messages.add(refusal(client, game, users[seat], played)[0])
    assert messages == {"That card is not in your hand."}


def test_playing_out_of_turn_never_tells_who_holds_the_card(client, alice, bob, carol):
    game, users = three_humans(alice, bob, carol, target=10)
    seat = game.to_play
    waiting = (seat + 1) % 3
    messages = set()
    for holder in range(3):
        code = own_cards(game, holder)[0]
        text, html = refusal(client, game, users[waiting], code)
        messages.add(text)
        assert not any(name in text for name in names_of(code))
        assert_no_hidden_cards(html, game, waiting)
    assert len(messages) == 1 and "not your turn" in messages.pop()


def test_a_spectator_playing_a_card_learns_nothing_about_it(client, alice, bob, carol, make_user):
    game, _users = three_humans(alice, bob, carol, target=10)
    dave = make_user("dave")
    texts = set()
    for seat in range(3):
        code = own_cards(game, seat)[0]
        text, html = refusal(client, game, dave, code)
        texts.add(text)
        assert not any(name in text for name in names_of(code))
        assert_no_hidden_cards(html, game, None)
    assert len(texts) == 1 and "not seated" in texts.pop()
