"""Leaderboard standings kept as rows: counted with each rated game, rebuilt from history.

``game_rate`` calls ``standings_count`` in its transaction, with the players' rating rows
locked, so two games rated at once never lose each other's update. ``standings_rebuild``
replays a board's rating events in the order the games ended with the same arithmetic, so
a rebuilt board equals the one kept game by game (a test holds them to that).

A player's line on a board: games and wins in the board's window, the last game's end, and
their rating after it (the mean of their seats' ratings when a bot level sits twice).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from common.bulk_rows import rows_insert, rows_update

from .locks import rating_lock_take
from .models import Leaderboard, RatingEvent, Standing
from .rows import boards_kept

BATCH = 2000


def counts_for(board: Leaderboard, *, finished_at: datetime | None, target: int, has_bot: bool):
    """Whether a game with these facts counts for ``board``."""
    if board.season_start and (finished_at is None or finished_at < board.season_start):
        return False
    if board.season_end and (finished_at is None or finished_at >= board.season_end):
        return False
    if board.target and target != board.target:
        return False
    if board.opponents == Leaderboard.Opponents.HUMANS_ONLY:
        return not has_bot
    if board.opponents == Leaderboard.Opponents.WITH_BOTS:
        return has_bot
    return True


def kept_boards() -> list[Leaderboard]:
    """The boards whose standings are kept: every board not closed (a closed season reads
    its frozen rows). Read with every rated game: a statement written once."""
    return boards_kept()


class _Line:
    """One rating's part in one game: its seats' count, wins and mean rating after."""

    __slots__ = ("bot", "mu", "rating", "seats", "sigma", "user_id", "wins")

    def __init__(self, rating_id, user_id, bot, rows):
        self.rating, self.user_id, self.bot = rating_id, user_id, bot
        self.seats = len(rows)
        self.wins = sum(won for won, _mu, _sigma in rows)
        self.mu = sum(mu for _won, mu, _sigma in rows) / len(rows)
        self.sigma = sum(sigma for _won, _mu, sigma in rows) / len(rows)


def _lines(events) -> list[_Line]:
    """A game's events (in seat order) as one line per rating."""
    rows: dict[int, list] = {}
    who: dict[int, tuple] = {}
    for rating_id, user_id, bot, won, mu, sigma in events:
        rows.setdefault(rating_id, []).append((won, mu, sigma))
        who[rating_id] = (user_id, bot)
    return [_Line(rating_id, *who[rating_id], group) for rating_id, group in rows.items()]


def _add(standing: Standing, line: _Line, finished_at: datetime | None) -> None:
    standing.games += line.seats
    standing.wins += line.wins
    if standing.last_played is None or (finished_at and finished_at >= standing.last_played):
        standing.mu, standing.sigma = line.mu, line.sigma
        standing.ordinal = line.mu - 3 * line.sigma
        standing.last_played = finished_at


def _new(board_id: int, line: _Line) -> Standing:
    return Standing(
        leaderboard_id=board_id,
        rating_id=line.rating,
        user_id=line.user_id,
        bot=line.bot,
        mu=line.mu,
        sigma=line.sigma,
        ordinal=line.mu - 3 * line.sigma,
        games=0,
        wins=0,
        last_played=None,
    )


def standings_count(
    *, events: list[RatingEvent], finished_at, target: int, has_bot: bool, boards=None
) -> None:
    """Count one rated game (its ``events``, in seat order) on every kept board it
    belongs to: one read and at most two writes, whatever the size of the boards."""
    boards = [
        board
        for board in (kept_boards() if boards is None else boards)
        if counts_for(board, finished_at=finished_at, target=target, has_bot=has_bot)
    ]
    if not boards:
        return
    lines = _lines(
        (e.rating_id, e.rating.user_id, e.rating.bot, e.won, e.mu_after, e.sigma_after)
        for e in events
    )
    existing = {
        (s.leaderboard_id, s.rating_id): s
        for s in Standing.objects.filter(
            leaderboard__in=boards, rating_id__in=[line.rating for line in lines]
        )
    }
    new, changed = [], []
    for board in boards:
        for line in lines:
            standing = existing.get((board.pk, line.rating))
            if standing is None:
                standing = _new(board.pk, line)
                new.append(standing)
            else:
                changed.append(standing)
            _add(standing, line, finished_at)
    Standing.objects.bulk_create(new)
    rows_update(Standing, changed, ("mu", "sigma", "ordinal", "games", "wins", "last_played"))


