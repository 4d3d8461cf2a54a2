"""What a player's history and profile read, kept on the rows as games start and end.

Each seat carries copies of its game's start, target, whether bots sat at it and, once it is
over, its outcome for that seat (``Seat.started_at`` and the rest), so a page of a player's
history is one slice of an index on the seats; each person's ended games are counted in
``PlayerStats``. ``seats_dealt`` runs when a game is dealt (and when a person takes a bot's
seat before the first card), ``seats_settle`` when it ends, both under the game's lock.
"""

from __future__ import annotations

from django.db.models import F

from .models import Game, PlayerStats, Seat

WON, LOST, ABANDONED = "won", "lost", "abandoned"


def seats_dealt(game: Game) -> None:
    """Copy what the history filters on from ``game`` (just dealt) to its seats, and
    whether bots sit at it to the game (the admin's filter)."""
    game.with_bots = Seat.objects.filter(game=game).exclude(bot="").exists()
    Seat.objects.filter(game=game).update(
        started_at=game.started_at, target=game.target, with_bots=game.with_bots
    )
    Game.objects.filter(pk=game.pk).update(with_bots=game.with_bots)


def seats_settle(game: Game) -> None:
    """Write each seat's outcome of ``game`` (over) and count it in its people's stats, once."""
    if game.started_at is None or not game.is_over:
        return
    seats = list(Seat.objects.filter(game=game, outcome="").values_list("pk", "number", "user_id"))
    if not seats:
        return  # settled already
    finished = game.status == Game.Status.FINISHED
    winners = [pk for pk, number, _user in seats if finished and number == game.winner_seat]
    others = [pk for pk, number, _user in seats if pk not in winners]
    if winners:
        Seat.objects.filter(pk__in=winners).update(outcome=WON)
    if others:
        Seat.objects.filter(pk__in=others).update(outcome=LOST if finished else ABANDONED)
    people = [(user, number) for _pk, number, user in seats if user is not None]
    if not people:
        return
    users = [user for user, _number in people]
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=user) for user in users], ignore_conflicts=True
    )
    if finished:
        PlayerStats.objects.filter(user_id__in=users).update(finished=F("finished") + 1)
        won = [user for user, number in people if number == game.winner_seat]
        if won:
            PlayerStats.objects.filter(user_id__in=won).update(won=F("won") + 1)
    else:
        PlayerStats.objects.filter(user_id__in=users).update(abandoned=F("abandoned") + 1)
