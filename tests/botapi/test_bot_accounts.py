"""Bot accounts are marked as bots wherever their name shows, and rated apart from people:
their games never count on the boards of games between people, and boards that list no
bots leave them out."""

import pytest

from games.models import Game
from ratings.models import Leaderboard
from ratings.queue import queued_rate
from ratings.selectors import standings
from tests.games.helpers import serve_due

from .helpers import my_cards, open_game, play

pytestmark = pytest.mark.django_db


def finished_game(api, robot) -> Game:
    game = open_game(api, target=1, rated=True)
    for _turn in range(60):
        if game.status != Game.Status.IN_PROGRESS:
            break
        play(api, game, my_cards(game)[0])
        serve_due(game.pk)
        game.refresh_from_db()
    serve_due(game.pk)  # the aftermath: queued for rating
    queued_rate()  # as the ratings lane would
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.due_at is None
    return game


def test_a_bot_account_s_games_count_only_on_boards_that_take_bots(robot, api):
    people = Leaderboard.objects.create(name="People", slug="people", opponents="humans")
    bots = Leaderboard.objects.create(name="Bots", slug="bots", opponents="bots")
    unlisted = Leaderboard.objects.create(name="All", slug="all", listed="people")
    bots_only = Leaderboard.objects.create(name="Programs", slug="programs", listed="bots")
    game = finished_game(api, robot)
    assert not standings(people).filter(user=robot).exists()
    assert standings(bots).filter(user=robot).exists()
    assert not standings(unlisted).exists()
    # a board of bots ranks the program beside the site's levels it played, and no person
    listed = list(standings(bots_only))
    assert robot.pk in {line.user_id for line in listed}
    levels = {seat.bot for seat in game.seats.exclude(bot="")}
    assert levels and {line.bot for line in listed if not line.user_id} == levels
    assert {line.user_id for line in listed if line.user_id} == {robot.pk}


def test_the_bot_mark_shows_on_the_table_the_replay_the_player_page_and_boards(robot, api, client):
    game = finished_game(api, robot)
    Leaderboard.objects.create(name="Bots", slug="bots", opponents="bots")
    for url in (
        f"/games/{game.pk}/",
        f"/games/{game.pk}/replay/",
        "/players/robot/",
        "/leaderboards/bots/",
    ):
        html = client.get(url).content.decode()
        assert ">BOT</span>" in html, url
