"""Staff who may view games see a running game's dealt cards only with an explicit
permission: the deck of a hand being played holds every player's unplayed cards."""

import pytest
from django.contrib.auth.models import Permission

from games.models import Game, Hand
from games.table import seats as services

pytestmark = pytest.mark.django_db


@pytest.fixture
def viewer(django_user_model):
    staff = django_user_model.objects.create_user("viewer", password="pw", is_staff=True)
    for codename in ("view_game", "view_hand", "view_seat"):  # "view access" to games
        staff.user_permissions.add(Permission.objects.get(codename=codename))
    return staff


def deck_shown(client, game: Game) -> bool:
    """Whether the game's admin page shows any card of the deck (as the deck shows them)."""
    page = client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    deck = Hand.objects.get(game=game, number=1).deck
    return any(f"&quot;{code}&quot;" in page.content.decode() for code in deck)


def test_a_running_games_deck_needs_the_permission(client, viewer, alice):
    game = services.game_quick_play(user=alice)
    client.force_login(viewer)
    assert not deck_shown(client, game)
    viewer.user_permissions.add(Permission.objects.get(codename="view_hidden_cards"))
    client.force_login(type(viewer).objects.get(pk=viewer.pk))
    assert deck_shown(client, game)


def test_a_finished_games_deck_is_shown_to_any_viewer(client, viewer, alice):
    game = services.game_quick_play(user=alice)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    client.force_login(viewer)
    assert deck_shown(client, game)
