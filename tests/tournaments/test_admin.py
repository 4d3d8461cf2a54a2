"""Staff in the admin: tournaments listed with their leader, a new arena created, a player
removed with a reason, a tournament cancelled with one."""

import pytest

from tournaments.models import Entry, Tournament
from tournaments.services import entry_join

pytestmark = pytest.mark.django_db


def test_staff_create_an_arena_and_see_it_listed_with_its_leader(staff, make_tournament, alice):
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
    assert "Sunday arena" in listing and "alice (9)" in listing
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
