"""What a player's history and profile read, kept on the rows as games start and end.

Each seat carries copies of its game's start, target, whether bots sat at it and, once it is
over, its outcome for that seat (``Seat.started_at`` and the rest), so a page of a player's
history is one slice of an index on the seats; each person's ended games are counted in
``PlayerStats``. ``seats_dealt`` runs when a game is dealt (and when a person takes a bot's
seat before the first card), ``seats_settle`` when it ends, both under the game's lock.
"""

from __future__ import annotations

from django.db.models import Case, F, Value, When

from games.models import Game, PlayerStats, Seat

WON, LOST, ABANDONED = "won", "lost", "abandoned"


def seats_dealt(game: Game) -> None:
    """Copy what the history filters on from ``game`` (just dealt) to its seats, and
    whether bots sit at it to the game (the admin's filter)."""
    game.with_bots = Seat.objects.filter(game=game).exclude(bot="").exists()
    Seat.objects.filter(game=game).update(
        started_at=game.started_at, target=game.target, with_bots=game.with_bots
    )
    Game.objects.filter(pk=game.pk).update(with_bots=game.with_bots)


def seats_settle(game: Game, seats: list[Seat] | None = None) -> None:
    """Write each seat's outcome of ``game`` (over) and count it in its people's stats, once:
    three statements (the caller may pass the game's ``seats`` it holds already)."""
    if game.started_at is None or not game.is_over:
        return
    finished = game.status == Game.Status.FINISHED
    outcome = (
        Case(When(number=game.winner_seat, then=Value(WON)), default=Value(LOST))
        if finished and game.winner_seat is not None
        else Value(LOST if finished else ABANDONED)
    )
    if not Seat.objects.filter(game=game, outcome="").update(outcome=outcome):
        return  # settled already
    if seats is None:
        seats = list(Seat.objects.filter(game=game))
    people = {seat.user_id: seat.number for seat in seats if seat.user_id is not None}
    if not people:
        return
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=user) for user in people], ignore_conflicts=True
    )
    rows = PlayerStats.objects.filter(user_id__in=list(people))
    if not finished:
        rows.update(abandoned=F("abandoned") + 1)
        return
    winner = next((u for u, number in people.items() if number == game.winner_seat), None)
    rows.update(
        finished=F("finished") + 1,
        won=F("won") + Case(When(user_id=winner, then=Value(1)), default=Value(0)),
    )
