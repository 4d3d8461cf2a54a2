"""The duplicate rating: a closed day's games rated by matchpoints (ties as ties), once, from
the runners' spare time, shown on its own board and on the day's page; the game ratings and
their boards are not touched."""

from datetime import date

import pytest

from duplicate import rating
from duplicate.models import DuplicateDay, DuplicateRating, DuplicateRatingEvent
from duplicate.rating import next_rate, rating_due
from games.signals import runner_idle
from lab.benchmarks.bursts import at_once
from ratings.models import Leaderboard, PlayerRating, RatingEvent

from .conftest import DAY
from .helpers import finished_result

pytestmark = pytest.mark.django_db


def mu_of(user) -> float:
    return DuplicateRating.objects.get(user=user).mu


def test_a_closed_day_is_rated_game_by_game_in_matchpoint_order(close_the_day, alice, bob, carol):
    for user, points, won in ((alice, 3, True), (bob, 2, False), (carol, 1, False)):
        finished_result(user, number=1, points=points, won=won, day=DAY)
    finished_result(carol, number=2, points=3, won=True, day=DAY)  # alone: nobody to compare
    assert not rating_due() and next_rate() is None  # the day is still open
    close_the_day()
    assert rating_due()
    assert next_rate().date == DAY
    events = {e.rating.user.username: e for e in DuplicateRatingEvent.objects.all()}
    assert {name: (e.number, e.place, e.players) for name, e in events.items()} == {
        "alice": (1, 1, 3),
        "bob": (1, 2, 3),
        "carol": (1, 3, 3),
    }
    assert mu_of(alice) > mu_of(bob) > mu_of(carol)
    assert [e.percent for e in (events["alice"], events["bob"], events["carol"])] == [
        100.0,
        50.0,
        0.0,
    ]
    assert DuplicateRating.objects.get(user=carol).results == 1  # game 2 was not rated
    assert DuplicateDay.objects.get().rated_at is not None and not rating_due()


def test_a_win_beats_more_points_and_equal_results_tie(close_the_day, alice, bob, carol):
    finished_result(alice, number=1, points=2, won=False, day=DAY)
    finished_result(bob, number=1, points=2, won=False, day=DAY)
    finished_result(carol, number=1, points=0, won=True, day=DAY)  # won on the bots' points
    close_the_day()
    next_rate()
    places = {e.rating.user_id: e.place for e in DuplicateRatingEvent.objects.all()}
    assert places == {carol.pk: 1, alice.pk: 2, bob.pk: 2}
    assert mu_of(alice) == pytest.approx(mu_of(bob)) and mu_of(carol) > mu_of(alice)


def test_days_are_rated_oldest_first_each_from_the_ratings_the_last_one_left(
    monkeypatch, alice, bob
):
    second = date(2040, 3, 2)
    for day, winner, loser in ((DAY, alice, bob), (second, bob, alice)):
        finished_result(winner, number=1, points=3, won=True, day=day)
        finished_result(loser, number=1, points=1, won=False, day=day)
    monkeypatch.setattr("duplicate.days.today", lambda: date(2040, 3, 3))
    assert next_rate().date == DAY and next_rate().date == second
    assert next_rate() is None
    first_day, second_day = (
        DuplicateRatingEvent.objects.filter(rating__user=alice, day__date=d).get()
        for d in (DAY, second)
    )
    assert second_day.mu_before == first_day.mu_after and second_day.mu_after < first_day.mu_after
    assert DuplicateRating.objects.get(user=alice).last_day == second


