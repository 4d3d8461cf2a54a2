"""What a stream has not shown yet, read from the database (the truth, whatever the channel
layer delivered): a seat's new states, seats taken over, chat lines; a person's running
games. Synchronous: the streams call these in database threads."""

from __future__ import annotations

from django.db.models import Max
from django.utils import timezone

from games.models import ChatMessage, Game, Seat
from games.table.chat import message_data, muted_ids, shown_text
from games.table.loading import seats_of

from .challenges import challenge_data, challenges_of, status_of
from .models import Challenge
from .state import Snapshot, player_of, states_after


def game_news(
    game_id: int, user, seat: int, seen: Snapshot, chat: bool = True, now=None
) -> tuple[list[dict], Snapshot]:
    """The lines a seat's game stream owes since ``seen`` (``gameFull`` first when nothing
    was shown), and what it will then have shown. ``chat`` off: a wake for a card, the
    chat is not read (its own wake, or the next look, brings its lines). ``now``: the
    moment the clock is read at (the present if None)."""
    game = Game.objects.get(pk=game_id)
    now = now or timezone.now()
    lines: list[dict] = []
    seats = seats_of(game) if seen.moves < 0 else None
    taken = Seat.objects.filter(game=game).exclude(stand_in="").values_list("number", "stand_in")
    stand_ins = dict(taken)
    shown = Snapshot(game.moves, game.status, stand_ins, seen.chat_id, seen.followed)
    if seen.moves < 0:
        ((_count, state), *_none), shown.followed = states_after(game, seat, -1, now)
        lines.append(
            {
                "type": "gameFull",
                "id": str(game.pk),
                "seat": seat,
                "target": game.target,
                "rated": game.is_rated,
                "clock": game.clock,
                "players": [player_of(s) for s in seats or ()],
                "state": state,
            }
        )
        latest = ChatMessage.objects.filter(game=game).aggregate(last=Max("id"))["last"]
        shown.chat_id = latest or 0
        return lines, shown
    for number, level in stand_ins.items():
        if number not in seen.stand_ins:
            lines.append({"type": "seatTakenOver", "seat": number, "by": level})
    if (game.moves, game.status) != (seen.moves, seen.status):
        after = seen.moves if game.moves > seen.moves else -1  # -1: the same cards, now ended
        states, shown.followed = states_after(game, seat, after, now, seen.followed)
        lines += [{"type": "gameState", **state} for _count, state in states]
    if not chat and game.status == Game.Status.IN_PROGRESS:
        return lines, shown  # the last look (the game over) reads the chat whatever woke it
    said = (
        ChatMessage.objects.filter(
            game=game, room=ChatMessage.Room.PLAYERS, hidden=False, id__gt=seen.chat_id
        )
        .exclude(user_id__in=muted_ids(user))
        .select_related("user__profile")
        .order_by("id")
    )
    for message in said:
        data = message_data(message)
        lines.append(
            {
                "type": "chatLine",
                "room": "player",
                "username": data["username"],
                "text": shown_text(data),
            }
        )
        shown.chat_id = message.pk
    return lines, shown


CLOSED_EVENTS = {
    Challenge.Status.CANCELED: "challengeCanceled",
    Challenge.Status.EXPIRED: "challengeCanceled",
    Challenge.Status.DECLINED: "challengeDeclined",
}


def challenge_news(user, known: dict[int, str], since) -> tuple[list[dict], dict[int, str]]:
    """The challenge lines an event stream owes: ``challenge`` for each open one it has not
    shown (all of them on open), ``challengeCanceled`` (canceled or expired) and
    ``challengeDeclined`` for those it showed open; and the statuses it then has shown.
    An accepted one says nothing here: its game's ``gameStart`` follows."""
    now = timezone.now()
    lines, shown = [], {}
    for challenge in challenges_of(user, since=since, now=now):
        status = status_of(challenge, now)
        was = known.get(challenge.pk)
        kind = None
        if status == Challenge.Status.OPEN and was is None:
            kind = "challenge"
        elif status in CLOSED_EVENTS and was == Challenge.Status.OPEN:
            kind = CLOSED_EVENTS[status]
        if kind:
            lines.append({"type": kind, "challenge": challenge_data(challenge, now)})
        if status == Challenge.Status.OPEN or was is not None:
            shown[challenge.pk] = status
    return lines, shown


def running_games(user) -> set[int]:
    """The games ``user`` is playing now (dealt, not over)."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.IN_PROGRESS)
    return set(seats.values_list("game_id", flat=True))
