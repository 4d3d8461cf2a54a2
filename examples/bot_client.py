"""A complete Coins bot for the Bot API (docs/bot-api.md), with httpx and the standard library.

It turns its account into a bot account (once), opens a table against two of the site's
bots, follows its event stream and its game's stream, and plays a simple legal policy (the
lowest card that is not a Coins card, else the lowest) until the game ends.

    python examples/bot_client.py --url http://127.0.0.1:8000 --token coins_...

(or set COINS_TOKEN). Make the token at /account/tokens/ with the bot:play scope, on an
account that has never played: the upgrade to a bot account is for good.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import threading

import httpx

RANKS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1]  # lowest to highest (RULES.md)


def lines(client: httpx.Client, path: str):
    """The JSON objects of an NDJSON stream (empty keep-alive lines skipped)."""
    with client.stream("GET", path, timeout=httpx.Timeout(10, read=30)) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.strip():
                yield json.loads(line)


def choose(legal: list[str]) -> str:
    """The lowest card that scores nothing, else the lowest Coins card."""

    def strength(code: str) -> tuple[bool, int]:
        return code.endswith("O"), RANKS.index(int(code[:-1]))

    return min(legal, key=strength)


def watch_events(client: httpx.Client, events: queue.Queue) -> None:
    try:
        for event in lines(client, "/api/stream/event"):
            events.put(event)
    except httpx.HTTPError as error:  # the main thread decides what to do
        events.put({"type": "error", "error": str(error)})


def play_game(client: httpx.Client, game_id: str) -> dict:
    """Follow the game's stream and play each turn once; return its last state."""
    acted_on = -1  # the move count of the last state we played on
    state: dict = {}
    for event in lines(client, f"/api/bot/game/stream/{game_id}"):
        if event["type"] == "gameFull":
            seat, state = event["seat"], event["state"]
            print(f"game {game_id}: seat {seat}, players {[p['name'] for p in event['players']]}")
        elif event["type"] == "gameState":
            state = event
        elif event["type"] == "chatLine":
            print(f"{event['username']}: {event['text']}")
            continue
        else:
            print(f"{event['type']}: {event}")
            continue
        if state["status"] != "running":
            break
        if state["legal"] and len(state["moves"]) > acted_on:
            acted_on = len(state["moves"])
            card = choose(state["legal"])
            answer = client.post(f"/api/bot/game/{game_id}/play/{card}")
            if answer.status_code == 429:
                print("slowed down:", answer.json())
            elif answer.status_code != 200:  # the game moved on (a clock): the stream says how
                print(f"{card} refused: {answer.json()['error']}")
    return state


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("COINS_TOKEN", ""))
    parser.add_argument("--target", type=int, default=10)
    parser.add_argument("--opponents", default="medium,medium", help="two of easy, medium, hard")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set COINS_TOKEN")
    headers = {"Authorization": f"Bearer {args.token}"}
    with httpx.Client(base_url=args.url, headers=headers, timeout=30) as client:
        upgrade = client.post("/api/bot/account/upgrade")
        if upgrade.status_code == 400:  # a bot already, or an account that has played
            print("upgrade:", upgrade.json()["error"])
        else:
            upgrade.raise_for_status()
        events: queue.Queue = queue.Queue()
        threading.Thread(target=watch_events, args=(client, events), daemon=True).start()
        table = {"target": args.target, "opponents": args.opponents.split(","), "rated": False}
        made = client.post("/api/games", json=table)
        if made.status_code != 201:
            print("could not open a table:", made.status_code, made.json())
            return 1
        game_id = made.json()["id"]
        while (event := events.get(timeout=60))["type"] != "gameStart" or (
            event["game"]["id"] != game_id
        ):
            if event["type"] == "error":
                print("event stream:", event["error"])
                return 1
        state = play_game(client, game_id)
        print(
            f"game {game_id} {state['status']}: scores {state['scores']}, winner {state['winner']}"
        )
        return 0 if state["status"] == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
