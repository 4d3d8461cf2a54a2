"""Nobody sees an event's table but the people seated there while the event runs, even once
the table has ended (the same deals are being played elsewhere, or were, by people still
to be compared): not by any page, list, record, analysis, invite link or the event's own
page and JSON. Once the event has finished, every table of it is open to all."""

import re

import pytest

from duplicate.event_services import event_start
from games.models import Game

from .helpers import an_event, event_play_out, finish, tables_of
from .test_privacy import LISTS, decks_of, game_pages

pytestmark = pytest.mark.django_db


@pytest.fixture
def six(make_user):
    return [make_user(f"e{n}") for n in range(6)]


def seated_at(game: Game) -> set[int]:
    return {seat.user_id for seat in game.seats.all() if seat.user_id}


def assert_nothing_shown(client, event, game: Game, viewer):
    client.logout() if viewer is None else client.force_login(viewer)
    for path in game_pages(game):
        assert client.get(path).status_code in (403, 404), (path, viewer)
    players = [seat.user.username for seat in game.seats.select_related("user") if seat.user]
    lists = [
        *LISTS,
        *(f"/players/{name}/" for name in players),
        *(f"/players/{name}/games/" for name in players),
        f"/duplicate/events/{event.pk}/",
        f"/duplicate/events/{event.pk}.json",
    ]
    for path in lists:
        text = client.get(path).content.decode()
        assert not re.search(rf"/games/{game.pk}/", text), (path, viewer)
        assert all(deck not in text for deck in decks_of(game)), (path, viewer)


def test_before_the_event_finishes_its_tables_are_their_players_alone(client, six, make_user):
    event = an_event(six)
    event_start(event.pk)
    ended, running = (table.game for table in tables_of(event, 1))
    finish(ended, (3, 1, 0), winner=0)  # ended, but the event goes on
    for game, other in ((ended, running), (running, ended)):
        rival = next(p for p in six if p.pk in seated_at(other))  # plays the same deal
        for viewer in (None, make_user(f"stranger{game.pk}"), rival):
            assert_nothing_shown(client, event, game, viewer)
        client.force_login(next(p for p in six if p.pk in seated_at(game)))
        assert client.get(f"/games/{game.pk}/").status_code == 200  # its own players see it


def test_once_the_event_has_finished_every_table_is_open_to_all(client, six, make_user):
    event = an_event(six)
    event_start(event.pk)
    event = event_play_out(event)
    games = [table.game for table in event.tables.select_related("game")]
    client.force_login(make_user("stranger"))
    for game in games:
        assert client.get(f"/games/{game.pk}/replay/").status_code == 200
        record = client.get(f"/games/{game.pk}/record.json")
        assert record.status_code == 200
    html = client.get(f"/duplicate/events/{event.pk}/").content.decode()
    assert {int(n) for n in re.findall(r"/games/(\d+)/replay/", html)} == {g.pk for g in games}
    client.logout()
    assert client.get(f"/games/{games[0].pk}/replay/").status_code == 200
