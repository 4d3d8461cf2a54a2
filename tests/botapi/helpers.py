"""Helpers of the Bot API's tests."""

from __future__ import annotations

from games.engine import CARD_CODES
from games.models import Game
from games.table.loading import game_load
from tests.games.helpers import serve_due


def open_game(api, **options) -> Game:
    """POST /api/games (two easy bots by default); the bots due are served."""
    body = {"target": 10, "opponents": ["easy", "easy"], "rated": False, **options}
    response = api.post("/api/games", body, content_type="application/json")
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=int(response.json()["id"]))
    serve_due(game.pk)
    game.refresh_from_db()
    return game


def my_cards(game: Game, seat: int = 0) -> list[str]:
    game.refresh_from_db()
    return [CARD_CODES[card] for card in game_load(game).state.hands[seat]]


def others_cards(game: Game, seat: int = 0) -> list[str]:
    state = game_load(Game.objects.get(pk=game.pk)).state
    return [CARD_CODES[c] for other in range(3) if other != seat for c in state.hands[other]]


def play(api, game: Game, card: str):
    return api.post(f"/api/bot/game/{game.pk}/play/{card}")
