"""coins-record/1: the exported shape, and records that contradict the rules are refused."""

import copy
import json
import random

import pytest

from games.engine import (
    FORMAT,
    GameState,
    InvalidRecord,
    record_json,
    record_of,
    state_from_record,
    verify_public_record,
)
from games.engine.record import bot_players

from .helpers import play_randomly

PLAYERS = bot_players(("random", "heuristic", "random"))


@pytest.fixture(scope="module")
def finished_record():
    state = GameState(15, seed="record")
    play_randomly(state, random.Random(7))
    return record_of(state, game_id="42", players=PLAYERS)


def test_the_record_has_the_fields_of_the_rules(finished_record):
    record = finished_record
    assert list(record) == [
        "format",
        "id",
        "target",
        "status",
        "players",
        "hands",
        "scores",
        "winner",
    ]
    assert record["format"] == FORMAT == "coins-record/1"
    assert record["status"] == "finished" and record["id"] == "42" and record["target"] == 15
    assert record["players"][1] == {
        "seat": 1,
        "name": "Bot (heuristic)",
        "kind": "bot",
        "bot": "heuristic",
    }
    hand = record["hands"][0]
    assert list(hand) == ["number", "dealer", "deck", "tricks"]
    assert len(hand["deck"]) == 48
    assert list(hand["tricks"][0]) == ["number", "leader", "cards", "winner", "points"]
    assert record["scores"][record["winner"]] >= 15
    json.loads(record_json(record))


def test_a_record_replays_to_the_same_game(finished_record):
    state = state_from_record(finished_record)
    again = record_of(state, game_id="42", players=PLAYERS)
    assert record_json(again) == record_json(finished_record)


def _tampered(record, change):
    doc = copy.deepcopy(record)
    change(doc)
    return doc


TAMPERING = {
    "wrong format": lambda d: d.update(format="coins-record/2"),
    "wrong winner of a trick": lambda d: d["hands"][0]["tricks"][0].update(
        winner=(d["hands"][0]["tricks"][0]["winner"] + 1) % 3
    ),
    "wrong points": lambda d: d["hands"][0]["tricks"][0].update(points=9),
    "wrong leader": lambda d: d["hands"][0]["tricks"][1].update(
        leader=(d["hands"][0]["tricks"][1]["leader"] + 1) % 3
    ),
    "card played out of order": lambda d: d["hands"][0]["tricks"][0]["cards"].reverse(),
    "repeated card in deck": lambda d: d["hands"][0]["deck"].__setitem__(
        1, d["hands"][0]["deck"][0]
    ),
    "not a card in deck": lambda d: d["hands"][0]["deck"].__setitem__(0, "13O"),
    "wrong dealer": lambda d: d["hands"][0].update(dealer=(d["hands"][0]["dealer"] + 1) % 3),
    "wrong scores": lambda d: d.update(scores=[0, 0, 0]),
    "wrong game winner": lambda d: d.update(winner=(d["winner"] + 1) % 3),
    "status says running": lambda d: d.update(status="in_progress"),
    "bad target": lambda d: d.update(target=0),
    "two players": lambda d: d["players"].pop(),
    "trick after the end": lambda d: d["hands"][-1]["tricks"].append(
        copy.deepcopy(d["hands"][-1]["tricks"][-1])
    ),
    "missing trick list": lambda d: d["hands"][0].pop("tricks"),
    "hand misnumbered": lambda d: d["hands"][0].update(number=2),
}


@pytest.mark.parametrize("change", TAMPERING.values(), ids=TAMPERING.keys())
def test_a_record_that_contradicts_the_rules_is_refused(finished_record, change):
    with pytest.raises(InvalidRecord):
        state_from_record(_tampered(finished_record, change))


@pytest.mark.parametrize("doc", [None, [], "coins", {"format": "coins-record/1"}])
def test_malformed_documents_are_refused(doc):
    with pytest.raises(InvalidRecord):
        state_from_record(doc)


def test_a_running_game_lists_its_current_trick_and_no_decks():
    state = GameState(10, seed="running")
    play_randomly(state, random.Random(1), limit=50)  # 16 tricks and 2 cards into hand 2
    record = record_of(state, game_id="7", players=PLAYERS)
    assert record["status"] == "in_progress" and record["winner"] is None
    assert all("deck" not in hand for hand in record["hands"])
    current = record["hands"][-1]["tricks"][-1]
    assert len(current["cards"]) == 2 and current["winner"] is None and current["points"] is None
    verify_public_record(record)
    with pytest.raises(InvalidRecord, match="no decks"):
        state_from_record(record)


def test_an_abandoned_game_reveals_its_decks_and_may_stop_mid_trick():
    state = GameState(10, seed="abandoned")
    play_randomly(state, random.Random(1), limit=10)
    record = record_of(state, game_id="8", players=PLAYERS, status="abandoned")
    assert "deck" in record["hands"][0]
    rebuilt = state_from_record(record)
    assert rebuilt.trick == state.trick


def test_a_public_record_with_a_wrong_winner_is_refused():
    state = GameState(10, seed="public")
    play_randomly(state, random.Random(1), limit=12)
    record = record_of(state, game_id="9", players=PLAYERS)
    trick = record["hands"][0]["tricks"][0]
    trick["winner"] = (trick["winner"] + 1) % 3
    with pytest.raises(InvalidRecord):
        verify_public_record(record)
