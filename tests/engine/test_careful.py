"""The careful beginner plays as its rules say, and the search bots' fast play-outs of it
play exactly the same cards."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameState, parse_card
from games.engine.bots import make_bot
from games.engine.bots.policies import CAREFUL, careful_card
from games.engine.bots.search.playouts import playout

from .helpers import hand_made_view


def cards(*codes):
    return [parse_card(code) for code in codes]


def test_last_to_play_takes_coins_with_its_cheapest_winning_card():
    # 5O 7O: only a higher Coins card wins the pair; 9O is the cheapest of 9O and 1O.
    assert careful_card(cards("1O", "9O", "2B"), cards("5O", "7O"), 0, 10) == parse_card("9O")
    # 3O 4E: three suits with Clubs missing are won by the Cups card.
    hand = cards("6C", "12C", "2B")
    assert careful_card(hand, cards("3O", "4E"), 0, 10) == parse_card("6C")


def test_last_to_play_without_coins_throws_its_cheapest_card_coins_last():
    # 2C 3C holds no Coins: it throws the 2 of Swords, keeping the 2 of Coins.
    hand = cards("2O", "2E", "12B")
    assert careful_card(hand, cards("2C", "3C"), 0, 10) == parse_card("2E")
    # Nothing but Coins: the cheapest Coins card.
    assert careful_card(cards("9O", "4O"), cards("2C", "3C"), 0, 10) == parse_card("4O")


def test_last_to_play_takes_a_trick_that_reaches_the_target():
    # 2E 5B 9O: three suits with Cups missing, so the Coins card wins its own point. With 9
    # of 10 that point is the game; with 0 the trick holds no Coins and it throws the 3C.
    hand = cards("9O", "3C")
    assert careful_card(hand, cards("2E", "5B"), 9, 10) == parse_card("9O")
    assert careful_card(hand, cards("2E", "5B"), 0, 10) == parse_card("3C")
    # 7O 2B: both the 5B (a pair of Clubs) and the 8O (a pair of Coins) win; the cheapest
    # winning card takes it, even though the 8O would have reached the target.
    assert careful_card(cards("8O", "5B"), cards("7O", "2B"), 8, 10) == parse_card("5B")


def test_second_to_play_answers_a_coins_lead_with_a_higher_coins_card():
    hand = cards("3O", "9O", "1O", "2C")
    assert careful_card(hand, cards("5O"), 0, 10) == parse_card("9O")
    assert careful_card(cards("3O", "2C"), cards("5O"), 0, 10) == parse_card("2C")
    assert careful_card(cards("3O", "9E"), cards("5C"), 0, 10) == parse_card("9E")


def test_leading_it_plays_its_cheapest_card_that_is_not_coins():
    assert careful_card(cards("2O", "5E", "4B", "1C"), [], 0, 10) == parse_card("4B")
    assert careful_card(cards("2O", "5O"), [], 0, 10) == parse_card("2O")


def test_the_bot_reads_only_its_view():
    view = hand_made_view(["2O", "5E", "4B"], leader=2)
    assert make_bot("careful", 1).choose(view) == parse_card("4B")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_the_fast_playout_plays_a_hand_exactly_like_three_careful_bots(seed):
    state = GameState(99, seed=f"careful-{seed}")
    hands = [list(hand) for hand in state.hands]
    leader = state.leader
    bots = [make_bot("careful", seat) for seat in range(3)]
    while state.hand_number == 1:
        seat = state.to_play
        state.play(seat, bots[seat].choose(state.view_for(seat)))
    scores = playout(hands, [], leader, [0, 0, 0], 99, 0, [CAREFUL] * 3, lambda s, *_: s)
    assert scores == state.scores
