"""What a hint says: the share of answers a card beats, and its sentence."""

from itertools import permutations

from games.engine import GameState, resolve_trick
from games.table.hints import explain, win_chance


def position_with(trick_cards: int) -> GameState:
    state = GameState(15, seed="hint-positions")
    while len(state.trick) != trick_cards:
        seat = state.to_play
        state.play(seat, state.view_for(seat).legal_cards[0])
    return state


def test_last_to_play_the_chance_is_certain_and_the_sentence_says_what_happens():
    state = position_with(2)
    view = state.view_for(state.to_play)
    for card in view.legal_cards:
        wins = resolve_trick(*view.trick, card)[0] == 2
        assert win_chance(view, card) == (1.0 if wins else 0.0)
        said = explain(view, card)
        assert ("wins the trick" in said) == wins


def test_leading_the_chance_counts_every_pair_of_answers_from_the_unseen_cards():
    state = position_with(0)
    view = state.view_for(state.to_play)
    unseen = view.unseen_cards()
    card = view.legal_cards[0]
    answers = list(permutations(unseen, 2))
    expected = sum(resolve_trick(card, *answer)[0] == 0 for answer in answers) / len(answers)
    assert win_chance(view, card) == expected
    assert 0.0 < expected < 1.0
    assert f"about {round(100 * expected)} of 100 ways" in explain(view, card)
