"""A site whose staff run no leaderboard yet still shows who is rated highest, and where
your own rating is."""

import pytest

from games.table import seats as services
from ratings.models import Leaderboard
from ratings.services import game_rate
from tests.games.helpers import play_out

pytestmark = pytest.mark.django_db


def test_with_no_leaderboard_the_page_lists_the_highest_ratings(client, django_user_model):
    ana = django_user_model.objects.create_user("ana")
    ana.profile.display_name = "Ana la Grande"
    ana.profile.save()
    django_user_model.objects.create_user("idle")  # no rated game: not listed
    game = play_out(
        services.game_create(creator=ana, target=3, seat_kinds=["me", "random", "random"]), ana
    )
    game_rate(game_id=game.pk)
    html = client.get("/leaderboards/").content.decode()
    assert "No leaderboard is running right now." in html and "Highest ratings" in html
    assert '<a href="/players/ana/">Ana la Grande</a>' in html and "/players/idle/" not in html
    assert "See your rating" not in html  # signed out
    client.force_login(ana)
    html = client.get("/leaderboards/").content.decode()
    assert 'href="/players/ana/" data-action="my-rating"' in html and 'class="you"' in html

    Leaderboard.objects.create(name="All time", slug="all-time")
    html = client.get("/leaderboards/").content.decode()
    assert "All time" in html and "Highest ratings" not in html
