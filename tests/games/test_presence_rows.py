"""A socket's presence row: what it costs the database to note and to forget, and that a
socket noted twice (or a tab's new socket) leaves one row."""

import pytest
from django.db import connection

from games.models import Presence
from games.realtime.presence import TooManySockets, presence_join, presence_leave
from games.table import seats as services

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice):
    return services.game_quick_play(user=alice, bot="random", target=5)


def test_noting_a_socket_costs_three_statements_and_a_tab_one_more(
    game, alice, django_assert_num_queries
):
    with django_assert_num_queries(3):
        reading = presence_join(game_id=game.pk, channel="one", user=alice, address="10.0.0.1")
    assert reading["users"] == [alice.pk] and reading["anonymous"] == 0
    with django_assert_num_queries(4):  # the tab's earlier socket, replaced
        presence_join(
            game_id=game.pk, channel="two", user=None, address="10.0.0.2", tab="tab-of-mine1"
        )
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 2):
        assert presence_leave(channel="one") is True  # "two" is still at the table
    assert list(Presence.objects.values_list("channel", flat=True)) == ["two"]
    assert presence_leave(channel="two") is False  # the last one: no one to tell
    assert presence_leave(channel="two") is False  # gone already
    assert not Presence.objects.exists()


def test_a_socket_says_whether_it_is_alone_at_the_table(game, alice, bob):
    """A socket alone at the table (the usual game against bots) has no one to tell of
    its arrival; the second one counts both."""
    assert presence_join(game_id=game.pk, channel="one", user=alice, address=None)["sockets"] == 1
    assert presence_join(game_id=game.pk, channel="two", user=alice, address=None)["sockets"] == 2
    other = services.game_quick_play(user=bob, bot="random", target=5)
    assert presence_join(game_id=other.pk, channel="three", user=bob, address=None)["sockets"] == 1


def test_a_socket_noted_again_keeps_one_row_and_a_tabs_new_socket_replaces_its_old(game, alice):
    presence_join(game_id=game.pk, channel="one", user=alice, address=None, tab="tab-of-alice")
    presence_join(game_id=game.pk, channel="one", user=alice, address=None, tab="tab-of-alice")
    assert Presence.objects.filter(channel="one").count() == 1
    presence_join(game_id=game.pk, channel="two", user=alice, address=None, tab="tab-of-alice")
    assert list(Presence.objects.values_list("channel", "user_id", "address")) == [
        ("two", alice.pk, None)
    ]
    visitor = presence_join(game_id=game.pk, channel="three", user=None, address="10.0.0.3")
    assert visitor["users"] == [alice.pk] and visitor["anonymous"] == 1
    assert Presence.objects.get(channel="three").address == "10.0.0.3"


def test_a_refused_socket_leaves_no_row(game, alice, settings):
    settings.COINS_MAX_SOCKETS = 1
    presence_join(game_id=game.pk, channel="one", user=alice, address=None)
    with pytest.raises(TooManySockets) as refused:
        presence_join(game_id=game.pk, channel="two", user=alice, address=None)
    assert refused.value.reason == "tabs"
    assert list(Presence.objects.values_list("channel", flat=True)) == ["one"]
