"""Friends' limits under 50 requests at once (threads released together, PostgreSQL): a
person's follows and invitations are counted under a lock on their own row."""

import pytest

from friends import services
from friends.models import Follow, TableInvite
from games.models import Game
from lab.benchmarks.bursts import at_once

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 50


def test_fifty_follows_at_once_stop_at_the_limit(monkeypatch, make_user, alice):
    monkeypatch.setattr(services, "MAX_FOLLOWING", 7)
    people = [make_user(f"p{n}").username for n in range(BURST)]
    answers = at_once(
        [lambda name=name: services.follow(user=alice, username=name) for name in people]
    )
    refused = [a for a in answers if isinstance(a, services.FriendRefused)]
    assert Follow.objects.filter(follower=alice).count() == 7
    assert len(refused) == BURST - 7
    assert all(not isinstance(a, Exception) or a in refused for a in answers)


def test_fifty_follows_of_one_person_at_once_are_one(alice, bob):
    answers = at_once([lambda: services.follow(user=alice, username="bob") for _ in range(BURST)])
    assert Follow.objects.count() == 1
    assert not [a for a in answers if isinstance(a, Exception)]


def test_fifty_invitations_at_once_open_one_table(alice, bob):
    services.follow(user=alice, username="bob")
    services.follow(user=bob, username="alice")

    def invite():
        return services.invite_to_new_table(
            sender=alice, username="bob", target=10, clock=None, third_seat="open", rated=False
        )

    answers = at_once([invite for _ in range(BURST)])
    assert TableInvite.objects.count() == 1 and Game.objects.count() == 1
    assert sum(isinstance(a, Game) for a in answers) == 1
    assert all(isinstance(a, (Game, services.FriendRefused)) for a in answers)
