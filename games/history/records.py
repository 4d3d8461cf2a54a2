"""Game records from the database rows, through the engine's own export.

Two facts the engine does not know are added from the rows (``coins-record/1`` allows other
fields): which cards the server played for a person whose clock ran out (``"auto"`` on a
trick: the seats it played for), and which people a bot replaced for the rest of the game
(``"stand_in"`` on a player: the bot level that took over).
"""

from games.engine import record_of
from games.models import Game, Play
from games.table.loading import game_load


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
            player = {"seat": seat.number, "name": name, "kind": "human"}
            if seat.stand_in:
                player["stand_in"] = seat.stand_in
            players.append(player)
    return players


def auto_plays(game: Game) -> set[int]:
    """The game-wide sequence numbers of the cards the server played for absent people."""
    return set(Play.objects.filter(game=game, auto=True).values_list("sequence", flat=True))


def game_record(game: Game) -> dict:
    """Return the coins-record/1 of a started game, as the engine exports it, with the
    cards played for absent people marked on their tricks."""
    loaded = game_load(game)
    record = record_of(
        loaded.state, game_id=str(game.pk), players=players_of(loaded.seats), status=game.status
    )
    auto = auto_plays(game)
    if auto:
        index = 0  # the tricks in game order, three cards each
        for hand in record["hands"]:
            for trick in hand["tricks"]:
                seats = [
                    (trick["leader"] + order) % 3
                    for order in range(len(trick["cards"]))
                    if index * 3 + order in auto
                ]
                if seats:
                    trick["auto"] = seats
                index += 1
    return record
