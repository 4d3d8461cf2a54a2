"""Game records from the database rows, through the engine's own export."""

from .engine import record_of
from .models import Game
from .selectors import game_load


def players_of(seats) -> list[dict]:
    """The ``players`` entries of a record: people by username, bots by level."""
    players = []
    for seat in seats:
        if seat.is_bot:
            players.append(
                {"seat": seat.number, "name": seat.bot_name, "kind": "bot", "bot": seat.bot}
            )
        else:
            name = seat.user.get_username() if seat.user_id else ""
            players.append({"seat": seat.number, "name": name, "kind": "human"})
    return players


def game_record(game: Game) -> dict:
    """Return the coins-record/1 of a started game, exactly as the engine exports it."""
    loaded = game_load(game)
    return record_of(
        loaded.state, game_id=str(game.pk), players=players_of(loaded.seats), status=game.status
    )
