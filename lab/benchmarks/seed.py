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

import json
import random
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Profile
from common.bulk_rows import rows_insert, tuples_insert
from games.engine import CARD_CODES, GameState
from games.engine.bots import make_bot
from games.models import Game, Hand, Play, PlayerStats, Seat, Trick

HEAVY_SHARES = (0.06, 0.045, 0.035, 0.03, 0.025)  # of all games: 12,000 down to 5,000 at 200k
BOTS = (("careful", 0.75), ("random", 0.15), ("heuristic", 0.10))
PERSON_PLAYS_AS = (("careful", 0.8), ("random", 0.2))
TARGETS = ((10, 0.7), (15, 0.15), (20, 0.1), (5, 0.05))
YEARS = 3
SECONDS_PER_CARD = 4
BATCH = 500  # games written per batch


def _pick(rng: random.Random, weighted) -> object:
    roll, total = rng.random(), 0.0
    for value, weight in weighted:
        total += weight
        if roll < total:
            return value
    return weighted[-1][0]


@dataclass
class Batch:
    games: list = field(default_factory=list)
    seats: list = field(default_factory=list)
    hands: list = field(default_factory=list)
    tricks: list = field(default_factory=list)
    plays: list = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.games)


class Ids:
    """The next free id of each table, handed out here (sequences are set at the end)."""

    def __init__(self):
        self.next = {}
        for model in (Game, Seat, Hand, Trick, Play):
            last = model.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            self.next[model] = last + 1

    def take(self, model) -> int:
        value = self.next[model]
        self.next[model] = value + 1
        return value


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


class Seeder:
    def __init__(self, *, games: int, people: list[int], seed: str, out=None):
        self.total = games
        self.people = people
        self.heavy = people[: len(HEAVY_SHARES)]
        self.normal = people[len(HEAVY_SHARES) :] or people
        self.seed = seed
        self.out = out
        self.ids = Ids()
        self.ended: list[tuple] = []  # what rating needs, game by game, in the order they end
        self.stats: dict[int, list[int]] = {}  # user -> [finished, won, abandoned]
        now = timezone.now()
        self.start = now - timedelta(days=365 * YEARS)
        self.span = (now - timedelta(hours=1) - self.start).total_seconds()
        self.plays = 0

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
        people = min(people, len(set(self.people)))
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
                seats.append((None, bot, bot))
        return seats

    # -- one game ------------------------------------------------------------------------------

    def game_add(self, index: int, batch: Batch) -> None:
        rng = random.Random(f"{self.seed}/{index}")
        seating = self._seating(rng)
        target = _pick(rng, TARGETS)
        deal_seed = f"{rng.getrandbits(128):032x}"
        state = GameState(target, seed=deal_seed)
        bots = [
            make_bot(plays_as, seed=f"{deal_seed}/{n}")
            for n, (_u, _b, plays_as) in enumerate(seating)
        ]
        abandoned = rng.random() < 0.03
        stop_at = rng.randrange(10, 60) if abandoned else None
        played = 0
        while state.winner is None and (stop_at is None or played < stop_at):
            seat = state.to_play
            state.play(seat, bots[seat].choose(state.view_for(seat)))
            played += 1
        abandoned = state.winner is None
        people_seats = [n for n, (user, _b, _p) in enumerate(seating) if user is not None]
        leaver = rng.choice(people_seats) if abandoned and people_seats else None

        started = self.start + timedelta(
            seconds=self.span * index / self.total + rng.uniform(0, 60)
        )
        finished = started + timedelta(seconds=played * SECONDS_PER_CARD + rng.uniform(5, 60))
        game_id = self.ids.take(Game)
        status = Game.Status.ABANDONED if abandoned else Game.Status.FINISHED
        is_rated = rng.random() < 0.9
        creator = next((user for user, _b, _p in seating if user is not None), None)
        with_bots = any(bot for _u, bot, _p in seating)
        batch.games.append(
            Game(
                id=game_id,
                target=target,
                status=status,
                is_public=rng.random() < 0.95,
                is_rated=is_rated,
                invite_token=f"{rng.getrandbits(96):024x}",
                seed=deal_seed,
                first_dealer=state.first_dealer,
                winner_seat=state.winner,
                abandoned_by=leaver,
                moves=played,
                to_play=None,
                created_by_id=creator,
                with_bots=with_bots,
                created_at=started - timedelta(seconds=rng.uniform(1, 30)),
                started_at=started,
                finished_at=finished,
                updated_at=finished,
            )
        )
        for number, (user, bot, _plays_as) in enumerate(seating):
            outcome = "abandoned" if abandoned else ("won" if number == state.winner else "lost")
            batch.seats.append(
                Seat(
                    id=self.ids.take(Seat),
                    game_id=game_id,
                    number=number,
                    user_id=user,
                    bot=bot,
                    score=state.scores[number],
                    started_at=started,
                    target=target,
                    with_bots=with_bots,
                    outcome=outcome,
                )
            )
            if user is not None:
                stats = self.stats.setdefault(user, [0, 0, 0])
                if abandoned:
                    stats[2] += 1
                else:
                    stats[0] += 1
                    stats[1] += number == state.winner
        self._rows(state, game_id, started, batch)
        self.plays += played
        if is_rated:
            self.ended.append(
                (finished, game_id, seating, list(state.scores), state.winner, leaver)
            )

    def _rows(self, state: GameState, game_id: int, started: datetime, batch: Batch) -> None:
        sequence = 0
        for hand in state.hand_log:
            hand_id = self.ids.take(Hand)
            when = started + timedelta(seconds=sequence * SECONDS_PER_CARD)
            batch.hands.append(
                (
                    hand_id,
                    game_id,
                    hand.number,
                    hand.dealer,
                    json.dumps([CARD_CODES[card] for card in hand.deck]),
                    when,
                )
            )
            tricks = [(t.number, t.leader, t.cards, t.winner, t.points) for t in hand.tricks]
            if hand is state.hand_log[-1] and state.trick:
                tricks.append((len(hand.tricks) + 1, state.leader, tuple(state.trick), None, None))
            for number, leader, cards, winner, points in tricks:
                trick_id = self.ids.take(Trick)
                batch.tricks.append((trick_id, hand_id, number, leader, winner, points))
                for order, card in enumerate(cards):
                    batch.plays.append(
                        (
                            self.ids.take(Play),
                            game_id,
                            hand_id,
                            trick_id,
                            sequence,
                            order,
                            (leader + order) % 3,
                            CARD_CODES[card],
                            False,
                            started + timedelta(seconds=sequence * SECONDS_PER_CARD),
                        )
                    )
                    sequence += 1

    # -- writing -------------------------------------------------------------------------------

    def run(self) -> dict:
        began = time.monotonic()
        batch = Batch()
        for index in range(self.total):
            self.game_add(index, batch)
            if len(batch) >= BATCH:
                self._write(batch)
                batch = Batch()
                self._say(
                    f"{index + 1} games, {self.plays} plays, {time.monotonic() - began:.0f} s"
                )
        if batch:
            self._write(batch)
        played_in = time.monotonic() - began
        _reset_sequences()
        rated = ratings_seed(self.ended)
        stats_seed(self.stats)
        from ratings.standings import standings_rebuild

        lines = standings_rebuild()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        return {
            "games": self.total,
            "plays": self.plays,
            "rated": rated,
            "standings": lines,
            "seconds": round(time.monotonic() - began, 1),
            "games_seconds": round(played_in, 1),
        }

    def _say(self, text: str) -> None:
        if self.out is not None:
            self.out.write(text)

    @transaction.atomic
    def _write(self, batch: Batch) -> None:
        rows_insert(Game, batch.games)
        rows_insert(Seat, batch.seats)
        tuples_insert(Hand, HAND_COLUMNS, batch.hands)
        tuples_insert(Trick, TRICK_COLUMNS, batch.tricks)
        tuples_insert(Play, PLAY_COLUMNS, batch.plays)


