"""Opening a table and playing it through the API: every answer and status code the
contract gives (docs/bot-api.md), with nothing changed by a refused request."""

from datetime import timedelta

import pytest
from django.test import Client

from botapi.models import ApiGame
from games.bots import LEVEL_BOTS
from games.engine import CARD_CODES
from games.models import ChatMessage, Game, Play
from games.table import flow
from games.table.errors import NotSeated
from games.table.loading import game_load
from games.table.seats import ME, game_create
from tests.games.helpers import serve_due

from .helpers import my_cards, open_game, others_cards, play

pytestmark = pytest.mark.django_db

GAMES = "/api/games"
EASY = LEVEL_BOTS["easy"]


def post_json(client, url, body):
    return client.post(url, body, content_type="application/json")


# -- bot accounts ------------------------------------------------------------------------


def test_an_account_without_games_becomes_a_bot_for_good(alice, make_token):
    client = Client(headers={"Authorization": f"Bearer {make_token(alice)}"})
    assert client.post("/api/bot/account/upgrade").json() == {"ok": True}
    alice.refresh_from_db()
    assert alice.profile.is_bot


def test_an_account_that_played_cannot_become_a_bot(alice, make_token):
    game_create(creator=alice, target=10, seat_kinds=[ME, EASY, EASY])
    client = Client(headers={"Authorization": f"Bearer {make_token(alice)}"})
    response = client.post("/api/bot/account/upgrade")
    assert response.status_code == 400 and "error" in response.json()
    alice.refresh_from_db()
    assert not alice.profile.is_bot


def test_only_bot_accounts_open_tables_and_play(alice, make_token):
    client = Client(headers={"Authorization": f"Bearer {make_token(alice)}"})
    response = post_json(client, GAMES, {"opponents": ["easy", "easy"]})
    assert response.status_code == 403 and "upgrade" in response.json()["error"]
    assert client.post("/api/bot/game/1/play/1O").status_code == 403


def test_a_bot_account_cannot_play_from_the_site(robot, api):
    game = open_game(api)
    with pytest.raises(NotSeated):
        flow.play_card(game_id=game.pk, user=robot, card=my_cards(game)[0])
    with pytest.raises(NotSeated):
        game_create(creator=robot, target=10, seat_kinds=[ME, EASY, EASY])
    with pytest.raises(NotSeated):
        flow.resign(game_id=game.pk, user=robot)


# -- opening a table -----------------------------------------------------------------------


def test_a_table_against_two_site_bots_starts_at_once(robot, api, settings):
    response = post_json(api, GAMES, {"target": 15, "opponents": ["hard", "medium"], "rated": True})
    assert response.status_code == 201 and response.json().keys() == {"id"}
    game = Game.objects.get(pk=int(response.json()["id"]))
    seats = list(game.seats.order_by("number"))
    assert seats[0].user == robot and [s.bot for s in seats[1:]] == [
        LEVEL_BOTS["hard"],
        LEVEL_BOTS["medium"],
    ]
    assert game.status == Game.Status.IN_PROGRESS and game.target == 15 and game.is_rated
    assert game.clock == settings.COINS_API_DEFAULT_CLOCK
    assert ApiGame.objects.get(game=game).user == robot


def test_the_opponents_are_the_levels_asked_for(api):
    game = open_game(api, opponents=["hard", "medium"])
    bots = list(game.seats.order_by("number").values_list("bot", flat=True))
    assert bots == ["", LEVEL_BOTS["hard"], LEVEL_BOTS["medium"]]


def test_a_clock_is_as_asked_or_none(api):
    assert open_game(api, clock=60).clock == 60
    assert open_game(api, clock=None).clock is None


@pytest.mark.parametrize(
    "body",
    [
        {"target": 0},
        {"target": 100},
        {"target": "10"},
        {"target": True},
        {"opponents": ["easy"]},
        {"opponents": ["easy", "grandmaster"]},
        {"opponents": "easy,easy"},
        {"rated": "yes"},
        {"clock": 7},
        {"clock": True},
    ],
)
def test_bad_options_are_400_and_make_nothing(api, body):
    response = post_json(api, GAMES, {"opponents": ["easy", "easy"], **body})
    assert response.status_code == 400 and "error" in response.json()
    assert not Game.objects.exists()


@pytest.mark.parametrize("raw", ["{", "[1, 2]", '"text"'])
def test_a_body_that_is_not_a_json_object_is_400(api, raw):
    response = api.post(GAMES, raw, content_type="application/json")
    assert response.status_code == 400 and not Game.objects.exists()


# -- playing -------------------------------------------------------------------------------


