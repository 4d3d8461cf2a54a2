"""The `coins-record/1` game record: export, canonical JSON, and import by replay.

Importing replays every card through the engine, so a record that contradicts the rules
(a wrong winner, a card played twice, a game that goes on past the target) is refused.
"""

from __future__ import annotations

import json

from .cards import CARD_CODES, parse_card
from .errors import IllegalPlay, InvalidRecord
from .state import GameState, TrickRecord
from .tricks import resolve_trick

FORMAT = "coins-record/1"
FINISHED, IN_PROGRESS, ABANDONED = "finished", "in_progress", "abandoned"
STATUSES = (FINISHED, IN_PROGRESS, ABANDONED)


def bot_players(names: list[str] | tuple[str, ...]) -> list[dict]:
    """Return the ``players`` entries for three bots, seat by seat."""
    return [
        {"seat": seat, "name": f"Bot ({name})", "kind": "bot", "bot": name}
        for seat, name in enumerate(names)
    ]


def _codes(cards) -> list[str]:
    return [CARD_CODES[card] for card in cards]


def _trick_entry(trick: TrickRecord) -> dict:
    return {
        "number": trick.number,
        "leader": trick.leader,
        "cards": _codes(trick.cards),
        "winner": trick.winner,
        "points": trick.points,
    }


def record_of(
    state: GameState, *, game_id: str, players: list[dict], status: str | None = None
) -> dict:
    """Return the record of ``state``.

    Decks are revealed only once the game is over (finished or abandoned); a game in
    progress lists the completed tricks and the current one, as a spectator sees them.
    """
    if status is None:
        status = FINISHED if state.is_over else IN_PROGRESS
    if status not in STATUSES:
        raise ValueError(f"Unknown status {status!r}.")
    reveal = status != IN_PROGRESS
    hands = []
    for hand in state.hand_log:
        entry = {"number": hand.number, "dealer": hand.dealer}
        if reveal:
            entry["deck"] = _codes(hand.deck)
        entry["tricks"] = [_trick_entry(trick) for trick in hand.tricks]
        hands.append(entry)
    if state.trick:
        hands[-1]["tricks"].append(
            {
                "number": len(state.current_hand.tricks) + 1,
                "leader": state.leader,
                "cards": _codes(state.trick),
                "winner": None,
                "points": None,
            }
        )
    return {
        "format": FORMAT,
        "id": str(game_id),
        "target": state.target,
        "status": status,
        "players": [dict(player) for player in players],
        "hands": hands,
        "scores": list(state.scores),
        "winner": state.winner,
    }


def record_json(record: dict) -> str:
    """Serialise a record the one way this site does, so exports compare byte for byte."""
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidRecord(message)


def _check_header(doc: object) -> None:
    _require(isinstance(doc, dict), "A record is a JSON object.")
    _require(doc.get("format") == FORMAT, f"The format must be {FORMAT!r}.")
    target = doc.get("target")
    _require(target.__class__ is int and target >= 1, "The target must be a whole number >= 1.")
    _require(doc.get("status") in STATUSES, f"The status must be one of {', '.join(STATUSES)}.")
    players = doc.get("players")
    _require(
        isinstance(players, list)
        and [p.get("seat") if isinstance(p, dict) else None for p in players] == [0, 1, 2],
        "There must be three players, seats 0, 1 and 2 in order.",
    )
    hands = doc.get("hands")
    _require(isinstance(hands, list) and hands, "A record lists at least one hand.")
    for number, hand in enumerate(hands, 1):
        _require(isinstance(hand, dict), f"Hand {number} must be an object.")
        _require(hand.get("number") == number, f"Hands must be numbered 1, 2, ... ({number}).")
        _require(isinstance(hand.get("tricks"), list), f"Hand {number} has no trick list.")


def _parse_deck(hand: dict) -> tuple[int, ...]:
    number = hand["number"]
    try:
        deck = tuple(parse_card(code) for code in hand["deck"])
    except (IllegalPlay, TypeError) as error:
        raise InvalidRecord(
            f"Hand {number}: the deck holds something that is not a card."
        ) from error
    _require(
        sorted(deck) == list(range(48)), f"Hand {number}: the deck must hold all 48 cards once."
    )
    return deck


