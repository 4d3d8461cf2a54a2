"""Staff in the admin: tournaments listed with their podium and games, a new arena
created, the standings and each table's result readable, a player removed with a reason, a
tournament cancelled with one."""

import pytest

from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.pairing import tournament_advance
from tournaments.selectors import standings
from tournaments.services import entry_join

from .helpers import finish

pytestmark = pytest.mark.django_db


def test_staff_create_an_arena_and_see_it_listed_with_its_leader(staff, make_tournament, alice):
    assert staff.get("/admin/tournaments/tournament/add/").status_code == 200
    response = staff.post(
        "/admin/tournaments/tournament/add/",
        {
            "kind": "arena",
            "name": "Sunday arena",
            "starts_at_0": "2040-01-01",
            "starts_at_1": "18:00:00",
            "ends_at_0": "2040-01-01",
            "ends_at_1": "19:00:00",
            "clock": "30",
            "target": "10",
            "is_rated": "on",
            "max_players": "60",
            "cancel_reason": "",
            "entries-TOTAL_FORMS": "0",
            "entries-INITIAL_FORMS": "0",
            "exclusions-TOTAL_FORMS": "0",
            "exclusions-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Sunday arena")
    entry_join(tournament_id=tournament.pk, user=alice)
    Entry.objects.filter(user=alice).update(points=9)
    listing = staff.get("/admin/tournaments/tournament/").content.decode()
    assert "Sunday arena" in listing and "1. alice (9)" in listing
    assert staff.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").status_code == 200


def test_staff_remove_a_player_and_cancel_a_tournament_with_reasons(staff, make_tournament, bob):
    tournament = make_tournament("arena")
    entry = entry_join(tournament_id=tournament.pk, user=bob)
    staff.post(
        "/admin/tournaments/entry/",
        {"action": "remove", "_selected_action": [entry.pk], "reason": "Rude in chat"},
    )
    entry.refresh_from_db()
    assert entry.removed and entry.reason == "Rude in chat"
    staff.post(
        "/admin/tournaments/tournament/",
        {"action": "cancel", "_selected_action": [tournament.pk], "reason": "Power cut"},
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.cancel_reason == "Power cut"


def test_staff_read_the_standings_and_each_tables_result(staff, make_tournament, people):
    tournament = make_tournament("swiss", rounds=1, name="Monday Swiss")
    persons = people(4)  # a table of three and a bye
    for person in persons:
        entry_join(tournament_id=tournament.pk, user=person)
    tournament_advance(tournament_id=tournament.pk)
    for tournament_game in TournamentGame.objects.all():
        finish(tournament_game.game)
    leader = standings(tournament).first()

    listing = staff.get("/admin/tournaments/tournament/").content.decode()
    assert f"1. {leader.user} ({leader.points})" in listing and "2 games: list them" in listing
    page = staff.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert 'class="tournament-results"' in page
    row = (
        f"<tr><td>1</td><td>{leader.user}</td><td>{leader.points}</td><td>1</td>"
        f"<td>{leader.wins}</td><td>{leader.game_points}</td></tr>"
    )
    assert row in page
    assert page.count("<tr><td>") >= 4  # every player ranked

    games = staff.get(
        f"/admin/tournaments/tournamentgame/?tournament__id__exact={tournament.pk}"
    ).content.decode()
    for tournament_game in TournamentGame.objects.select_related("game"):
        winner = tournament_game.game.seats.get(number=tournament_game.game.winner_seat)
        assert f"1. ★ {winner.user or winner.bot} {winner.score}" in games