def test_a_legal_card_is_played_and_the_move_count_returned(api):
    game = open_game(api)
    card = my_cards(game)[0]
    response = play(api, game, card)
    game.refresh_from_db()
    assert response.status_code == 200
    assert response.json() == {"ok": True, "moves": game.moves}
    assert Play.objects.filter(game=game, seat=0, card=card).exists()


def test_not_your_turn_is_409_and_the_same_card_again_is_applied_once(api, settings):
    settings.COINS_BOT_PAUSE = 1  # the bots answer later: seat 1 is to play after our card
    game = open_game(api)
    for _turn in range(60):  # to our turn, not as the trick's last card (we might lead next)
        game.refresh_from_db()
        state = game_load(game).state
        if game.to_play == 0 and len(state.trick) < 2:
            break
        if game.to_play == 0:  # we close this trick: play on to the next one
            play(api, game, CARD_CODES[state.legal_cards(0)[0]])
        serve_due(game.pk, later=timedelta(seconds=2))  # the bots, as a runner would, later
    legal = [CARD_CODES[card] for card in state.legal_cards(0)]
    first = legal[0]
    second = next(card for card in my_cards(game) if card != first)
    played = play(api, game, first).json()["moves"]
    plays = Play.objects.count()

    again = play(api, game, first)
    other = play(api, game, second)

    assert again.status_code == 200 and again.json() == {"ok": True, "moves": played}
    assert other.status_code == 409 and "turn" in other.json()["error"]
    assert Play.objects.count() == plays


@pytest.mark.parametrize("card", ["13O", "0C", "1o", "10", "OO"])
def test_an_unknown_card_is_400(api, card):
    game = open_game(api)
    response = play(api, game, card)
    assert response.status_code == 400 and "error" in response.json()
    assert not Play.objects.filter(game=game, seat=0).exists()


def test_a_card_of_another_hand_is_400_and_says_nothing_of_where_it_is(api):
    game = open_game(api)
    moves = game.moves
    response = play(api, game, others_cards(game)[0])
    assert response.status_code == 400
    assert response.json()["error"] == "That card is not in your hand."
    game.refresh_from_db()
    assert game.moves == moves


def test_a_missing_game_is_404_and_anothers_is_403(api, alice):
    other = game_create(creator=alice, target=10, seat_kinds=[ME, EASY, EASY])
    assert play(api, Game(pk=99999), "1O").status_code == 404
    assert play(api, other, "1O").status_code == 403


def test_resigning_ends_the_game_once(api):
    game = open_game(api)
    url = f"/api/bot/game/{game.pk}/resign"
    assert api.post(url).json() == {"ok": True}
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.abandoned_by == 0
    assert api.post(url).status_code == 409
    assert play(api, game, my_cards(game)[0]).status_code == 409


def test_chat_is_table_chat_with_its_limits(api, alice):
    game = open_game(api)
    url = f"/api/bot/game/{game.pk}/chat"
    assert post_json(api, url, {"text": "Good luck!"}).json() == {"ok": True}
    said = ChatMessage.objects.get()
    assert said.room == ChatMessage.Room.PLAYERS and said.text == "Good luck!"
    assert post_json(api, url, {"text": ""}).status_code == 400
    assert post_json(api, url, {"text": "<b>hi</b>"}).status_code == 400
    post_json(api, url, {"text": "two"})
    post_json(api, url, {"text": "three"})
    too_fast = post_json(api, url, {"text": "four"})
    assert too_fast.status_code == 400 and "fast" in too_fast.json()["error"]
    assert ChatMessage.objects.count() == 3
    elsewhere = game_create(creator=alice, target=10, seat_kinds=[ME, EASY, EASY])
    assert post_json(api, f"/api/bot/game/{elsewhere.pk}/chat", {"text": "x"}).status_code == 403
    assert post_json(api, "/api/bot/game/99999/chat", {"text": "x"}).status_code == 404


# -- records -------------------------------------------------------------------------------


def test_the_record_is_record_json_s(api, alice, client):
    game = open_game(api)
    response = api.get(f"/api/games/{game.pk}/record")
    assert response.status_code == 200 and response.json()["format"] == "coins-record/1"
    assert response.json() == client.get(f"/games/{game.pk}/record.json").json()


def test_a_private_game_of_others_has_no_record(api, alice):
    hidden = game_create(creator=alice, target=10, seat_kinds=[ME, EASY, EASY], is_public=False)
    assert api.get(f"/api/games/{hidden.pk}/record").status_code == 404
    assert api.get("/api/games/99999/record").status_code == 404
