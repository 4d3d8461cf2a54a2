"""Table chat: what people say at a table, who may read it, muting and reporting.

Players and spectators talk in separate rooms. A message is plain text (at most 200
characters, never markup) or a preset phrase, shown in each reader's language. People who
mute someone stop seeing them everywhere; anyone may report a message to staff, who can hide
it. Every message keeps the move it was said at, so the replay shows it beside its trick.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.person_rows import person_columns, person_joins, row_with_person
from accounts.selectors import public_name
from common.kept_rows import column, column_list, table_name
from games.models import ChatMessage, ChatMute, ChatReport, Game, Seat

MAX_LENGTH = 200
# Rate limits per person, across every table: (how many, within how long).
LIMITS = ((3, timedelta(seconds=5)), (20, timedelta(minutes=1)))
LOG_LENGTH = 50  # messages a page shows when it loads

PRESETS = {
    "hello": gettext_lazy("Hello!"),
    "good_luck": gettext_lazy("Good luck!"),
    "nice": gettext_lazy("Nice trick!"),
    "thinking": gettext_lazy("Let me think…"),
    "oops": gettext_lazy("Oops!"),
    "thanks": gettext_lazy("Thanks!"),
    "good_game": gettext_lazy("Good game!"),
    "again": gettext_lazy("Another game?"),
    "bye": gettext_lazy("Bye!"),
}

MARKUP = re.compile(r"<\s*[a-zA-Z/!?]|&#?\w+;")


class ChatRefused(Exception):
    """A chat request that cannot be honoured; the message is for the sender."""


def room_of(game_id: int, user) -> str:
    """The room ``user`` talks and reads in at this table: players' if seated."""
    seated = (
        user is not None
        and user.is_authenticated
        and Seat.objects.filter(game_id=game_id, user=user).exists()
    )
    return room_for(seated=seated)


def room_for(*, seated: bool) -> str:
    """``room_of`` for a caller that knows whether the person is seated."""
    return ChatMessage.Room.PLAYERS if seated else ChatMessage.Room.SPECTATORS


def clean_text(text: object) -> str:
    """The text of a free message, or ChatRefused saying what is wrong with it."""
    if not isinstance(text, str) or not text.strip():
        raise ChatRefused(_("Write something first."))
    text = " ".join(text.split())
    if len(text) > MAX_LENGTH:
        raise ChatRefused(
            _("Keep it to %(max)d characters (that was %(length)d).")
            % {"max": MAX_LENGTH, "length": len(text)}
        )
    if MARKUP.search(text):
        raise ChatRefused(_("Messages are plain text: no HTML or markup."))
    if any(not char.isprintable() for char in text):
        raise ChatRefused(_("Use letters, digits, spaces and punctuation only."))
    return text


def chat_post(*, game_id: int, user, text: object = None, preset: object = None) -> ChatMessage:
    """Say ``text`` (or the preset phrase ``preset``) at the table, in the sender's room.

    Refused with a clear reason, and nothing stored, when the sender is signed out, the
    message is empty, too long or markup, the preset unknown, or they write too fast.
    """
    if user is None or not user.is_authenticated:
        raise ChatRefused(_("Log in to chat."))
    if preset is not None:
        if preset not in PRESETS:
            raise ChatRefused(_("There is no such phrase."))
        text = ""
    else:
        text = clean_text(text)
    with transaction.atomic():
        # One message at a time per person (two tabs at once), so the limits hold exactly.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _check_rate(user)
        moves = Game.objects.filter(pk=game_id).values_list("moves", flat=True).first()
        if moves is None:
            raise ChatRefused(_("There is no such game."))
        return ChatMessage.objects.create(
            game_id=game_id,
            user=user,
            room=room_of(game_id, user),
            text=text,
            preset=preset or "",
            moves=moves,
        )


def _check_rate(user) -> None:
    now = timezone.now()
    recent = ChatMessage.objects.filter(user=user, created_at__gte=now - LIMITS[-1][1])
    times = list(recent.values_list("created_at", flat=True))
    for count, window in LIMITS:
        if sum(1 for when in times if when >= now - window) >= count:
            raise ChatRefused(_("You are writing too fast: wait a few seconds."))


def chat_mute(*, user, username: object) -> object:
    """Stop showing ``user`` what ``username`` says; return the muted user."""
    muted = _other_person(user, username)
    ChatMute.objects.get_or_create(user=user, muted=muted)
    return muted


