"""Reads: rebuild a game's engine state from its rows, and the queries pages need.

Rebuilding costs two queries (hands, plays) after the game row: each play is replayed
through the engine, so a row that broke the rules could never load silently.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from games.engine import GameState, parse_card
from games.models import Game, Hand, Play, Seat
from games.table import state_cache


class CorruptGame(RuntimeError):
    """The rows of a game disagree with the rules (never expected; logged and refused)."""


@dataclass
class LoadedGame:
    """A game row with its seats and its engine state."""

    game: Game
    seats: list[Seat]
    state: GameState

    def seat_of(self, user) -> Seat | None:
        if user is None or not user.is_authenticated:
            return None
        return next((seat for seat in self.seats if seat.user_id == user.pk), None)


def seats_of(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user__profile").order_by("number"))


def game_load(game: Game, seats: list[Seat] | None = None) -> LoadedGame:
    """Return ``game`` with its seats and engine state, from this process's cache or the rows.

    ``game`` must be fresh (read under the row lock when a move follows): the cache entry is
    chosen by its move count.
    """
    cached = state_cache.get((game.pk, game.seed), game.moves, game.updated_at)
    if cached is not None:
        return LoadedGame(game, cached.seats, cached.state)
    loaded = _rebuild(game, seats_of(game) if seats is None else seats)
    remember(loaded)
    return loaded


def cached_game(game_id: int, seed: str, moves: int) -> LoadedGame | None:
    """Return the game as it was after ``moves`` plays if this process has it, else None."""
    cached = state_cache.get((game_id, seed), moves)
    if cached is None:
        return None
    return LoadedGame(cached.game, cached.seats, cached.state)


def remember(loaded: LoadedGame) -> None:
    """Cache ``loaded`` as the game after its current move count."""
    game = loaded.game
    state_cache.put(
        (game.pk, game.seed),
        state_cache.Entry(game.moves, game, loaded.seats, loaded.state),
    )


def _rebuild(game: Game, seats: list[Seat]) -> LoadedGame:
    """Replay the game from its hand and play rows, up to the row's own move count: a page
    or a push that read the row just before a move committed shows the game as the row says
    (a board labelled with one move count must never show a later card)."""
    decks = Hand.objects.filter(game=game).order_by("number").values_list("deck", flat=True)
    plays = (
        Play.objects.filter(game=game, sequence__lt=game.moves)
        .order_by("sequence")
        .values_list("seat", "card")
    )
    state = GameState(
        game.target,
        seed=game.seed,
        first_dealer=game.first_dealer,
        decks=[tuple(parse_card(code) for code in deck) for deck in decks],
    )
    for seat, card in plays:
        if seat != state.to_play:
            raise CorruptGame(f"Game {game.pk}: seat {seat} played out of turn.")
        state.play(seat, card)
    return LoadedGame(game=game, seats=seats, state=state)


def bot_turn(game_id: int) -> tuple[int, str] | None:
    """Return (move count, bot level) if a bot is due to play in this running game."""
    return (
        Seat.objects.filter(game_id=game_id, game__status=Game.Status.IN_PROGRESS)
        .exclude(bot="")
        .filter(number=F("game__to_play"))
        .values_list("game__moves", "bot")
        .first()
    )


def open_tables() -> QuerySet[Game]:
    """Public tables waiting for players, newest first, at most
    ``COINS_LOBBY_TABLES_PER_CREATOR`` of each creator (nobody fills the lobby alone)."""
    newest_of_creator = Window(
        RowNumber(), partition_by=[F("created_by_id")], order_by=F("created_at").desc()
    )
    waiting = Game.objects.filter(status=Game.Status.WAITING, is_public=True)
    return (
        waiting.annotate(creator_rank=newest_of_creator)
        .filter(creator_rank__lte=settings.COINS_LOBBY_TABLES_PER_CREATOR)
        .prefetch_related("seats__user")
        .order_by("-created_at")
    )


def running_games_of(user) -> QuerySet[Game]:
    return (
        Game.objects.filter(seats__user=user)
        .filter(Q(status=Game.Status.IN_PROGRESS) | Q(status=Game.Status.WAITING))
        .prefetch_related("seats__user")
        .order_by("-updated_at")
        .distinct()
    )


def watchable_games() -> QuerySet[Game]:
    return (
        Game.objects.filter(status=Game.Status.IN_PROGRESS, is_public=True)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )


def player_stats(user) -> dict:
    """Finished games played and won by ``user``, with the win rate (one row, kept as games
    end: ``games.history.player_records``)."""
    from games.models import PlayerStats

    stats = PlayerStats.objects.filter(user=user).first()
    played, won = (stats.finished, stats.won) if stats else (0, 0)
    return {"played": played, "won": won, "win_rate": won / played if played else None}


def seen_by(viewer, game_field: str = "pk") -> Q:
    """The privacy rule for lists: public games, and private ones ``viewer`` sat at.
    ``game_field`` points from the listed rows to their game (``"game_id"`` for events)."""
    public = "is_public" if game_field == "pk" else "game__is_public"
    if viewer is None or not viewer.is_authenticated:
        return Q(**{public: True})
    seated = Exists(Seat.objects.filter(game=OuterRef(game_field), user=viewer))
    return Q(**{public: True}) | Q(seated)


def recent_games_of(user, viewer=None, limit: int = 10) -> list[Game]:
    """The user's latest started games as ``viewer`` may see them (private games only to
    the people who sat at them), with the seats needed to show opponents and scores: the
    first slice of the history's index on the seats, whatever the number of games."""
    from games.history.games import games_page

    return games_page(user, viewer, per_page=limit).rows
