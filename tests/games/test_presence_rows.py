"""A socket's presence row: what it costs the database to note and to forget, and that a
socket noted twice (or a tab's new socket) leaves one row."""

from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Presence
from games.realtime.presence import (
    STALE_AFTER,
    TooManySockets,
    _sockets_here_and_everywhere,
    presence_join,
    presence_leave,
)
from games.table import seats as services

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice):
    return services.game_quick_play(user=alice, bot="random", target=5)


def test_noting_a_socket_costs_two_statements_and_a_tab_one_more(
    game, alice, django_assert_num_queries
):
    with django_assert_num_queries(2):  # the row; the table's and the person's counts
        reading = presence_join(game_id=game.pk, channel="one", user=alice, address="10.0.0.1")
    assert reading["users"] == [alice.pk] and reading["anonymous"] == 0
    with django_assert_num_queries(3):  # the tab's earlier socket, replaced
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


@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(["here", "there"]),
            st.sampled_from(["alice", "bob", None]),
            st.sampled_from(["10.0.0.1", "10.0.0.2", None]),
            st.booleans(),  # stale
        ),
        max_size=12,
    ),
    viewer=st.sampled_from(["alice", None]),
    address=st.sampled_from(["10.0.0.1", None]),
)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_the_one_count_is_the_table_by_person_and_the_viewers_own_everywhere(
    game, alice, bob, rows, viewer, address
):
    """Any mix of live and stale sockets, here and at another table, of the viewer, of
    others and of signed-out visitors from the viewer's address or another: the one
    statement counts what the ORM's filters count."""
    Presence.objects.all().delete()
    people = {"alice": alice, "bob": bob, None: None}
    elsewhere = services.game_quick_play(user=bob, bot="random", target=5)
    now = timezone.now()
    Presence.objects.bulk_create(
        Presence(
            game_id=game.pk if where == "here" else elsewhere.pk,
            channel=f"c{number}",
            user=people[person],
            address=where_from if person is None else None,
            seen_at=now - (STALE_AFTER * 2 if stale else timedelta(0)),
        )
        for number, (where, person, where_from, stale) in enumerate(rows)
    )
    user_id = people[viewer].pk if viewer else None
    live = Presence.objects.filter(seen_at__gte=now - STALE_AFTER)
    expected_here = Counter(live.filter(game_id=game.pk).values_list("user_id", flat=True))
    mine = live.filter(user_id=user_id) if user_id else live.filter(user=None, address=address)
    sockets, everywhere = _sockets_here_and_everywhere(game.pk, user_id, address)
    assert sockets == dict(expected_here)
    assert everywhere == mine.count()
