"""The pages: the list, a tournament with its standings, joining by a form, your table's
link once you are seated, and the polled partial (standings and your table only)."""

import pytest
from django.test import Client

from lab.benchmarks.pages import queries_of
from lab.benchmarks.tournament_pages import seed
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.pairing import tournament_advance
from tournaments.services import entry_join

pytestmark = pytest.mark.django_db


def test_the_list_and_a_page_for_a_visitor(client, make_tournament):
    tournament = make_tournament("arena", name="Friday arena")
    html = client.get("/tournaments/").content.decode()
    assert "Friday arena" in html and tournament.get_absolute_url() in html
    html = client.get(tournament.get_absolute_url()).content.decode()
    assert "Log in to join" in html and 'data-action="tournament-join"' not in html
    assert 'data-action="tournaments"' in client.get("/games/").content.decode()


def test_joining_by_the_form_then_your_table_is_ready(client, make_tournament, people):
    tournament = make_tournament("arena")
    first, *others = people(3)
    client.force_login(first)
    assert (
        'data-action="tournament-join"'
        in client.get(tournament.get_absolute_url()).content.decode()
    )
    response = client.post(f"/tournaments/{tournament.pk}/join/")
    assert response.status_code == 302 and Entry.objects.filter(user=first).exists()
    for person in others:
        entry_join(tournament_id=tournament.pk, user=person)
    tournament_advance(tournament_id=tournament.pk)
    game = TournamentGame.objects.get().game
    html = client.get(tournament.get_absolute_url()).content.decode()
    assert 'data-action="tournament-table"' in html and game.get_absolute_url() in html
    partial = client.get(tournament.get_absolute_url(), headers={"HX-Request": "true"})
    text = partial.content.decode()
    assert text.lstrip().startswith('<div id="tournament-live"') and "<html" not in text
    assert 'hx-trigger="every 3s"' in text and text.count("data-player=") == 3
    assert (
        'data-action="tournament-leave"'
        in client.get(tournament.get_absolute_url()).content.decode()
    )
    client.post(f"/tournaments/{tournament.pk}/leave/")
    assert Entry.objects.get(user=first).withdrawn


def test_joining_a_closed_tournament_says_why(client, make_tournament, alice):
    tournament = make_tournament("swiss")
    tournament_advance(tournament_id=tournament.pk)
    client.force_login(alice)
    response = client.post(f"/tournaments/{tournament.pk}/join/", follow=True)
    assert "can no longer be joined" in response.content.decode()
    assert not Entry.objects.exists()


def test_queries_per_page_do_not_grow_with_tournaments_or_entries():
    def counts() -> list[int]:
        last = Tournament.objects.order_by("pk").last()
        player = Entry.objects.filter(tournament=last).first().user
        visitor, member = Client(), Client()
        member.force_login(player)
        return [
            queries_of(visitor, "/tournaments/")[1],
            queries_of(visitor, last.get_absolute_url())[1],
            queries_of(member, last.get_absolute_url())[1],
        ]

    seed(tournaments=2, entries=3, people=30)
    few = counts()
    seed(tournaments=20, entries=30, people=30)
    assert Entry.objects.count() == 2 * 3 + 18 * 30
    assert counts() == few