def state_from_record(doc: dict) -> GameState:
    """Rebuild a game from a full record by replaying it, checking every stated result.

    Raise InvalidRecord when the record is malformed, lacks its decks (a game in progress),
    or disagrees with the rules anywhere.
    """
    _check_header(doc)
    hands = doc["hands"]
    _require(
        all("deck" in hand for hand in hands),
        "This record has no decks (a game in progress); use verify_public_record instead.",
    )
    first_dealer = hands[0].get("dealer")
    _require(first_dealer in (0, 1, 2), "Hand 1: the dealer must be seat 0, 1 or 2.")
    state = GameState(
        doc["target"], decks=[_parse_deck(hand) for hand in hands], first_dealer=first_dealer
    )
    for hand in hands:
        _replay_hand(state, hand, doc["status"])
    _check_totals(doc, state.scores, state.winner)
    return state


def _replay_hand(state: GameState, hand: dict, status: str) -> None:
    number = hand["number"]
    _require(state.hand_number == number, f"Hand {number} starts before hand {number - 1} ended.")
    _require(hand.get("dealer") == state.dealer, f"Hand {number}: seat {state.dealer} deals.")
    for trick in hand["tricks"]:
        where = f"Hand {number}, trick {trick.get('number') if isinstance(trick, dict) else '?'}"
        _require(
            isinstance(trick, dict) and isinstance(trick.get("cards"), list), f"{where}: bad trick."
        )
        _require(trick.get("number") == state.trick_number, f"{where}: wrong trick number.")
        _require(trick.get("leader") == state.leader, f"{where}: seat {state.leader} leads.")
        _require(1 <= len(trick["cards"]) <= 3, f"{where}: a trick has one to three cards.")
        result = None
        for code in trick["cards"]:
            try:
                result = state.play(state.to_play, code)
            except IllegalPlay as error:
                raise InvalidRecord(f"{where}: {error}") from error
        if result is None:
            _require(status != FINISHED, f"{where}: a finished game has no unfinished trick.")
            _require(trick.get("winner") is None, f"{where}: an unfinished trick has no winner.")
        else:
            _require(trick.get("winner") == result.winner, f"{where}: seat {result.winner} wins.")
            _require(trick.get("points") == result.points, f"{where}: it is worth {result.points}.")


def _check_totals(doc: dict, scores: list[int], winner: int | None) -> None:
    _require(doc.get("scores") == list(scores), f"The scores are {list(scores)}.")
    _require(doc.get("winner") == winner, f"The winner is {winner}.")
    _require(
        (doc["status"] == FINISHED) == (winner is not None),
        "A game is finished exactly when a seat reached the target.",
    )


def verify_public_record(doc: dict) -> None:
    """Check a record without decks: dealers, leaders, every trick's winner and points, totals."""
    _check_header(doc)
    scores, winner, last_winner = [0, 0, 0], None, None
    for hand in doc["hands"]:
        number, dealer = hand["number"], hand.get("dealer")
        expected = dealer if last_winner is None else (last_winner + 2) % 3
        _require(dealer in (0, 1, 2) and dealer == expected, f"Hand {number}: wrong dealer.")
        _require(len(hand["tricks"]) <= 16, f"Hand {number}: a hand has at most 16 tricks.")
        leader = (dealer + 1) % 3
        for trick in hand["tricks"]:
            where = (
                f"Hand {number}, trick {trick.get('number') if isinstance(trick, dict) else '?'}"
            )
            _require(isinstance(trick, dict), f"{where}: bad trick.")
            _require(winner is None, f"{where}: the game had already ended.")
            _require(trick.get("leader") == leader, f"{where}: seat {leader} leads.")
            try:
                cards = tuple(parse_card(code) for code in trick.get("cards", ()))
            except IllegalPlay as error:
                raise InvalidRecord(f"{where}: {error}") from error
            _require(len(set(cards)) == len(cards) <= 3, f"{where}: bad cards.")
            if len(cards) < 3:
                continue
            position, points = resolve_trick(*cards)
            leader = last_winner = (leader + position) % 3
            _require(trick.get("winner") == leader, f"{where}: seat {leader} wins.")
            _require(trick.get("points") == points, f"{where}: it is worth {points}.")
            scores[leader] += points
            if scores[leader] >= doc["target"]:
                winner = leader
    _check_totals(doc, scores, winner)