def test_rating_again_changes_nothing(close_the_day, alice, bob):
    finished_result(alice, number=1, points=3, won=True, day=DAY)
    finished_result(bob, number=1, points=1, won=False, day=DAY)
    close_the_day()
    runner_idle.send(sender=None)
    ratings = list(DuplicateRating.objects.order_by("pk").values())
    runner_idle.send(sender=None)
    assert next_rate() is None
    assert list(DuplicateRating.objects.order_by("pk").values()) == ratings
    assert DuplicateRatingEvent.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_fifty_way_burst_of_the_rating_job_rates_the_day_once(close_the_day, alice, bob, carol):
    for user, points in ((alice, 3), (bob, 2), (carol, 1)):
        finished_result(user, number=1, points=points, won=points == 3, day=DAY)
        finished_result(user, number=2, points=4 - points, won=points == 1, day=DAY)
    close_the_day()
    answers = at_once([lambda: runner_idle.send(sender=None) for _ in range(50)])
    assert not [a for a in answers if isinstance(a, Exception)], answers
    assert DuplicateRatingEvent.objects.count() == 6
    assert {r.results for r in DuplicateRating.objects.all()} == {2}
    assert DuplicateDay.objects.get().rated_at is not None


def test_a_failing_rating_is_logged_and_the_other_background_work_still_runs(
    close_the_day, monkeypatch, alice, bob, caplog
):
    finished_result(alice, number=1, points=3, won=True, day=DAY)
    finished_result(bob, number=1, points=1, won=False, day=DAY)
    close_the_day()

    def broken(*args, **kwargs):
        raise RuntimeError("the model broke")

    original = rating._match_rate
    monkeypatch.setattr(rating, "_match_rate", broken)
    ran = []
    runner_idle.connect(lambda **kwargs: ran.append(1), weak=False, dispatch_uid="test.after")
    try:
        runner_idle.send(sender=None)
    finally:
        runner_idle.disconnect(dispatch_uid="test.after")
    assert ran and "Rating the closed duplicate days failed" in caplog.text
    assert DuplicateDay.objects.get().rated_at is None and not DuplicateRatingEvent.objects.exists()
    monkeypatch.setattr(rating, "_match_rate", original)
    runner_idle.send(sender=None)
    assert DuplicateRatingEvent.objects.count() == 2  # rated on the next round


def test_the_board_and_the_day_page_show_the_duplicate_rating(
    client, close_the_day, alice, bob, carol
):
    for user, points, won in ((alice, 1, False), (bob, 3, True), (carol, 2, False)):
        finished_result(user, number=1, points=points, won=won, day=DAY)
    assert "Nobody is rated yet" in client.get("/duplicate/ratings/").content.decode()
    close_the_day()
    next_rate()
    client.force_login(alice)
    html = client.get("/duplicate/ratings/").content.decode()
    assert html.index('data-rated="bob"') < html.index('data-rated="carol"')
    assert html.index('data-rated="carol"') < html.index('data-rated="alice"')
    assert 'data-rank="3"' in html and 'class="you"' in html
    mine = DuplicateRating.objects.get(user=alice)
    day_page = client.get("/duplicate/").content.decode()
    assert f'data-my-rating="{mine.display}"' in day_page
    assert "rank 3, 1 game rated" in day_page and "/duplicate/ratings/" in day_page


def test_the_game_ratings_and_their_boards_are_untouched(client, close_the_day, alice, bob):
    board = Leaderboard.objects.create(name="All time", slug="all-time")
    finished_result(alice, number=1, points=3, won=True, day=DAY)
    finished_result(bob, number=1, points=1, won=False, day=DAY)
    close_the_day()
    next_rate()
    assert DuplicateRatingEvent.objects.count() == 2
    assert not PlayerRating.objects.exists() and not RatingEvent.objects.exists()
    assert not board.standings.exists()
    assert "alice" not in client.get("/leaderboards/all-time/").content.decode()


def test_staff_see_the_duplicate_ratings_and_their_changes(
    client, close_the_day, alice, bob, django_user_model
):
    finished_result(alice, number=1, points=3, won=True, day=DAY)
    finished_result(bob, number=1, points=1, won=False, day=DAY)
    close_the_day()
    next_rate()
    client.force_login(django_user_model.objects.create_superuser("boss", password="pw-C-123"))
    listing = client.get("/admin/duplicate/duplicaterating/").content.decode()
    assert "alice" in listing and "bob" in listing
    rated = DuplicateRating.objects.get(user=alice)
    page = client.get(f"/admin/duplicate/duplicaterating/{rated.pk}/change/")
    assert page.status_code == 200 and "2040-03-01" in page.content.decode()