HAND_COLUMNS = ("id", "game_id", "number", "dealer", "deck", "created_at")
TRICK_COLUMNS = ("id", "hand_id", "number", "leader", "winner", "points")
PLAY_COLUMNS = (
    "id",
    "game_id",
    "hand_id",
    "trick_id",
    "sequence",
    "order",
    "seat",
    "card",
    "auto",
    "played_at",
)


def _reset_sequences() -> None:
    from django.apps import apps

    models = [
        apps.get_model(*name.split("."))
        for name in (
            "games.Game",
            "games.Seat",
            "games.Hand",
            "games.Trick",
            "games.Play",
            "ratings.RatingEvent",
            "ratings.PlayerRating",
        )
    ]
    statements = connection.ops.sequence_reset_sql(no_style(), models)
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def stats_seed(stats: dict[int, list[int]]) -> None:
    """Add the seeded games to the players' kept stats."""
    have = {s.user_id: s for s in PlayerStats.objects.filter(user_id__in=list(stats))}
    new = []
    for user, (finished, won, abandoned) in stats.items():
        row = have.get(user)
        if row is None:
            new.append(PlayerStats(user_id=user, finished=finished, won=won, abandoned=abandoned))
        else:
            row.finished += finished
            row.won += won
            row.abandoned += abandoned
    PlayerStats.objects.bulk_create(new, batch_size=2000)
    PlayerStats.objects.bulk_update(
        list(have.values()), ["finished", "won", "abandoned"], batch_size=2000
    )


def ratings_seed(ended: list[tuple]) -> int:
    """Rate the seeded games in the order they ended, by the rule ``game_rate`` follows
    (``ratings.recompute.ratings_in_order``), writing the events in bulk."""
    from ratings.models import PlayerRating, RatingEvent
    from ratings.recompute import EndedGame, rating_key, ratings_fetch, ratings_in_order

    ended.sort(key=lambda item: (item[0], item[1]))
    ratings = ratings_fetch(
        {rating_key(user, bot) for _f, _g, seating, *_ in ended for user, bot, _p in seating}
    )
    games = (
        EndedGame(
            game_id=game_id,
            players=tuple((user, bot) for user, bot, _p in seating),
            scores=tuple(scores),
            winner=winner,
            leavers=frozenset() if leaver is None else frozenset({leaver}),
        )
        for _finished, game_id, seating, scores, winner, leaver in ended
    )
    finished_at = iter([finished for finished, *_ in ended])
    batch = []
    for events in ratings_in_order(games, ratings, created_at=None):
        when = next(finished_at)
        for event in events:
            event.created_at = when
        batch += events
        if len(batch) >= 20_000:
            rows_insert(RatingEvent, batch, with_pk=False)
            batch = []
    rows_insert(RatingEvent, batch, with_pk=False)
    PlayerRating.objects.bulk_update(
        list(ratings.values()), ["mu", "sigma", "games", "wins"], batch_size=2000
    )
    return len(ended)


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


__all__ = ["Seeder", "boards_ensure", "people_make", "rows_insert"]
