"""The hand-kept OpenAPI description (botapi/openapi.json) and the views agree: every path
in it is a route of the API and every API route is in it, with its method; the examples it
gives have the shapes the views answer with."""

import json
import re
from pathlib import Path

import pytest
from django.urls import URLPattern, get_resolver, resolve

from botapi.news import game_news
from botapi.state import Snapshot

from .helpers import my_cards, open_game, play

pytestmark = pytest.mark.django_db
SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "botapi/openapi.json").read_text())
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def concrete(path: str) -> str:
    return PLACEHOLDER.sub(lambda m: "12O" if m.group(1) == "card" else "7", path)


def api_routes() -> set[str]:
    """Every route of the botapi app under /api/, as an OpenAPI path."""
    import botapi.urls

    routes = set()
    for pattern in botapi.urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern))
        if route.startswith("/api/") and route != "/api/openapi.json":
            routes.add(route)
    return routes


def test_every_path_of_the_schema_is_a_route_and_every_route_is_in_it():
    assert set(SCHEMA["paths"]) == api_routes()
    for path in SCHEMA["paths"]:
        assert resolve(concrete(path)).func.__module__.startswith("botapi.")
    assert get_resolver()  # the site's own resolver, not a test one


def test_each_path_answers_only_its_method(client):
    for path, operations in SCHEMA["paths"].items():
        (method,) = operations
        other = "get" if method == "post" else "post"
        assert getattr(client, other)(concrete(path)).status_code == 405, path


def test_the_schema_is_served(client):
    assert client.get("/api/openapi.json").json() == SCHEMA


def example(path: str, method: str, status: int):
    content = SCHEMA["paths"][path][method]["responses"][str(status)]["content"]
    return next(iter(content.values()))["example"]


def test_the_examples_have_the_views_shapes(robot, api):
    def same_shape(path, method, status, response):
        assert response.status_code == status, (path, response.content)
        assert response.json().keys() == example(path, method, status).keys(), path

    same_shape("/api/bot/account/upgrade", "post", 200, api.post("/api/bot/account/upgrade"))
    made = api.post("/api/games", {"target": 0}, content_type="application/json")
    same_shape("/api/games", "post", 400, made)
    made = api.post(
        "/api/games", example("/api/games", "post", 201) and {}, content_type="application/json"
    )
    same_shape("/api/games", "post", 201, made)
    game = open_game(api)
    played = play(api, game, my_cards(game)[0])
    same_shape("/api/bot/game/{game_id}/play/{card}", "post", 200, played)
    same_shape("/api/bot/game/{game_id}/play/{card}", "post", 400, play(api, game, "13O"))
    same_shape(
        "/api/bot/game/{game_id}/play/{card}", "post", 404, api.post("/api/bot/game/99999/play/1O")
    )
    full = game_news(game.pk, robot, 0, Snapshot())[0][0]
    documented = json.loads(example("/api/bot/game/stream/{game_id}", "get", 200))
    assert full.keys() == documented.keys()
    assert full["state"].keys() == documented["state"].keys()
    assert full["players"][0].keys() == documented["players"][0].keys()
    chat = api.post(f"/api/bot/game/{game.pk}/chat", {"text": ""}, content_type="application/json")
    same_shape("/api/bot/game/{game_id}/chat", "post", 400, chat)
    same_shape("/api/games/{game_id}/record", "get", 200, api.get(f"/api/games/{game.pk}/record"))
    resign = api.post(f"/api/bot/game/{game.pk}/resign")
    same_shape("/api/bot/game/{game_id}/resign", "post", 200, resign)
    same_shape(
        "/api/bot/game/{game_id}/resign", "post", 409, api.post(f"/api/bot/game/{game.pk}/resign")
    )


def test_every_error_example_is_an_error_object():
    for path, operations in SCHEMA["paths"].items():
        for method, operation in operations.items():
            for status in operation["responses"]:
                if int(status) >= 400:
                    body = example(path, method, int(status))
                    keys = {"error", "retry_after"} if status == "429" else {"error"}
                    assert body.keys() == keys, (path, status)


def test_the_challenge_examples_have_the_views_shapes(robot, make_user, make_token):
    from django.test import Client

    from .conftest import make_bot_account

    both = ("bot:play", "challenge:write")
    me = Client(headers={"Authorization": f"Bearer {make_token(robot, both)}"})
    rival = make_bot_account(make_user("rival"))
    them = Client(headers={"Authorization": f"Bearer {make_token(rival, both)}"})
    sent = me.post("/api/challenge/rival", {}, content_type="application/json")
    made = "/api/challenge/{username}"
    assert sent.status_code == 201
    assert sent.json().keys() == example(made, "post", 201).keys()
    nobody = me.post("/api/challenge/nobody", {}, content_type="application/json")
    assert nobody.status_code == 404
    assert nobody.json().keys() == example(made, "post", 404).keys()
    challenge_id = sent.json()["id"]
    for action in ("accept", "cancel"):
        path = f"/api/challenge/{{challenge_id}}/{action}"
        response = (them if action == "accept" else me).post(
            f"/api/challenge/{challenge_id}/{action}"
        )
        expected = 200 if action == "accept" else 409
        assert response.status_code == expected
        assert response.json().keys() == example(path, "post", expected).keys()
    stream = example("/api/stream/event", "get", 200)
    events = [json.loads(line) for line in stream.splitlines() if line]
    challenge = next(e for e in events if e["type"] == "challenge")["challenge"]
    assert challenge.keys() == sent.json().keys()
