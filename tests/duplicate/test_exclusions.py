"""Staff keep a person off a day's standings, an event's, or the duplicate rating's board
(an admin inline, as on the leaderboards): the listed standings skip them and place the
others among themselves; their results still count for the others (they held the cards)."""

import pytest

from duplicate.event_services import event_start
from duplicate.models import DuplicateDay, DuplicateExclusion
from duplicate.rating import next_rate

from .conftest import DAY
from .helpers import an_event, event_play_out, finished_result

pytestmark = pytest.mark.django_db


def test_an_excluded_person_is_skipped_in_the_days_standings(client, alice, bob, carol):
    finished_result(alice, number=1, points=3, won=True, day=DAY)
    finished_result(bob, number=1, points=2, won=False, day=DAY)
    finished_result(carol, number=1, points=1, won=False, day=DAY)
    day = DuplicateDay.objects.get(date=DAY)
    DuplicateExclusion.objects.create(day=day, user=alice, reason="Played for a friend.")
    html = client.get("/duplicate/").content.decode()
    standings = html[html.index("duplicate-standings") :]
    assert 'data-standing="alice"' not in standings
    assert 'data-standing="bob"' in standings and "<td>1</td>" in standings  # bob is first
    results = client.get(f"/duplicate/{DAY.isoformat()}.json").json()["games"][0]["results"]
    assert [r["player"] for r in results] == ["alice", "bob", "carol"]  # the game's results
    assert results[1]["percent"] == 50.0  # bob still lost to alice on the cards


def test_an_excluded_person_is_skipped_in_the_events_standings(client, make_user):
    people = [make_user(f"x{n}") for n in range(6)]
    event = an_event(people)
    event_start(event.pk)
    event = event_play_out(event)
    DuplicateExclusion.objects.create(event=event, user=people[0], reason="Two accounts.")
    document = client.get(f"/duplicate/events/{event.pk}.json").json()
    listed = [s["player"] for s in document["standings"]]
    assert "x0" not in listed and len(listed) == 5
    assert document["standings"][0]["place"] == 1
    assert any(r["player"] == "x0" for d in document["deals"] for r in d["results"])
    html = client.get(f"/duplicate/events/{event.pk}/").content.decode()
    assert 'data-standing="x0"' not in html and 'data-standing="x1"' in html


def test_an_excluded_person_is_off_the_rating_board_and_the_others_move_up(
    client, close_the_day, alice, bob, carol
):
    for user, points in ((alice, 3), (bob, 2), (carol, 1)):
        finished_result(user, number=1, points=points, won=points == 3, day=DAY)
    close_the_day()
    next_rate()
    DuplicateExclusion.objects.create(user=alice, reason="Cheating.")
    client.force_login(bob)
    html = client.get("/duplicate/ratings/").content.decode()
    assert 'data-rated="alice"' not in html
    assert html.index('data-rated="bob"') < html.index('data-rated="carol"')
    assert "(rank 1)" in html  # bob's rank, alice not counted ahead of him


def test_staff_exclude_from_a_day_and_an_event_with_an_inline(admin_client, alice, bob):
    finished_result(alice, number=1, points=3, won=True, day=DAY)
    day = DuplicateDay.objects.get(date=DAY)
    event = an_event([alice, bob])
    for page in (
        f"/admin/duplicate/duplicateday/{day.pk}/change/",
        f"/admin/duplicate/duplicateevent/{event.pk}/change/",
    ):
        html = admin_client.get(page).content.decode()
        assert 'name="exclusions-TOTAL_FORMS"' in html and "exclusions-__prefix__-reason" in html
    form = {
        "exclusions-TOTAL_FORMS": 1,
        "exclusions-INITIAL_FORMS": 0,
        "exclusions-MIN_NUM_FORMS": 0,
        "exclusions-MAX_NUM_FORMS": 1000,
        "exclusions-0-user": alice.pk,
        "exclusions-0-reason": "Two accounts.",
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "tables-TOTAL_FORMS": 0,
        "tables-INITIAL_FORMS": 0,
    }
    response = admin_client.post(
        f"/admin/duplicate/duplicateevent/{event.pk}/change/",
        {"name": event.name, "target": 3, "bot": "", "deals": 3, "clock": "", **form},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert DuplicateExclusion.objects.get(event=event).user == alice
    assert admin_client.get("/admin/duplicate/duplicateexclusion/").status_code == 200
