"""Rematch: the same people at the same seats once everyone accepts; declines and expiry."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Rematch, Seat
from games.table import flow
from games.table import seats as services
from games.table.rematch import RematchRefused, rematch_accept, rematch_decline

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob):
    """A finished game: alice in seat 0, bob in seat 1, an expert bot in seat 2."""
    game = services.game_create(
        creator=alice, target=10, seat_kinds=["me", "open", "expert-v2"], is_rated=False
    )
    services.seat_join(game_id=game.pk, user=bob)
    flow.resign(game_id=game.pk, user=bob)
    return Game.objects.get(pk=game.pk)


def seats_of(game: Game) -> list[tuple]:
    return list(Seat.objects.filter(game=game).order_by("number").values_list("user", "bot"))


def test_the_new_table_starts_once_everyone_accepted_with_the_same_seats(finished, alice, bob):
    offer = rematch_accept(game_id=finished.pk, user=alice)
    assert offer.accepted == [0] and offer.new_game is None
    assert Game.objects.count() == 1
    offer = rematch_accept(game_id=finished.pk, user=bob)
    new = offer.new_game
    assert new is not None and new.status == Game.Status.IN_PROGRESS
    same_seats = [(alice.pk, ""), (bob.pk, ""), (None, "expert-v2")]
    assert seats_of(new) == seats_of(finished) == same_seats
    assert (new.target, new.is_public, new.is_rated) == (10, True, False)
    with pytest.raises(RematchRefused, match="already started"):
        rematch_accept(game_id=finished.pk, user=alice)


def test_accepting_twice_changes_nothing_and_outsiders_cannot_answer(finished, alice, carol):
    rematch_accept(game_id=finished.pk, user=alice)
    offer = rematch_accept(game_id=finished.pk, user=alice)
    assert offer.accepted == [0] and offer.new_game is None
    with pytest.raises(RematchRefused, match="Only the players"):
        rematch_accept(game_id=finished.pk, user=carol)
    with pytest.raises(RematchRefused, match="Only the players"):
        rematch_decline(game_id=finished.pk, user=carol)


def test_a_decline_ends_the_offer_and_a_new_one_may_follow(finished, alice, bob):
    rematch_accept(game_id=finished.pk, user=alice)
    rematch_decline(game_id=finished.pk, user=bob)
    with pytest.raises(RematchRefused, match="no rematch offer"):
        rematch_decline(game_id=finished.pk, user=alice)
    offer = rematch_accept(game_id=finished.pk, user=bob)  # a fresh offer, from bob
    assert offer.accepted == [1] and offer.offered_by == bob and offer.declined_by is None


def test_an_offer_expires(finished, alice, bob):
    rematch_accept(game_id=finished.pk, user=alice)
    Rematch.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    offer = rematch_accept(game_id=finished.pk, user=bob)  # too late: a new offer from bob
    assert offer.accepted == [1] and offer.new_game is None


def test_a_running_game_has_no_rematch(alice):
    game = services.game_quick_play(user=alice)
    with pytest.raises(RematchRefused, match="once the game is over"):
        rematch_accept(game_id=game.pk, user=alice)


def test_alone_against_bots_the_rematch_starts_at_once(alice):
    game = services.game_create(creator=alice, target=10, seat_kinds=["random", "me", "expert-v2"])
    flow.resign(game_id=game.pk, user=alice)
    new = rematch_accept(game_id=game.pk, user=alice).new_game
    assert seats_of(new) == [(None, "random"), (alice.pk, ""), (None, "expert-v2")]


def test_the_result_panel_walks_through_the_offer(client, finished, alice, bob, carol):
    url = finished.get_absolute_url()
    client.force_login(alice)
    assert 'data-action="rematch"' in client.get(url).content.decode()
    response = client.post(f"/games/{finished.pk}/rematch/", {"answer": "accept"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert 'data-rematch="open"' in page and "Waiting for bob." in page
    assert 'data-action="rematch-decline"' in page and 'data-action="rematch-accept"' not in page
    client.force_login(carol)  # a spectator sees the offer, with nothing to press
    page = client.get(url).content.decode()
    assert "alice offers a rematch." in page and 'name="answer"' not in page
    client.force_login(bob)
    assert 'data-action="rematch-accept"' in client.get(url).content.decode()
    response = client.post(f"/games/{finished.pk}/rematch/", {"answer": "accept"})
    new = Rematch.objects.get().new_game
    assert response["Location"] == new.get_absolute_url()
    page = client.get(url).content.decode()
    assert 'data-rematch="started"' in page and "data-follow" in page
    client.force_login(carol)
    page = client.get(url).content.decode()
    assert "Watch the rematch" in page and "data-follow" not in page
