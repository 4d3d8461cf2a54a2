"""What a game stream says, read from the database: gameFull, a gameState after every card
(bots' included) and at the end, seats taken over, chat lines; exactly the seat's view."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from botapi.news import game_news, running_games
from botapi.state import Snapshot
from games.engine import CARD_CODES
from games.models import Game, Seat
from games.table import flow
from tests.games.helpers import assert_no_hidden_cards, serve_due

from .helpers import my_cards, open_game, play

pytestmark = pytest.mark.django_db

STATE_KEYS = {
    "moves", "hand_number", "trick_number", "dealer", "leader", "to_play", "hand", "legal",
    "trick", "last_trick", "scores", "clock", "status", "winner",
}  # fmt: skip


def news(game, robot, seen=None, now=None):
    return game_news(game.pk, robot, 0, seen or Snapshot(), now=now)


def test_game_full_gives_the_players_and_the_seat_s_state(robot, api):
    game = open_game(api)
    (full,), seen = news(game, robot)
    assert full["type"] == "gameFull" and full["id"] == str(game.pk) and full["seat"] == 0
    assert full["target"] == 10
    assert [p["kind"] for p in full["players"]] == ["bot_account", "bot", "bot"]
    assert full["players"][0]["name"] == "robot"
    state = full["state"]
    assert state.keys() == STATE_KEYS
    assert sorted(state["hand"]) == sorted(my_cards(game))
    assert state["legal"] == (state["hand"] if state["to_play"] == 0 else [])
    assert state["status"] == "running" and state["winner"] is None
    assert len(state["moves"]) == game.moves and seen.moves == game.moves
    assert 0 < state["clock"] <= game.clock
    assert_no_hidden_cards(json.dumps(full), game, 0, game.moves)


def test_a_game_state_follows_every_card_with_the_bots_answers(robot, api):
    game = open_game(api)
    _full, seen = news(game, robot)
    play(api, game, my_cards(game)[0])
    game.refresh_from_db()
    lines, seen = news(game, robot, seen)
    states = [line for line in lines if line["type"] == "gameState"]
    assert len(states) == game.moves - len(_full[0]["state"]["moves"]) >= 1
    for number, state in enumerate(states):
        assert state.keys() == STATE_KEYS | {"type"}
        assert len(state["moves"]) == len(_full[0]["state"]["moves"]) + number + 1
        assert_no_hidden_cards(json.dumps(state), game, 0, len(state["moves"]))
    assert [s["clock"] is not None for s in states] == [False] * (len(states) - 1) + [True]
    assert news(game, robot, seen)[0] == []  # nothing new: nothing said


def test_a_whole_game_ends_with_a_finished_state(robot, api):
    game = open_game(api, target=1)
    _full, seen = news(game, robot)
    for _turn in range(60):
        _lines, seen = news(game, robot, seen)
        play(api, game, my_cards(game)[0])
        serve_due(game.pk)
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS:
            break
    lines, seen = news(game, robot, seen)
    last = lines[-1]
    assert last["type"] == "gameState" and last["status"] == "finished"
    assert last["winner"] == game.winner_seat and last["legal"] == [] and last["to_play"] is None
    assert seen.status == Game.Status.FINISHED


def test_a_resignation_ends_the_stream_with_an_abandoned_state(robot, api):
    game = open_game(api)
    _full, seen = news(game, robot)
    api.post(f"/api/bot/game/{game.pk}/resign")
    lines, _seen = news(game, robot, seen)
    assert [(line["type"], line["status"]) for line in lines] == [("gameState", "abandoned")]


def test_a_bot_that_stops_answering_is_played_for_then_taken_over(robot, api):
    game = open_game(api, clock=10)
    _full, seen = news(game, robot)
    # 11 s on, every clock has run out: the card played for the silent bot (twice), then a
    # stand-in for the rest of the game, which the site's bots play to its end
    serve_due(game.pk, later=timedelta(seconds=11))
    lines, seen = news(game, robot, seen)
    seat = Seat.objects.get(game=game, number=0)
    assert seat.stand_in and seat.auto_in_row == 2
    assert {"type": "seatTakenOver", "seat": 0, "by": seat.stand_in} in lines
    assert lines[-1]["type"] == "gameState" and lines[-1]["status"] == "finished"
    # over: any card is refused as "not now" (the hand may be empty: a game can end with it)
    card = (my_cards(game) or [CARD_CODES[0]])[0]
    assert play(api, game, card).status_code == 409


def test_chat_lines_of_the_players_room(robot, api):
    game = open_game(api)
    _full, seen = news(game, robot)
    api.post(f"/api/bot/game/{game.pk}/chat", {"text": "hi all"}, content_type="application/json")
    lines, _seen = news(game, robot, seen)
    assert lines == [{"type": "chatLine", "room": "player", "username": "robot", "text": "hi all"}]


def test_running_games_are_the_dealt_ones_not_over(robot, api):
    first, second = open_game(api), open_game(api)
    flow.resign(game_id=second.pk, user=robot, by_program=True)
    assert running_games(robot) == {first.pk}


def test_a_followed_game_says_what_a_replay_from_the_deal_says_to_the_end(robot, api):
    """The stream plays new cards on the state it keeps: over a whole game (hands dealt on
    the way included), each wake says exactly what reading the game from its deal says."""
    game = open_game(api, target=40)
    _full, seen = news(game, robot)
    for _turn in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS or seen.followed.state.hand_number >= 3:
            break
        play(api, game, my_cards(game)[0])
        serve_due(game.pk)
        now = timezone.now()  # both read the clock at one moment, however slow the machine
        followed_lines, followed = news(game, robot, seen, now)
        fresh = Snapshot(seen.moves, seen.status, seen.stand_ins)
        fresh_lines, fresh = news(game, robot, fresh, now)
        assert followed_lines == fresh_lines and followed.moves == fresh.moves
        assert followed.followed.cards == fresh.followed.cards
        seen = followed
    assert seen.followed.state.hand_number >= 3 or seen.status == "finished"


def test_a_card_s_wake_skips_the_chat_until_the_game_ends(robot, api):
    game = open_game(api)
    _full, seen = news(game, robot)
    said = api.post(f"/api/bot/game/{game.pk}/chat", {"text": "gl hf"}, "application/json")
    assert said.status_code == 200
    assert game_news(game.pk, robot, 0, seen, chat=False)[0] == []
    lines, seen = game_news(game.pk, robot, 0, seen, chat=True)
    assert [(line["type"], line["text"]) for line in lines] == [("chatLine", "gl hf")]
    api.post(f"/api/bot/game/{game.pk}/chat", {"text": "gg"}, "application/json")
    flow.resign(game_id=game.pk, user=robot, by_program=True)
    lines, _seen = game_news(game.pk, robot, 0, seen, chat=False)
    assert [line["type"] for line in lines] == ["gameState", "chatLine"]