def chat_unmute(*, user, username: object) -> None:
    ChatMute.objects.filter(user=user, muted=_other_person(user, username)).delete()


def _other_person(user, username: object):
    if user is None or not user.is_authenticated:
        raise ChatRefused(_("Log in to chat."))
    other = get_user_model().objects.filter(username=username).first() if username else None
    if other is None:
        raise ChatRefused(_("There is no such player."))
    if other.pk == user.pk:
        raise ChatRefused(_("You cannot mute yourself."))
    return other


def chat_report(*, user, message_id: object, game_id: int) -> ChatReport:
    """Ask staff to look at a message of this table (once per person and message)."""
    if user is None or not user.is_authenticated:
        raise ChatRefused(_("Log in to report a message."))
    message = None
    if isinstance(message_id, int | str) and str(message_id).isdigit():
        message = ChatMessage.objects.filter(pk=int(message_id), game_id=game_id).first()
    if message is None or message.room != room_of(game_id, user):
        raise ChatRefused(_("There is no such message."))
    if message.user_id == user.pk:
        raise ChatRefused(_("That is your own message."))
    report, _created = ChatReport.objects.get_or_create(message=message, reporter=user)
    return report


def muted_ids(user) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    with connection.cursor() as cursor:  # a statement written once: every table page's
        cursor.execute(_mutes_statement(connection.vendor), [user.pk])
        return {muted for (muted,) in cursor.fetchall()}


@cache
def _mutes_statement(vendor: str) -> str:
    muted, by = column(ChatMute, "muted"), column(ChatMute, "user")
    return f"SELECT {muted} FROM {table_name(ChatMute)} WHERE {by} = %s"


def message_data(message: ChatMessage) -> dict:
    """What a socket needs to show a message: plain values, so it can travel in an event."""
    return {
        "id": message.pk,
        "room": str(message.room),
        "user_id": message.user_id,
        "username": message.user.get_username(),
        "name": public_name(message.user),
        "text": message.text,
        "preset": message.preset,
        "moves": message.moves,
    }


def shown_text(data: dict) -> str:
    """The words of a message in the reader's language (preset phrases are translated)."""
    return str(PRESETS[data["preset"]]) if data["preset"] else data["text"]


def chat_log(
    game_id: int, viewer, room: str | None = None, muted: set[int] | None = None
) -> list[dict]:
    """The latest messages of the viewer's room, oldest first, without hidden ones or those
    of people the viewer muted (``muted``, when the caller has read them already)."""
    room = room or room_of(game_id, viewer)
    muted = muted_ids(viewer) if muted is None else muted
    if muted:
        messages = (
            ChatMessage.objects.filter(game_id=game_id, room=room, hidden=False)
            .exclude(user_id__in=muted)
            .select_related("user__profile")
            .order_by("-id")[:LOG_LENGTH]
        )
    else:  # nearly always (every new game's page): a statement written once
        messages = _latest_lines(game_id, room)
    return [message_data(message) for message in reversed(messages)]


def _latest_lines(game_id: int, room: str) -> list[ChatMessage]:
    """The room's latest ``LOG_LENGTH`` lines that staff did not hide, newest first, each
    with its author and their profile (as ``select_related("user__profile")`` gives them)."""
    with connection.cursor() as cursor:
        cursor.execute(_latest_lines_statement(connection.vendor), [game_id, room, LOG_LENGTH])
        rows = cursor.fetchall()
    return [row_with_person(ChatMessage, "user", row) for row in rows]


@cache
def _latest_lines_statement(vendor: str) -> str:
    people = person_joins(f"m.{column(ChatMessage, 'user')}")
    return (
        f"SELECT {column_list(ChatMessage, 'm')}, {person_columns()}"
        f" FROM {table_name(ChatMessage)} m{people}"
        f" WHERE m.{column(ChatMessage, 'game')} = %s AND m.{column(ChatMessage, 'room')} = %s"
        f" AND NOT m.{column(ChatMessage, 'hidden')}"
        f" ORDER BY m.{column(ChatMessage, 'pk')} DESC LIMIT %s"
    )


