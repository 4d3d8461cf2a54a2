"""``common.bulk_rows.rows_update``: what ``bulk_update`` writes, in one statement."""

import pytest

from common.bulk_rows import rows_update
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db

FIELDS = ("mu", "sigma", "games", "wins")


def test_rows_update_writes_the_fields_of_the_rows_given_and_nothing_else(django_user_model):
    people = [django_user_model.objects.create(username=f"bulk{n}") for n in range(4)]
    ratings = [PlayerRating.objects.create(user=person) for person in people]
    untouched = PlayerRating.objects.create(bot="random", mu=20.5, games=3)
    for number, rating in enumerate(ratings[:3]):
        rating.mu, rating.sigma = 25.0 + number / 3, 8.0 - number
        rating.games, rating.wins = 10 * number, number
        rating.bot = "ignored"  # not a field named: not written
    rows_update(PlayerRating, ratings[:3], FIELDS)
    stored = {r.pk: r for r in PlayerRating.objects.all()}
    for number, rating in enumerate(ratings[:3]):
        row = stored[rating.pk]
        assert (row.mu, row.sigma, row.games, row.wins) == (
            25.0 + number / 3,
            8.0 - number,
            10 * number,
            number,
        )
        assert row.bot == ""
    fresh = PlayerRating(user=people[3])
    assert [getattr(stored[ratings[3].pk], f) for f in FIELDS] == [
        getattr(fresh, f) for f in FIELDS
    ]
    assert (stored[untouched.pk].mu, stored[untouched.pk].games) == (20.5, 3)
    rows_update(PlayerRating, [], FIELDS)  # nothing to write: no statement
