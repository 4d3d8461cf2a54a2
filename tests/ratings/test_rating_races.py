"""Two runners rating at once, on PostgreSQL where they really run at once: the shared
rating rows take turns, and no game is rated twice."""

import pytest
from django.db import connection, transaction

from games.models import Game
from ratings.models import PlayerRating, RatingEvent
from ratings.services import game_rate
from tests.games.helpers import at_once
from tests.ratings.test_ratings import finish

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def rate(game: Game):
    with transaction.atomic():  # as the runner does, in the game's aftermath
        return game_rate(game_id=game.pk)


def unrated(game: Game) -> Game:
    RatingEvent.objects.filter(game=game).delete()
    PlayerRating.objects.all().update(games=0, mu=25.0, sigma=25.0 / 3)
    return game


def test_two_games_sharing_a_bot_rating_rated_at_once_both_count(django_user_model):
    """Both games seat random bots (one rating row for the level): neither update may be
    lost to the other."""
    alice = django_user_model.objects.create_user("al")
    bob = django_user_model.objects.create_user("bo")
    first = finish(alice, ["me", "random", "random"])
    second = finish(bob, ["me", "random", "random"])
    for game in (first, second):
        unrated(game)
    for _ in range(3):
        results = at_once(lambda: rate(first), lambda: rate(second))
        assert all(isinstance(events, list) and len(events) == 3 for events in results), results
        bots = PlayerRating.objects.get(bot="random")
        # Two seats a game: each game counted, neither update overwritten by the other.
        assert bots.games == RatingEvent.objects.filter(rating=bots).count() == 4
        chained = sorted(
            RatingEvent.objects.filter(rating=bots).values_list("mu_before", "mu_after"),
        )
        befores = {before for before, _ in chained}
        assert len(befores) == 2  # the second game started from the first one's result
        unrated(first), unrated(second)


def test_one_game_rated_by_two_runners_at_once_is_rated_once(django_user_model):
    alice = django_user_model.objects.create_user("al")
    game = unrated(finish(alice, ["me", "random", "random"]))
    for _ in range(3):
        results = at_once(lambda: rate(game), lambda: rate(game))
        assert sorted(len(events) for events in results) == [0, 3], results
        assert RatingEvent.objects.filter(game=game).count() == 3
        assert PlayerRating.objects.get(user=alice).games == 1
        unrated(game)


def test_a_game_rated_during_a_recompute_is_counted_once(django_user_model):
    """The recompute holds the rating lock: a game's aftermath waits for it, then finds the
    game either rebuilt with the rest or still to rate, never half of each."""
    from ratings.recompute import ratings_recompute

    alice = django_user_model.objects.create_user("al")
    bob = django_user_model.objects.create_user("bo")
    finish(alice, ["me", "random", "careful"])
    game = finish(bob, ["me", "random", "random"])

    def state():
        return sorted(
            (r.user_id or 0, r.bot, round(r.mu, 9), round(r.sigma, 9), r.games, r.wins)
            for r in PlayerRating.objects.all()
        )

    ratings_recompute()
    expected = state()
    for _ in range(3):
        RatingEvent.objects.filter(game=game).delete()  # its aftermath has not run yet
        results = at_once(ratings_recompute, lambda: rate(game))
        # the recompute rates both games whichever came first; the aftermath rated the game
        # (3 events) only if it came first, and then the recompute rebuilt it
        assert results[0] == 2 and len(results[1]) in (0, 3), results
        assert RatingEvent.objects.filter(game=game).count() == 3
        assert state() == expected