def said_since(game_id: int, viewer, seen: int) -> bool:
    """Whether the viewer's room has a message they may read, newer than ``seen``."""
    return (
        ChatMessage.objects.filter(
            game_id=game_id, room=room_of(game_id, viewer), hidden=False, id__gt=seen
        )
        .exclude(user_id__in=muted_ids(viewer))
        .exists()
    )


def muted_and_page_chat_stale(game_id: int, viewer, room: str, seen: int) -> tuple[set[int], bool]:
    """Whom ``viewer`` muted (``muted_ids``), and whether a page showing ``room``'s chat up
    to line ``seen`` needs the panel again: a line its viewer may read was said since, or a
    line it may show was hidden by staff or is by someone its viewer muted (any such line up
    to ``seen`` counts: the page may show it). A socket's opening: one statement, written
    once, so a table whose chat did not change costs no panel and no query building."""
    user_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    params = [user_id, game_id, room, seen, user_id, seen, user_id]
    with connection.cursor() as cursor:
        cursor.execute(_muted_and_stale_statement(connection.vendor), params)
        rows = cursor.fetchall()
    return {muted for muted, stale in rows if not stale}, any(stale for _muted, stale in rows)


@cache
def _muted_and_stale_statement(vendor: str) -> str:
    mutes, lines = table_name(ChatMute), table_name(ChatMessage)
    muted, by = column(ChatMute, "muted"), column(ChatMute, "user")
    author, hidden = column(ChatMessage, "user"), column(ChatMessage, "hidden")
    line, game = column(ChatMessage, "pk"), column(ChatMessage, "game")
    room = column(ChatMessage, "room")
    muted_by_viewer = _mutes_statement(vendor)
    return (
        f"SELECT {muted}, 0 FROM {mutes} WHERE {by} = %s"
        f" UNION ALL SELECT NULL, 1 WHERE EXISTS (SELECT 1 FROM {lines}"
        f" WHERE {game} = %s AND {room} = %s"
        f" AND (({line} > %s AND NOT {hidden} AND {author} NOT IN ({muted_by_viewer}))"
        f" OR ({line} <= %s AND ({hidden} OR {author} IN ({muted_by_viewer})))))"
    )


def muted_at_table(game_id: int, viewer, muted: set[int] | None = None) -> list[dict]:
    """People the viewer muted who spoke at this table, with how many messages are hidden."""
    muted = muted_ids(viewer) if muted is None else muted
    if not muted:
        return []
    users = {}
    for message in ChatMessage.objects.filter(
        game_id=game_id, user_id__in=muted, hidden=False
    ).select_related("user__profile"):
        entry = users.setdefault(
            message.user_id,
            {
                "username": message.user.get_username(),
                "name": public_name(message.user),
                "count": 0,
            },
        )
        entry["count"] += 1
    return list(users.values())


def messages_by_trick(game_id: int, viewer, rooms=None) -> dict[int, list[dict]]:
    """Every message of a game the viewer may read (``rooms``, or both), grouped by the
    trick (0-based in the whole game) that was on the table when it was said: the one being
    played, or the one just gathered. For the replay."""
    muted = muted_ids(viewer)
    messages = ChatMessage.objects.filter(game_id=game_id, hidden=False)
    if rooms is not None:
        messages = messages.filter(room__in=rooms)
    grouped: dict[int, list[dict]] = {}
    for message in (
        messages.exclude(user_id__in=muted).select_related("user__profile").order_by("id")
    ):
        trick = max(0, (message.moves + 2) // 3 - 1)
        grouped.setdefault(trick, []).append(message_data(message))
    return grouped


def chat_context(
    game_id: int, viewer, room: str | None = None, muted: set[int] | None = None
) -> dict:
    """What the chat panel shows ``viewer``: their room's latest messages, the people they
    muted who spoke here, and the preset phrases. ``room`` and ``muted`` are read here
    unless the caller knows them already (a socket that has just rendered its board knows
    whether its viewer is seated): each is a statement a new game's socket need not make."""
    room = room or room_of(game_id, viewer)
    muted = muted_ids(viewer) if muted is None else muted
    log = chat_log(game_id, viewer, room, muted)
    return {
        "game_id": game_id,
        "chat_room": room,
        "chat_messages": [{"message": data, "text": shown_text(data)} for data in log],
        "chat_muted": muted_at_table(game_id, viewer, muted),
        "chat_presets": list(PRESETS.items()),
    }
