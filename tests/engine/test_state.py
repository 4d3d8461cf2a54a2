"""Dealing, turn order, dealer rotation, the end of the game, and refused plays."""

import random

import pytest

from games.engine import (
    CARD_CODES,
    GameOver,
    GameState,
    NotACard,
    NotInHand,
    NotYourTurn,
    deal,
    deck_from_seed,
    first_dealer_from_seed,
    parse_card,
)

from .helpers import play_randomly, snapshot


def test_the_deal_goes_clockwise_from_the_dealers_left():
    deck = tuple(range(48))
    hands = deal(deck, dealer=2)
    # card i goes to seat (dealer + 1 + i) % 3: seat 0 gets cards 0, 3, 6, ...
    assert hands[0] == list(range(0, 48, 3))
    assert hands[1] == list(range(1, 48, 3))
    assert hands[2] == list(range(2, 48, 3))


def test_a_new_game_deals_the_seeded_deck_and_the_dealers_left_leads():
    state = GameState(10, seed="abc")
    dealer = first_dealer_from_seed("abc")
    assert state.dealer == dealer
    assert state.hand_log[0].deck == deck_from_seed("abc", 1)
    assert state.to_play == state.leader == (dealer + 1) % 3
    assert [len(hand) for hand in state.hands] == [16, 16, 16]
    assert sorted(card for hand in state.hands for card in hand) == list(range(48))


def test_the_same_seed_gives_the_same_game_and_fresh_seeds_differ():
    assert deck_from_seed("s", 1) == deck_from_seed("s", 1)
    assert deck_from_seed("s", 1) != deck_from_seed("s", 2)
    assert GameState().seed != GameState().seed
    assert len(GameState().seed) == 32  # 128 bits of secure randomness


def test_first_dealer_is_spread_over_all_seats():
    counts = [0, 0, 0]
    for i in range(600):
        counts[first_dealer_from_seed(str(i))] += 1
    assert all(150 < count < 250 for count in counts)


def test_turns_go_clockwise_and_the_trick_winner_leads_next():
    state = GameState(99, seed="turns")
    leader = state.to_play
    for offset in range(2):
        seat = state.to_play
        assert seat == (leader + offset) % 3
        state.play(seat, state.hands[seat][0])
        assert state.to_play == (seat + 1) % 3
    trick = state.play(state.to_play, state.hands[state.to_play][0])
    assert trick is not None and trick.leader == leader
    assert state.to_play == state.leader == trick.winner


def test_after_a_hand_the_seat_right_of_the_last_trick_winner_deals():
    state = GameState(99, seed="rotation")
    rng = random.Random(3)
    for _ in range(48):
        seat = state.to_play
        last = state.play(seat, rng.choice(state.legal_cards(seat)))
    assert last.number == 16
    assert state.hand_number == 2
    assert state.dealer == (last.winner + 2) % 3
    assert state.to_play == last.winner  # so the last winner leads the new hand
    assert state.hand_log[1].deck == deck_from_seed("rotation", 2)
    assert [len(hand) for hand in state.hands] == [16, 16, 16]


def test_the_game_ends_as_soon_as_a_total_reaches_the_target_even_mid_hand():
    state = GameState(1, seed="quick")
    while state.winner is None:
        seat = state.to_play
        trick = state.play(seat, state.hands[seat][-1])
    assert trick.points >= 1
    assert state.scores[state.winner] >= 1
    assert state.hand_number == 1 and len(state.current_hand.tricks) < 16
    assert state.to_play is None
    assert state.legal_cards(0) == state.legal_cards(1) == state.legal_cards(2) == ()


def test_cards_can_be_given_as_codes():
    state = GameState(10, seed="codes")
    seat = state.to_play
    card = state.hands[seat][0]
    state.play(seat, CARD_CODES[card])
    assert state.trick == (card,)


@pytest.fixture
def mid_trick_state():
    state = GameState(10, seed="errors")
    seat = state.to_play
    state.play(seat, state.hands[seat][0])
    return state


def test_playing_out_of_turn_is_refused_and_changes_nothing(mid_trick_state):
    state = mid_trick_state
    other = (state.to_play + 1) % 3
    before = snapshot(state)
    with pytest.raises(NotYourTurn, match="not your turn"):
        state.play(other, state.hands[other][0])
    assert snapshot(state) == before


@pytest.mark.parametrize("seat", [-1, 3, None, "0"])
def test_a_seat_that_does_not_exist_is_refused(mid_trick_state, seat):
    before = snapshot(mid_trick_state)
    with pytest.raises(NotYourTurn):
        mid_trick_state.play(seat, 0)
    assert snapshot(mid_trick_state) == before


def test_a_card_not_in_hand_is_refused_without_saying_who_holds_it(mid_trick_state):
    state = mid_trick_state
    seat = state.to_play
    elsewhere = state.hands[(seat + 1) % 3][0]
    before = snapshot(state)
    with pytest.raises(NotInHand) as error:
        state.play(seat, elsewhere)
    assert "seat" not in str(error.value)
    assert snapshot(state) == before
    with pytest.raises(NotInHand):
        state.play(seat, state.trick[0])  # already played
    assert snapshot(state) == before


@pytest.mark.parametrize("bad", ["13O", "1o", "", 48, -1, 2.0, None, True, ["1O"]])
def test_something_that_is_not_a_card_is_refused(mid_trick_state, bad):
    before = snapshot(mid_trick_state)
    with pytest.raises(NotACard):
        mid_trick_state.play(mid_trick_state.to_play, bad)
    assert snapshot(mid_trick_state) == before


def test_a_play_after_the_end_is_refused():
    state = GameState(3, seed="over")
    play_randomly(state, random.Random(1))
    before = snapshot(state)
    for seat in range(3):
        with pytest.raises(GameOver):
            state.play(seat, 0)
    assert snapshot(state) == before


def test_a_clone_is_independent():
    state = GameState(10, seed="clone")
    play_randomly(state, random.Random(2), limit=20)
    twin = state.clone()
    before = snapshot(state)
    play_randomly(twin, random.Random(5))
    assert snapshot(state) == before
    assert twin.winner is not None


@pytest.mark.parametrize("target", [0, -3, 1.5, "10", None])
def test_the_target_must_be_a_positive_whole_number(target):
    with pytest.raises(ValueError, match="target"):
        GameState(target)


def test_explicit_decks_are_used_before_the_seed():
    deck = tuple(reversed(range(48)))
    state = GameState(10, decks=[deck], first_dealer=1)
    assert state.hand_log[0].deck == deck
    assert state.dealer == 1
    assert parse_card("1B") in state.hands[2]  # card 0 of the deck (47 = 1B) goes to seat 2
