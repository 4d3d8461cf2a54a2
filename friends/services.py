"""Following people, seeing where friends are, and inviting a friend to a table.

Every limit here holds under parallel requests: a person's own user row is locked before
their follows or invitations are counted, so fifty requests at once are served one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import public_name
from games.models import Game, Presence, Seat
from games.realtime.presence import STALE_AFTER
from games.table.seats import game_create

from .models import Follow, TableInvite

MAX_FOLLOWING = 500  # people one person may follow
MAX_PENDING_INVITES = 5  # invitations one person may have waiting for an answer
ONLINE_FOR = timedelta(minutes=5)  # seen on a page this recently: online
SHOWN = 100  # people listed in one panel


class FriendRefused(Exception):
    """A follow or an invitation that cannot be done; the message says why."""


def _person(username: object):
    user_model = get_user_model()
    if not isinstance(username, str) or not username:
        raise FriendRefused(_("There is no such player."))
    person = user_model.objects.filter(
        **{user_model.USERNAME_FIELD: username}, is_active=True
    ).first()
    if person is None:
        raise FriendRefused(_("There is no such player."))
    return person


def _lock_person(user) -> None:
    """Serialize one person's follows and invitations (their user row, locked)."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def follow(*, user, username: object):
    """``user`` follows ``username``; return the person followed (following twice is fine)."""
    person = _person(username)
    if person.pk == user.pk:
        raise FriendRefused(_("You cannot follow yourself."))
    with transaction.atomic():
        _lock_person(user)
        if Follow.objects.filter(follower=user, followed=person).exists():
            return person
        if Follow.objects.filter(follower=user).count() >= MAX_FOLLOWING:
            raise FriendRefused(
                _("You follow %(count)d people already: unfollow someone first.")
                % {"count": MAX_FOLLOWING}
            )
        Follow.objects.create(follower=user, followed=person)
    return person


def unfollow(*, user, username: object) -> None:
    person = _person(username)
    Follow.objects.filter(follower=user, followed=person).delete()


def follows(user, person) -> bool:
    return (
        user.is_authenticated
        and Follow.objects.filter(follower_id=user.pk, followed_id=person.pk).exists()
    )


def are_friends(user, person) -> bool:
    """Whether the two follow each other."""
    pair = Follow.objects.filter(
        follower_id=user.pk, followed_id=person.pk
    ) | Follow.objects.filter(follower_id=person.pk, followed_id=user.pk)
    return user.pk != person.pk and pair.count() == 2


@dataclass(frozen=True)
class Friend:
    """One person ``user`` follows, as ``user`` may see them."""

    user: object
    name: str
    mutual: bool  # follows back: a friend, whose whereabouts are shown
    status: str  # "table", "online", "offline"; "" when not a friend
    game_id: int | None = None  # the public table they play at (to watch)
    last_seen: datetime | None = None


def following_of(user) -> list[Friend]:
    """The people ``user`` follows, friends first (at a table, then online), each with what
    ``user`` may know of them: whereabouts only for friends, a table only if public."""
    followed = list(
        Follow.objects.filter(follower=user)
        .select_related("followed__profile")
        .order_by("-created_at")[:SHOWN]
    )
    people = [follow.followed for follow in followed]
    ids = [person.pk for person in people]
    mutual = set(
        Follow.objects.filter(follower_id__in=ids, followed=user).values_list(
            "follower_id", flat=True
        )
    )
    now = timezone.now()
    at_tables = dict(
        Presence.objects.filter(
            user_id__in=mutual, seen_at__gte=now - STALE_AFTER, game__status=Game.Status.IN_PROGRESS
        ).values_list("user_id", "game_id")
    )
    seated = {
        (user_id, game_id): is_public
        for user_id, game_id, is_public in Seat.objects.filter(
            user_id__in=list(at_tables), game_id__in=list(at_tables.values())
        ).values_list("user_id", "game_id", "game__is_public")
    }
    friends = []
    for person in people:
        if person.pk not in mutual:
            friends.append(Friend(person, public_name(person), False, ""))
            continue
        seen = getattr(getattr(person, "profile", None), "last_seen_at", None)
        game_id = at_tables.get(person.pk)
        if game_id is not None and (person.pk, game_id) in seated:
            public = seated[(person.pk, game_id)]
            friends.append(
                Friend(
                    person, public_name(person), True, "table", game_id if public else None, seen
                )
            )
        elif game_id is not None or (seen is not None and now - seen <= ONLINE_FOR):
            friends.append(Friend(person, public_name(person), True, "online", None, seen))
        else:
            friends.append(Friend(person, public_name(person), True, "offline", None, seen))
    order = {"table": 0, "online": 1, "offline": 2, "": 3}
    return sorted(friends, key=lambda friend: order[friend.status])


def followers_count(person) -> int:
    return Follow.objects.filter(followed=person).count()


# -- invitations ----------------------------------------------------------------------------


def invite_to_new_table(
    *, sender, username: object, target: int, clock: int | None, third_seat: str, rated: bool
) -> Game:
    """Open a private table with ``sender`` seated, a seat kept for the friend and the third
    seat ``third_seat`` ("open" or a bot level), and invite the friend to it."""
    recipient = _person(username)
    if not are_friends(sender, recipient):
        raise FriendRefused(_("You can invite friends only: people you follow who follow you."))
    with transaction.atomic():
        _lock_person(sender)
        pending = TableInvite.objects.filter(sender=sender, game__status=Game.Status.WAITING)
        if pending.filter(recipient=recipient).exists():
            raise FriendRefused(
                _("%(name)s has your invitation already.") % {"name": public_name(recipient)}
            )
        if pending.count() >= MAX_PENDING_INVITES:
            raise FriendRefused(
                _("You have %(count)d invitations waiting for an answer already.")
                % {"count": MAX_PENDING_INVITES}
            )
        game = game_create(
            creator=sender,
            target=target,
            seat_kinds=["me", "open", third_seat],
            is_public=False,
            is_rated=rated,
            clock=clock,
        )
        try:
            with transaction.atomic():
                TableInvite.objects.create(game=game, sender=sender, recipient=recipient)
        except IntegrityError:  # cannot happen for a new table; said plainly if it does
            raise FriendRefused(_("That invitation was sent already.")) from None
    return game


def invitations_for(user, limit: int = 10) -> list[TableInvite]:
    """Invitations ``user`` can still take up: their tables wait for players."""
    return list(
        TableInvite.objects.filter(recipient=user, game__status=Game.Status.WAITING)
        .exclude(game__seats__user=user)
        .select_related("game", "sender__profile")
        .order_by("-created_at")[:limit]
    )


def decline(*, user, invite_id: object) -> None:
    """Say no to an invitation (only its recipient can); a table it was for stays open."""
    if not isinstance(invite_id, int):
        raise FriendRefused(_("There is no such invitation."))
    if not TableInvite.objects.filter(pk=invite_id, recipient=user).delete()[0]:
        raise FriendRefused(_("There is no such invitation."))


def forget_stale_invitations() -> int:
    """Invitations to tables that started or closed: nobody can take them up any more."""
    return TableInvite.objects.exclude(game__status=Game.Status.WAITING).delete()[0]
