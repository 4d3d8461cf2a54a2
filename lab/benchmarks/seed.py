"""Years of match history for measuring pages (``manage.py seed_scale``).

Every game is a real game played by the engine's bots (people's cards too: a person plays
like the medium or the random bot), stored as the site stores it: the game, its seats (with
their history copies), hands with their decks, tricks and plays, then rated in the order the
games ended with the site's OpenSkill model and ranking, the players' stats and every open
leaderboard's standings rebuilt from the rating events. Rows go in with ``COPY`` on
PostgreSQL (``bulk_create`` elsewhere), ids assigned here so plays can point at their hands
and tricks without a round trip.

The mix: about half the games are a person against two bots, a quarter two people and a bot,
the rest three people; a few heavy players sit at thousands of games each; targets 10, 15 and
20 mostly; some private, some casual (unrated), some abandoned part-way (the leaver ranked
last); games spread over three years.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import secrets
import time
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.utils import timezone

from accounts.models import Profile
from common.bulk_rows import rows_insert, tuples_insert
from games.engine import GameState
from games.engine.bots import make_bot
from games.models import Game, Hand, Play, Seat, Trick
from lab.benchmarks.seed_after import ratings_seed, sequences_reset, stats_seed
from lab.benchmarks.seed_bulk import Reservations, indexes_set_aside, triggers_off
from lab.benchmarks.seed_rows import (
    HAND_COLUMNS,
    PLAY_COLUMNS,
    SECONDS_PER_CARD,
    TRICK_COLUMNS,
    Played,
    Rows,
    card_rows,
)
from ratings.models import RatingEvent
from ratings.standings import StandingsBuilt, kept_boards, standings_rebuild

HEAVY_SHARES = (0.06, 0.045, 0.035, 0.03, 0.025)  # of all games: 12,000 down to 5,000 at 200k
BOTS = (("careful", 0.75), ("random", 0.15), ("heuristic", 0.10))
PERSON_PLAYS_AS = (("careful", 0.8), ("random", 0.2))
TARGETS = ((10, 0.7), (15, 0.15), (20, 0.1), (5, 0.05))
YEARS = 3
CHUNK = 1000  # games a worker plays and writes in one transaction
BULK_FROM = 20_000  # games from which a PostgreSQL load sets the indexes aside
# The heuristic level's policy is twenty times slower than the others; its seats play their
# cards as the careful bot does (the pages measured read the cards, not who chose them).
BOT_PLAYS_AS = {"heuristic": "careful"}


def _pick(rng: random.Random, weighted) -> object:
    roll, total = rng.random(), 0.0
    for value, weight in weighted:
        total += weight
        if roll < total:
            return value
    return weighted[-1][0]


def people_make(count: int, prefix: str) -> list[int]:
    """``count`` people named ``<prefix>-00001``...; existing ones are reused. Their ids."""
    User = get_user_model()
    names = [f"{prefix}-{n:05d}" for n in range(1, count + 1)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    joined = timezone.now() - timedelta(days=365 * YEARS + 30)
    new = [
        User(username=name, password="!", date_joined=joined)
        for name in names
        if name not in existing
    ]
    User.objects.bulk_create(new, batch_size=2000)
    ids = dict(User.objects.filter(username__in=names).values_list("username", "pk"))
    have = set(Profile.objects.filter(user_id__in=ids.values()).values_list("user_id", flat=True))
    Profile.objects.bulk_create(
        [Profile(user_id=pk) for pk in ids.values() if pk not in have], batch_size=2000
    )
    return [ids[name] for name in names]


@dataclass
class Chunk:
    """What a chunk of games leaves for the rating and the stats, once its rows are in."""

    ended: list[tuple] = field(default_factory=list)
    stats: dict[int, list[int]] = field(default_factory=dict)
    plays: int = 0


_ACTIVE: Seeder | None = None  # the seeder of the worker processes (inherited by fork)


def _chunk_in_worker(bounds: tuple[int, int]) -> Chunk:
    return _ACTIVE.chunk_write(*bounds)


class Seeder:
    def __init__(
        self,
        *,
        games: int,
        people: list[int],
        seed: str,
        out=None,
        workers: int | None = None,
        bulk: bool | None = None,
        chunk: int = CHUNK,
    ):
        self.total = games
        self.people = people
        self.heavy = people[: len(HEAVY_SHARES)]
        self.normal = people[len(HEAVY_SHARES) :] or people
        self.distinct_people = len(set(people))  # once: a set of every person per game cost
        # as much as playing the game
        self.seed = seed
        self.out = out
        self.chunk = chunk
        postgres = connection.vendor == "postgresql"
        self.bulk = postgres and (games >= BULK_FROM if bulk is None else bulk)
        if workers is None:
            workers = (os.cpu_count() or 1) if games >= 2 * chunk else 1
        self.workers = workers if postgres else 1
        now = timezone.now()
        self.start = now - timedelta(days=365 * YEARS)
        self.span = (now - timedelta(hours=1) - self.start).total_seconds()
        firsts = {
            name: _next_id(model)
            for name, model in (
                ("game", Game),
                ("seat", Seat),
                ("hand", Hand),
                ("trick", Trick),
                ("play", Play),
            )
        }
        self.first_game, self.first_seat = firsts.pop("game"), firsts.pop("seat")
        self.ids = Reservations(firsts, shared=self.workers > 1)

    # -- people and seats --------------------------------------------------------------------

    def _person(self, rng: random.Random, taken: set[int]) -> int:
        roll, total = rng.random(), 0.0
        for user, share in zip(self.heavy, HEAVY_SHARES, strict=False):
            total += share / 2  # a game has about two people
            if roll < total and user not in taken:
                return user
        while True:
            user = rng.choice(self.normal)
            if user not in taken or len(self.normal) < 3:
                return user

    def _seating(self, rng: random.Random) -> list[tuple[int | None, str, str]]:
        """Three seats as (user id or None, bot level or "", the bot that plays the cards)."""
        roll = rng.random()
        people = 1 if roll < 0.55 else 2 if roll < 0.8 else 3
        people = min(people, self.distinct_people)
        kinds = ["person"] * people + ["bot"] * (3 - people)
        rng.shuffle(kinds)
        seats, taken = [], set()
        for kind in kinds:
            if kind == "person":
                user = self._person(rng, taken)
                taken.add(user)
                seats.append((user, "", _pick(rng, PERSON_PLAYS_AS)))
            else:
                bot = _pick(rng, BOTS)
                seats.append((None, bot, BOT_PLAYS_AS.get(bot, bot)))
        return seats

    # -- one game ------------------------------------------------------------------------------

    def game_play(self, index: int) -> Played:
        """Game ``index`` of the run, played to its end (or to where its leaver left)."""
        rng = random.Random(f"{self.seed}/{index}")
        seating = self._seating(rng)
        target = _pick(rng, TARGETS)
        deal_seed = f"{rng.getrandbits(128):032x}"
        state = GameState(target, seed=deal_seed)
        bots = [
            make_bot(plays_as, seed=f"{deal_seed}/{n}")
            for n, (_u, _b, plays_as) in enumerate(seating)
        ]
        stop_at = rng.randrange(10, 60) if rng.random() < 0.03 else None
        played = 0
        while state.winner is None and (stop_at is None or played < stop_at):
            seat = state.to_play
            state.play(seat, bots[seat].choose(state.view_for(seat)))
            played += 1
        people_seats = [n for n, (user, _b, _p) in enumerate(seating) if user is not None]
        leaver = rng.choice(people_seats) if state.winner is None and people_seats else None
        started = self.start + timedelta(
            seconds=self.span * index / self.total + rng.uniform(0, 60)
        )
        finished = started + timedelta(seconds=played * SECONDS_PER_CARD + rng.uniform(5, 60))
        is_rated = rng.random() < 0.9
        is_public = rng.random() < 0.95
        return Played(
            index=index,
            state=state,
            seating=seating,
            target=target,
            deal_seed=deal_seed,
            leaver=leaver,
            started=started,
            finished=finished,
            is_rated=is_rated,
            is_public=is_public,
            invite_token=secrets.token_hex(12),  # unique across runs of one seed
            moves=played,
        )

    # -- a chunk of games, written -------------------------------------------------------------

    def chunk_write(self, start: int, stop: int) -> Chunk:
        """Play games ``start`` to ``stop``, reserve their ids and ``COPY`` them in, in one
        transaction of this process's own connection."""
        played = [self.game_play(index) for index in range(start, stop)]
        counts = {"hand": 0, "trick": 0, "play": 0}
        for game in played:
            for name, count in game.counts().items():
                counts[name] += count
        next_id = self.ids.reserve(counts)
        rows = Rows()
        chunk = Chunk()
        for game in played:
            self._rows(game, rows, next_id, chunk)
        with transaction.atomic():
            if self.bulk:
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL synchronous_commit = off")
                    triggers_off(cursor)
            rows_insert(Game, rows.games)
            rows_insert(Seat, rows.seats)
            tuples_insert(Hand, HAND_COLUMNS, rows.hands)
            tuples_insert(Trick, TRICK_COLUMNS, rows.tricks)
            tuples_insert(Play, PLAY_COLUMNS, rows.plays)
        return chunk

    def _rows(self, game: Played, rows: Rows, next_id: dict[str, int], chunk: Chunk) -> None:
        state, seating = game.state, game.seating
        game_id = self.first_game + game.index
        creator = next((user for user, _b, _p in seating if user is not None), None)
        with_bots = any(bot for _u, bot, _p in seating)
        rows.games.append(
            Game(
                id=game_id,
                target=game.target,
                status=Game.Status.ABANDONED if game.abandoned else Game.Status.FINISHED,
                is_public=game.is_public,
                is_rated=game.is_rated,
                invite_token=game.invite_token,
                seed=game.deal_seed,
                first_dealer=state.first_dealer,
                winner_seat=state.winner,
                abandoned_by=game.leaver,
                moves=game.moves,
                to_play=None,
                created_by_id=creator,
                with_bots=with_bots,
                created_at=game.started - timedelta(seconds=1 + game.index % 29),
                started_at=game.started,
                finished_at=game.finished,
                updated_at=game.finished,
            )
        )
        for number, (user, bot, _plays_as) in enumerate(seating):
            outcome = "won" if number == state.winner else "lost"
            outcome = "abandoned" if game.abandoned else outcome
            rows.seats.append(
                Seat(
                    id=self.first_seat + 3 * game.index + number,
                    game_id=game_id,
                    number=number,
                    user_id=user,
                    bot=bot,
                    score=state.scores[number],
                    started_at=game.started,
                    target=game.target,
                    with_bots=with_bots,
                    outcome=outcome,
                )
            )
            if user is not None:
                stats = chunk.stats.setdefault(user, [0, 0, 0])
                if game.abandoned:
                    stats[2] += 1
                else:
                    stats[0] += 1
                    stats[1] += number == state.winner
        card_rows(state, game_id, game.started, rows, next_id)
        chunk.plays += game.moves
        if game.is_rated:
            chunk.ended.append(
                (
                    game.finished,
                    game_id,
                    seating,
                    list(state.scores),
                    state.winner,
                    game.leaver,
                    game.target,
                )
            )

    # -- the run -------------------------------------------------------------------------------

    def run(self) -> dict:
        began = time.monotonic()
        ended, stats, plays = [], {}, 0
        step = self.chunk
        bounds = [(n, min(n + step, self.total)) for n in range(0, self.total, step)]
        with self._loading() as rebuild:
            for done, chunk in enumerate(self._chunks(bounds), start=1):
                ended += chunk.ended
                plays += chunk.plays
                for user, (finished, won, abandoned) in chunk.stats.items():
                    kept = stats.setdefault(user, [0, 0, 0])
                    kept[0] += finished
                    kept[1] += won
                    kept[2] += abandoned
                if done % max(1, len(bounds) // 20) == 0 or done == len(bounds):
                    games = min(done * step, self.total)
                    self._say(f"{games} games, {plays} plays, {time.monotonic() - began:.0f} s")
            loaded_in = time.monotonic() - began
            if rebuild is not None:
                rebuild.start()  # the ratings need no game table's index: they go on beside
            rated, lines = self._rate(ended)
            stats_seed(stats)
            rated_in = time.monotonic() - began
        built_in = time.monotonic() - began
        sequences_reset()
        if lines is None:
            lines = standings_rebuild()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # as autovacuum leaves years of rows: hint bits set, visibility map
                # full (index-only scans read no heap), statistics fresh
                # (VACUUM cannot run in a transaction: a test's seeding only analyses)
                vacuum = "ANALYZE" if connection.in_atomic_block else "VACUUM (ANALYZE)"
                cursor.execute(vacuum)
        seconds = time.monotonic() - began
        return {
            "games": self.total,
            "plays": plays,
            "rated": rated,
            "standings": lines,
            "workers": self.workers,
            "bulk": self.bulk,
            "seconds": round(seconds, 1),
            "load_seconds": round(loaded_in, 1),
            "rated_seconds": round(rated_in, 1),  # from the start, index builds beside
            "indexes_seconds": round(built_in, 1),  # from the start, every index built
            "games_per_second": round(self.total / loaded_in),  # played and written
            "overall_games_per_second": round(self.total / seconds),
        }

    def _rate(self, ended: list[tuple]) -> tuple[int, int | None]:
        """Rate the seeded games in order; with no rating event before them, count the
        standings as they are rated (as a recompute does) instead of reading every event
        back. Return the games rated and the standings lines written (None: not yet)."""
        standings = None if RatingEvent.objects.exists() else StandingsBuilt(kept_boards())
        rated = ratings_seed(ended, standings)
        return rated, standings.replace() if standings is not None else None

    def _loading(self):
        """The game tables' secondary indexes set aside for a bulk load, else nothing."""
        return indexes_set_aside() if self.bulk else nullcontext()

    def _chunks(self, bounds: list[tuple[int, int]]) -> Iterator[Chunk]:
        """Each chunk written, here or by worker processes (forked: they inherit this
        seeder; each opens a connection of its own)."""
        if self.workers == 1:
            for start, stop in bounds:
                yield self.chunk_write(start, stop)
            return
        global _ACTIVE
        _ACTIVE = self
        _connections_dropped()  # a child must not share the parent's sockets (or its pool)
        try:
            with multiprocessing.get_context("fork").Pool(self.workers) as pool:
                yield from pool.imap_unordered(_chunk_in_worker, bounds)
        finally:
            _ACTIVE = None

    def _say(self, text: str) -> None:
        if self.out is not None:
            self.out.write(text)


def _connections_dropped() -> None:
    connections.close_all()
    for conn in connections.all(initialized_only=True):
        if getattr(conn, "pool", None) is not None:
            conn.close_pool()


def _next_id(model) -> int:
    return (model.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1


def boards_ensure() -> list:
    """The three boards of the measurements: all time, this season, people only."""
    from ratings.models import Leaderboard

    now = timezone.now()
    specs = [
        ("all-time", "All time", {}),
        ("season", "This season", {"season_start": now - timedelta(days=90)}),
        (
            "people",
            "People only",
            {
                "opponents": Leaderboard.Opponents.HUMANS_ONLY,
                "listed": Leaderboard.Listed.PEOPLE,
                "min_games": 5,
            },
        ),
    ]
    boards = []
    for slug, name, fields in specs:
        board = Leaderboard.objects.filter(slug=slug).first()
        if board is None:
            board = Leaderboard.objects.create(slug=slug, name=name, **fields)
        boards.append(board)
    return boards


__all__ = ["Seeder", "boards_ensure", "people_make"]
