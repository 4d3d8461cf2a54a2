"""Following people, seeing where friends are (only friends, only public tables to watch),
and inviting a friend to a private table that they find in their lobby and join."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from friends import services
from friends.models import Follow, TableInvite
from games.models import Game, Presence, Seat
from games.table import seats as table_seats

pytestmark = pytest.mark.django_db


def befriend(one, other):
    services.follow(user=one, username=other.username)
    services.follow(user=other, username=one.username)


def test_following_from_a_player_page_and_back(client, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("player_profile", args=["bob"])).content.decode()
    assert 'data-action="follow"' in page and 'data-followers="0"' in page
    response = client.post(reverse("friend_follow"), {"username": "bob", "next": "/players/bob/"})
    assert response.status_code == 302 and response["Location"] == "/players/bob/"
    page = client.get(reverse("player_profile", args=["bob"])).content.decode()
    assert 'data-action="unfollow"' in page and 'data-followers="1"' in page
    assert "data-friends" not in page  # bob does not follow back
    client.post(reverse("friend_unfollow"), {"username": "bob"})
    assert not Follow.objects.exists()


def test_a_player_page_of_ones_own_has_no_follow_button(client, alice):
    client.force_login(alice)
    page = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert 'data-action="follow"' not in page


@pytest.mark.parametrize("username", ["", "nobody", "alice", ["bob"]])
def test_following_nobody_or_oneself_is_refused_and_changes_nothing(alice, bob, username):
    with pytest.raises(services.FriendRefused):
        services.follow(user=alice, username=username)
    assert not Follow.objects.exists()


def test_following_twice_is_one_follow(alice, bob):
    services.follow(user=alice, username="bob")
    services.follow(user=alice, username="bob")
    assert Follow.objects.count() == 1


def test_an_offsite_next_address_is_not_followed(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        reverse("friend_follow"), {"username": "bob", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/players/bob/"


def status_of(user, username):
    return {f.user.username: f for f in services.following_of(user)}[username]


def test_only_friends_see_whereabouts(alice, bob):
    services.follow(user=alice, username="bob")
    Profile.objects.filter(user=bob).update(last_seen_at=timezone.now())
    assert status_of(alice, "bob").status == ""  # bob does not follow alice: nothing shown
    services.follow(user=bob, username="alice")
    assert status_of(alice, "bob").status == "online"


def test_a_friend_seen_on_a_page_is_online_and_later_offline(client, alice, bob):
    befriend(alice, bob)
    assert status_of(alice, "bob").status == "offline"
    client.force_login(bob)
    client.get(reverse("lobby"))  # any page notes when bob was last here
    assert status_of(alice, "bob").status == "online"
    Profile.objects.filter(user=bob).update(last_seen_at=timezone.now() - timedelta(minutes=6))
    friend = status_of(alice, "bob")
    assert friend.status == "offline" and friend.last_seen is not None


@pytest.mark.parametrize("public", [True, False])
def test_a_friend_at_a_table_can_be_watched_only_at_a_public_one(alice, bob, public):
    befriend(alice, bob)
    game = table_seats.game_create(
        creator=bob, target=10, seat_kinds=["me", "careful", "careful"], is_public=public
    )
    Presence.objects.create(game=game, user=bob, channel="c1", seen_at=timezone.now())
    friend = status_of(alice, "bob")
    assert friend.status == "table"
    assert friend.game_id == (game.pk if public else None)


def test_the_page_lists_friends_first_and_the_lobby_loads_the_panel(client, alice, bob, carol):
    befriend(alice, bob)
    services.follow(user=alice, username="carol")
    client.force_login(alice)
    lobby = client.get(reverse("lobby")).content.decode()
    assert "data-lobby-friends" in lobby and "?panel=1" in lobby
    panel = client.get(reverse("friends") + "?panel=1").content.decode()
    assert "<html" not in panel
    order = re.findall(r'data-friend="(\w+)"', panel)
    assert order == ["bob", "carol"]
    assert panel.count('data-action="invite-friend"') == 1  # bob only: carol is no friend


def invite(client, username, **fields):
    data = {"target": "10", "seat_right": "open", "clock": "", "is_rated": "", **fields}
    return client.post(reverse("friend_invite", args=[username]), data)


def test_inviting_a_friend_opens_a_private_table_that_they_find_and_join(client, alice, bob):
    befriend(alice, bob)
    client.force_login(alice)
    response = invite(client, "bob", target="15", seat_right="expert-v4", clock="86400")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert not game.is_public and game.target == 15 and game.clock == 86400
    kinds = list(game.seats.order_by("number").values_list("user__username", "bot"))
    assert kinds == [("alice", ""), (None, ""), (None, "expert-v4")]

    Game.objects.filter(pk=game.pk).update(invite_token="a-b_c-token")  # urlsafe: - and _
    client.force_login(bob)
    panel = client.get(reverse("friends") + "?panel=1").content.decode()
    link = re.search(r'href="(/games/\d+/\?invite=[\w-]+)"', panel).group(1)
    assert client.get(f"/games/{game.pk}/").status_code == 404  # private without the link
    assert client.get(link).status_code == 200
    client.post(reverse("game_join", args=[game.pk]))
    assert Seat.objects.get(game=game, number=1).user == bob
    assert Game.objects.get(pk=game.pk).is_running
    assert "data-invitation" not in client.get(reverse("friends") + "?panel=1").content.decode()


def test_an_automatic_clock_with_an_invited_friend_is_the_default_for_people(client, alice, bob):
    befriend(alice, bob)
    client.force_login(alice)
    invite(client, "bob", seat_right="careful", clock="auto")
    assert Game.objects.get().clock == 30  # a person is coming: the default clock


def test_only_friends_can_be_invited_and_a_refusal_changes_nothing(client, alice, bob):
    services.follow(user=alice, username="bob")  # bob does not follow back
    client.force_login(alice)
    response = invite(client, "bob")
    assert response.status_code == 200 and "friends only" in response.content.decode()
    assert not Game.objects.exists() and not TableInvite.objects.exists()


def test_declining_removes_the_invitation_and_only_the_recipient_can(client, alice, bob, carol):
    befriend(alice, bob)
    game = services.invite_to_new_table(
        sender=alice, username="bob", target=10, clock=None, third_seat="open", rated=False
    )
    invitation = TableInvite.objects.get()
    client.force_login(carol)
    client.post(reverse("friend_decline", args=[invitation.pk]))
    assert TableInvite.objects.exists()
    client.force_login(bob)
    client.post(reverse("friend_decline", args=[invitation.pk]))
    assert not TableInvite.objects.exists()
    assert Game.objects.get(pk=game.pk).status == Game.Status.WAITING  # the table stays open


def test_one_invitation_per_friend_at_a_time(alice, bob):
    befriend(alice, bob)
    args = dict(sender=alice, username="bob", target=10, clock=None, third_seat="open", rated=True)
    services.invite_to_new_table(**args)
    with pytest.raises(services.FriendRefused, match="has your invitation already"):
        services.invite_to_new_table(**args)
    assert Game.objects.count() == 1


def test_invitations_to_tables_that_started_are_forgotten(alice, bob):
    befriend(alice, bob)
    game = services.invite_to_new_table(
        sender=alice, username="bob", target=10, clock=None, third_seat="careful", rated=False
    )
    table_seats.seat_join(game_id=game.pk, user=bob, invite_token=game.invite_token)
    assert services.invitations_for(bob) == []
    assert services.forget_stale_invitations() == 1
