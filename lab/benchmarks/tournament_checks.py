"""The database side of ``bench_tournament_play``: the tournament staff would create, its
start, and after the run, whether it finished correctly (every game scored once, the
standings what the games say, a Swiss's rounds all played)."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta

from django.db import connection
from django.utils import timezone

from games.models import Game, Seat
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.scoring import SeatResult, places, points_for

NOT_YET = timedelta(days=1)  # created to start later; started once everyone is in


def tournament_create(
    *, kind: str, people: int, rounds: int, minutes: float, clock, target: int, name: str
) -> Tournament:
    """A tournament as staff fill in the admin's form: it starts later (people join first)."""
    starts_at = timezone.now() + NOT_YET
    return Tournament.objects.create(
        kind=kind,
        name=name,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes) if kind == Tournament.Kind.ARENA else None,
        rounds=rounds if kind == Tournament.Kind.SWISS else None,
        clock=clock,
        target=target,
        max_players=max(people, 2),
        # is_rated: the model's default (rated), as staff leave it
    )


def tournament_start_now(tournament_id: int) -> None:
    """Staff move the start to now (an arena keeps its length); the runners' lane starts it.
    Called from a thread of its own: its connection is closed when done."""
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        length = tournament.ends_at - tournament.starts_at if tournament.ends_at else None
        tournament.starts_at = timezone.now()
        if length is not None:
            tournament.ends_at = tournament.starts_at + length
        tournament.save(update_fields=["starts_at", "ends_at"])
    finally:
        connection.close()


def tournament_check(tournament_id: int) -> dict:
    """What the database says once the run is over, recomputed from the games' seats."""
    tournament = Tournament.objects.get(pk=tournament_id)
    arena = tournament.kind == Tournament.Kind.ARENA
    rows = list(
        TournamentGame.objects.filter(tournament=tournament)
        .select_related("game")
        .order_by("game__finished_at", "pk")
    )
    seats = defaultdict(list)
    for seat in Seat.objects.filter(game__tournament_game__tournament=tournament):
        seats[seat.game_id].append(seat)
    expected: dict[int, Counter] = defaultdict(Counter)  # user -> points, games, wins, ...
    streaks: Counter = Counter()
    rounds = defaultdict(list)  # Swiss: round -> the people seated in it
    bots = 0
    for row in rows:
        game = row.game
        rounds[row.round] += [seat.user_id for seat in seats[game.pk] if seat.user_id]
        bots += sum(1 for seat in seats[game.pk] if not seat.user_id)
        if game.status not in (Game.Status.FINISHED, Game.Status.ABANDONED):
            continue
        placed = places([SeatResult(s.number, s.score) for s in seats[game.pk]], game.winner_seat)
        for seat in seats[game.pk]:
            if not seat.user_id:
                continue
            left = game.status == Game.Status.ABANDONED and game.abandoned_by == seat.number
            points, streaks[seat.user_id] = points_for(
                placed[seat.number], streak_before=streaks[seat.user_id], arena=arena, left=left
            )
            expected[seat.user_id].update(
                points=points,
                games=1,
                wins=int(placed[seat.number] == 1 and not left),
                game_points=seat.score,
            )
    fields = ("points", "games", "wins", "game_points")
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    wrong = [
        entry.user.username
        for entry in entries
        if tuple(getattr(entry, f) for f in fields)
        != tuple(expected[entry.user_id][f] for f in fields)
    ]
    figures = {
        "status": tournament.status,
        "games": len(rows),
        "games_unscored": sum(not row.scored for row in rows),
        "games_not_over": sum(
            row.game.status not in (Game.Status.FINISHED, Game.Status.ABANDONED) for row in rows
        ),
        "games_abandoned": sum(row.game.status == Game.Status.ABANDONED for row in rows),
        "bot_seats": bots,
        "entries": len(entries),
        "entry_games": sum(entry.games for entry in entries),
        "entries_not_matching_games": wrong,
    }
    consistent = not (figures["games_unscored"] or figures["games_not_over"] or wrong)
    consistent = consistent and tournament.status == Tournament.Status.FINISHED
    if not arena:
        people = {entry.user_id for entry in entries if entry.is_active}
        complete = [
            number
            for number in range(1, tournament.rounds + 1)
            if Counter(rounds.get(number, [])) == Counter(people)  # each person seated once
        ]
        figures |= {
            "rounds": tournament.rounds,
            "current_round": tournament.current_round,
            "rounds_complete": len(complete),
        }
        consistent = consistent and len(complete) == tournament.rounds
    return figures | {"consistent": consistent}
