"""The analysis of a card is a function of the seat's view only, reproducible from the game
and the move, and its figures follow their definitions (docs/analysis.md)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CARD_CODES, GameState
from games.engine.analysis import (
    analyse,
    card_accuracy,
    card_chances,
    label_of,
    seat_accuracy,
)
from games.engine.bots.registry import make_bot

ITERATIONS = 12


def bot_game(seed: str, target: int = 6) -> tuple[GameState, list[tuple[int, int]]]:
    """A game the careful bots play; its moves, and a fresh state with the same decks."""
    state = GameState(target, seed=seed)
    moves = []
    while not state.is_over:
        seat = state.to_play
        card = make_bot("careful", seed=len(moves)).choose(state.view_for(seat))
        moves.append((seat, card))
        state.play(seat, card)
    decks = [hand.deck for hand in state.hand_log]
    return GameState(target, decks=decks, first_dealer=state.first_dealer), moves


def replayed(decks, first_dealer, target, moves, upto):
    state = GameState(target, decks=list(decks), first_dealer=first_dealer)
    for seat, card in moves[:upto]:
        state.play(seat, card)
    return state


@pytest.mark.parametrize("seed", ["honest-1", "honest-2", "honest-3"])
@pytest.mark.parametrize("upto", [4, 13, 25, 40])
def test_swapping_the_hidden_cards_of_the_other_two_changes_nothing(seed, upto):
    fresh, moves = bot_game(seed, target=20)
    # A hand hands out 12 points, so a game to 20 always plays all 48 cards of hand 1: every
    # position asked for is in hand 1, whose deck the test changes.
    assert upto < 48 < len(moves)
    decks = [hand.deck for hand in fresh.hand_log]
    state = replayed(decks, fresh.first_dealer, fresh.target, moves, upto)
    seat = state.to_play
    left, right = (seat + 1) % 3, (seat + 2) % 3
    a, b = state.hands[left][0], state.hands[right][-1]  # unplayed, so never seen by ``seat``
    deck = list(decks[0])
    i, j = deck.index(a), deck.index(b)
    deck[i], deck[j] = deck[j], deck[i]
    other = replayed([tuple(deck), *decks[1:]], fresh.first_dealer, fresh.target, moves, upto)
    assert other.hands[left] != state.hands[left]  # the hidden cards differ...
    assert other.view_for(seat).to_dict() == state.view_for(seat).to_dict()  # ...not the view
    first = card_chances(state.view_for(seat), f"{seed}:{upto}", ITERATIONS)
    second = card_chances(other.view_for(seat), f"{seed}:{upto}", ITERATIONS)
    assert first == second


def test_an_analysis_is_the_same_every_time_and_follows_its_definitions():
    fresh, moves = bot_game("repeat")
    decks = [hand.deck for hand in fresh.hand_log]
    runs = [
        analyse(
            GameState(fresh.target, decks=list(decks), first_dealer=fresh.first_dealer),
            moves,
            "repeat",
            ITERATIONS,
            8,
        )
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    doc = runs[0]
    assert len(doc["plays"]) == len(moves)
    for play, (seat, card) in zip(doc["plays"], moves, strict=True):
        values = play["values"]
        assert play["seat"] == seat and play["card"] == CARD_CODES[card]
        assert all(0.0 <= value <= 1.0 for value in values.values())
        assert values[play["best"]] == max(values.values())
        assert play["loss"] == pytest.approx(values[play["best"]] - values[play["card"]], abs=1e-9)
        assert play["label"] == (label_of(play["loss"]) if len(values) > 1 else "good")
        assert 1 <= play["trick"] <= 16 and play["hand"] >= 1
    hands = {play["hand"] for play in doc["plays"]}
    assert [entry["hand"] for entry in doc["luck"]] == sorted(hands)
    assert all(len(entry["seats"]) == 3 for entry in doc["luck"])
    for seat in range(3):
        assert doc["accuracy"][seat] is None or 0 <= doc["accuracy"][seat] <= 100


def test_every_card_of_a_hand_is_valued_and_a_last_card_is_no_choice():
    fresh, moves = bot_game("last-card")
    decks = [hand.deck for hand in fresh.hand_log]
    state = GameState(fresh.target, decks=list(decks), first_dealer=fresh.first_dealer)
    doc = analyse(state, moves, "last-card", ITERATIONS, 8)
    first = doc["plays"][0]
    assert len(first["values"]) == 16  # no need to follow suit: every card may be played
    if len(doc["plays"]) >= 48:
        assert all(len(play["values"]) == 1 for play in doc["plays"][45:48])


@given(st.floats(min_value=0.0, max_value=1.0))
@settings(max_examples=200)
def test_accuracy_falls_as_the_loss_grows_and_labels_follow_thresholds(loss):
    assert card_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert 0.0 <= card_accuracy(loss) <= 100.0
    assert card_accuracy(loss) <= card_accuracy(loss / 2) + 1e-9
    expected = (
        "blunder"
        if loss >= 0.2
        else "mistake"
        if loss >= 0.1
        else "inaccuracy"
        if loss >= 0.05
        else "good"
    )
    assert label_of(loss) == expected


def test_a_seat_that_always_played_the_best_card_is_100_accurate():
    assert seat_accuracy([0.0, 0.0, 0.0]) == 100.0
    assert seat_accuracy([]) is None
    assert seat_accuracy([0.0, 0.3]) < seat_accuracy([0.0, 0.1]) < 100.0
