"""Staff exclude people from a tournament in the admin, with a reason shown to them: an
excluded person is not listed, cannot join, and one who is playing is removed as by
``entry_remove`` (their game plays on and scores them nothing; no table after it)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from tournaments.models import Entry, TournamentExclusion, TournamentGame
from tournaments.pairing import tournament_advance
from tournaments.selectors import active_entries, standings
from tournaments.services import TournamentError, entry_join, exclusion_add

from .helpers import finish

pytestmark = pytest.mark.django_db


def change_form(tournament, exclusions: list[dict], initial: int = 0) -> dict:
    """The admin's change form of ``tournament`` as a browser posts it, with these rows of
    the exclusions inline (the entries inline is read-only: no rows)."""
    data = {
        "kind": tournament.kind,
        "name": tournament.name,
        "starts_at_0": tournament.starts_at.strftime("%Y-%m-%d"),
        "starts_at_1": tournament.starts_at.strftime("%H:%M:%S"),
        "ends_at_0": tournament.ends_at.strftime("%Y-%m-%d"),
        "ends_at_1": tournament.ends_at.strftime("%H:%M:%S"),
        "clock": "",
        "target": str(tournament.target),
        "max_players": str(tournament.max_players),
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "exclusions-TOTAL_FORMS": str(len(exclusions)),
        "exclusions-INITIAL_FORMS": str(initial),
    }
    for index, row in enumerate(exclusions):
        for field, value in row.items():
            data[f"exclusions-{index}-{field}"] = value
        data[f"exclusions-{index}-tournament"] = str(tournament.pk)
    return data


def test_staff_exclude_a_player_and_an_outsider_in_the_admin(staff, make_tournament, people):
    tournament = make_tournament("arena")
    persons = people(4)
    for person in persons:
        entry_join(tournament_id=tournament.pk, user=person)
    assert tournament_advance(tournament_id=tournament.pk) == 1  # p0, p1, p2 at a table
    playing, outsider = persons[0], people(1, prefix="outsider")[0]
    rows = [
        {"user": str(playing.pk), "reason": "Playing two accounts", "id": ""},
        {"user": str(outsider.pk), "reason": "Banned from events", "id": ""},
    ]
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    response = staff.post(url, change_form(tournament, rows))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert TournamentExclusion.objects.filter(tournament=tournament).count() == 2

    # The player at a table is removed, with the reason, as by entry_remove.
    entry = Entry.objects.get(user=playing)
    assert entry.removed and entry.reason == "Playing two accounts"
    assert playing.pk not in {e.user_id for e in standings(tournament)}
    # Their game plays on and scores them nothing; the others score.
    finish(TournamentGame.objects.get().game)
    entry.refresh_from_db()
    assert entry.games == 0 and entry.points == 0
    assert Entry.objects.filter(user__in=persons[1:3], games=1).count() == 2
    # No table after it: the three others are seated (with bots after the wait), not them.
    later = timezone.now() + timedelta(minutes=5)
    tournament_advance(tournament_id=tournament.pk, now=later)
    assert Game.objects.filter(seats__user=playing).count() == 1

    # The outsider cannot join, sees why, and is offered no Join.
    with pytest.raises(TournamentError, match="Banned from events"):
        entry_join(tournament_id=tournament.pk, user=outsider)
    page = Client()
    page.force_login(outsider)
    html = page.get(tournament.get_absolute_url()).content.decode()
    assert "data-removed" in html and "Banned from events" in html
    assert 'data-action="tournament-join"' not in html
    assert 'data-player="outsider0"' not in html and 'data-player="p0"' not in html
    listing = staff.get("/admin/tournaments/tournament/").content.decode()
    assert '<td class="field-players">3</td>' in listing  # the three not removed


def test_an_exclusion_wins_over_an_entry_staff_put_back(make_tournament, people):
    tournament = make_tournament("swiss", starts_at=timezone.now() + timedelta(hours=1))
    persons = people(4)
    for person in persons:
        entry_join(tournament_id=tournament.pk, user=person)
    exclusion_add(tournament_id=tournament.pk, user=persons[3], reason="Abusive in chat")
    Entry.objects.filter(user=persons[3]).update(removed=False)  # edited in the entries admin
    assert persons[3].pk not in {e.user_id for e in standings(tournament)}
    assert persons[3].pk not in {e.user_id for e in active_entries(tournament)}
    with pytest.raises(TournamentError, match="Abusive in chat"):
        entry_join(tournament_id=tournament.pk, user=persons[3])
    tournament_advance(tournament_id=tournament.pk, now=timezone.now() + timedelta(hours=2))
    assert not Game.objects.filter(seats__user=persons[3]).exists()
    assert Game.objects.filter(seats__user__in=persons[:3]).distinct().count() == 1


def test_an_exclusion_needs_a_reason_and_changes_nothing_without_one(make_tournament, alice):
    tournament = make_tournament("arena")
    with pytest.raises(TournamentError, match="reason"):
        exclusion_add(tournament_id=tournament.pk, user=alice, reason="  ")
    assert not TournamentExclusion.objects.exists() and not Entry.objects.exists()


def test_lifting_an_exclusion_in_the_admin_deletes_it(staff, make_tournament, alice):
    tournament = make_tournament("arena")
    exclusion = exclusion_add(tournament_id=tournament.pk, user=alice, reason="Mistake")
    row = {"user": str(alice.pk), "reason": "Mistake", "id": str(exclusion.pk), "DELETE": "on"}
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    response = staff.post(url, change_form(tournament, [row], initial=1))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert not TournamentExclusion.objects.exists()
    assert Entry.objects.get(user=alice).removed  # until staff untick it on the entry
