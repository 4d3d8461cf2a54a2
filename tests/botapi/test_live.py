"""The API over real HTTP against a running Daphne (with its table runner): httpx opens a
table, follows both streams and plays; the example bot plays a whole game by itself."""

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.browser.conftest import fast_tables, start_server, stop, url_of

from .conftest import make_bot_account

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = httpx.Timeout(60)


@pytest.fixture(scope="module")
def servers(django_db_setup):
    """The module's Daphne, started by its first test (inside that test's database access:
    the forked server inherits it) and stopped after the last."""
    from django.conf import settings

    saved = settings.COINS_BOT_PAUSE, settings.COINS_TRICK_PAUSE, settings.COINS_RUNNER_POLL
    fast_tables(settings)
    started = []

    def url() -> str:
        if not started:
            started.append(start_server())
        return url_of(started[0])

    yield url
    stop(started)
    settings.COINS_BOT_PAUSE, settings.COINS_TRICK_PAUSE, settings.COINS_RUNNER_POLL = saved


@pytest.fixture
def server(transactional_db, servers):
    return servers()


def stream(client, path):
    with client.stream("GET", path) as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/x-ndjson"
        for line in response.iter_lines():
            if line.strip():
                yield json.loads(line)


def test_a_bot_plays_over_http_with_both_streams(server, make_user, make_token):
    secret = make_token(make_user("wire"))
    headers = {"Authorization": f"Bearer {secret}"}
    with httpx.Client(base_url=server, headers=headers, timeout=TIMEOUT) as client:
        assert httpx.post(f"{server}/api/bot/account/upgrade").status_code == 401
        assert client.post("/api/bot/account/upgrade").json() == {"ok": True}
        made = client.post("/api/games", json={"target": 10, "opponents": ["easy", "easy"]})
        assert made.status_code == 201
        game_id = made.json()["id"]
        events = stream(client, "/api/stream/event")
        assert next(events) == {"type": "gameStart", "game": {"id": game_id}}
        game = stream(client, f"/api/bot/game/stream/{game_id}")
        full = next(game)
        assert full["type"] == "gameFull" and full["seat"] == 0
        state = full["state"]
        while not state["legal"]:
            state = next(game)
        card = state["legal"][0]
        answer = client.post(f"/api/bot/game/{game_id}/play/{card}")
        assert answer.status_code == 200 and answer.json()["ok"] is True
        after = next(game)
        assert after["type"] == "gameState" and after["moves"][len(state["moves"])] == card
        assert client.post(f"/api/bot/game/{game_id}/resign").json() == {"ok": True}
        while (last := next(game))["status"] == "running":
            pass
        assert last["status"] == "abandoned"
        assert next(events) == {"type": "gameFinish", "game": {"id": game_id}}
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["format"] == "coins-record/1" and record["status"] == "abandoned"
        events.close()
        game.close()


def test_the_example_bot_plays_a_whole_game(server, make_user, make_token):
    secret = make_token(make_user("example"))
    finished = subprocess.run(
        [sys.executable, "examples/bot_client.py", "--url", server, "--target", "3",
         "--opponents", "easy,medium"],
        cwd=ROOT, env={"COINS_TOKEN": secret, "PATH": ""}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "finished: scores" in finished.stdout


def test_a_bot_account_made_elsewhere_is_refused_nothing(server, make_user, make_token):
    robot = make_bot_account(make_user("ready"))
    headers = {"Authorization": f"Bearer {make_token(robot)}"}
    with httpx.Client(base_url=server, headers=headers, timeout=TIMEOUT) as client:
        assert client.post("/api/games", json={"target": 0}).status_code == 400
        assert client.post("/api/bot/game/1/play/1O").status_code in (403, 404)
        assert client.get("/api/openapi.json").json()["openapi"].startswith("3.")