def _definition(board: Leaderboard) -> tuple:
    """What decides which games count for ``board``."""
    return (board.season_start, board.season_end, board.target, board.opponents)


class StandingsBuilt:
    """The kept boards' standings built in memory game by game, in the order games ended (a
    recompute's chunks feed it), then put in place of the old at once (``replace``)."""

    def __init__(self, boards: list[Leaderboard]):
        self.boards = boards
        self.lines: dict[int, dict[int, Standing]] = {board.pk: {} for board in boards}

    def add(self, *, events, finished_at, target: int, has_bot: bool) -> None:
        """Count one rated game, ``events`` as ``(rating id, user id, bot, won, mu after,
        sigma after)`` in seat order, on the boards it belongs to (as ``standings_count``)."""
        boards = [
            board
            for board in self.boards
            if counts_for(board, finished_at=finished_at, target=target, has_bot=has_bot)
        ]
        if not boards:
            return
        for line in _lines(events):
            for board in boards:
                lines = self.lines[board.pk]
                standing = lines.get(line.rating)
                if standing is None:
                    standing = lines[line.rating] = _new(board.pk, line)
                _add(standing, line, finished_at)

    def replace(self) -> int:
        """Put the built lines in place of the standings of every kept board (a board made
        or redefined meanwhile is rebuilt from the rating events); return the lines written."""
        built = {board.pk: _definition(board) for board in self.boards}
        boards = kept_boards()
        Standing.objects.filter(leaderboard__in=boards).delete()
        written = 0
        for board in boards:
            if built.get(board.pk) == _definition(board):
                lines = list(self.lines[board.pk].values())
                rows_insert(Standing, lines, with_pk=False)
                written += len(lines)
            else:
                written += standings_rebuild(board=board)
        return written


@transaction.atomic
def standings_rebuild(*, board: Leaderboard | None = None) -> int:
    """Rebuild the standings of ``board`` (else of every kept board) from the rating events,
    in the order the games ended; return the number of lines written.

    Under the rating lock, exclusive: a board is saved (and seen by the ratings lanes) before
    its standings are rebuilt, so a game rated meanwhile writes lines for it too. Without the
    lock, the two transactions waited on each other (the rebuild's new lines for the lane's
    rating rows, the lane's lines for the rebuild's) and PostgreSQL cancelled one: a
    deadlock. Now the rebuild waits for games being rated, then replaces what they wrote."""
    from .selectors import board_events

    rating_lock_take(exclusive=True)

    boards = [board] if board is not None else kept_boards()
    Standing.objects.filter(leaderboard__in=boards).delete()
    written = 0
    for one in boards:
        events = (
            board_events(one)
            .order_by("game__finished_at", "game_id", "seat")
            .values_list(
                "game_id",
                "game__finished_at",
                "rating_id",
                "rating__user_id",
                "rating__bot",
                "won",
                "mu_after",
                "sigma_after",
            )
        )
        standings: dict[int, Standing] = {}
        for finished_at, rows in _games(events.iterator(chunk_size=BATCH)):
            for line in _lines(rows):
                standing = standings.get(line.rating)
                if standing is None:
                    standing = standings[line.rating] = _new(one.pk, line)
                _add(standing, line, finished_at)
        Standing.objects.bulk_create(standings.values(), batch_size=BATCH)
        written += len(standings)
    return written


def _games(events):
    """``(game_id, finished_at, *event)`` rows, game by game, as ``(finished_at, events)``."""
    game, finished_at, rows = None, None, []
    for game_id, ended, *event in events:
        if game_id != game:
            if rows:
                yield finished_at, rows
            game, finished_at, rows = game_id, ended, []
        rows.append(event)
    if rows:
        yield finished_at, rows
