"""Small helpers shared by the engine tests."""

import random

from games.engine import GameState, SeatView, parse_card


def snapshot(state: GameState) -> tuple:
    """Everything that makes up a state, to check that a refused play changed nothing."""
    return (
        [list(hand) for hand in state.hands],
        state.trick,
        state.played,
        list(state.scores),
        state.to_play,
        state.leader,
        state.winner,
        state.last_trick,
        [(h.number, h.dealer, h.deck, list(h.tricks)) for h in state.hand_log],
    )


def play_randomly(state: GameState, rng: random.Random, limit: int | None = None) -> int:
    """Play random legal cards until the game ends (or ``limit`` plays); return plays made."""
    plays = 0
    while state.winner is None and (limit is None or plays < limit):
        seat = state.to_play
        state.play(seat, rng.choice(state.legal_cards(seat)))
        plays += 1
    return plays


def hand_made_view(hand, trick=(), played=(), scores=(0, 0, 0), target=10, seat=2, leader=0):
    """A hand-made view of ``seat`` on its turn (cards given as codes); the seats that played
    to the trick hold one card fewer."""
    hand = tuple(sorted(parse_card(c) for c in hand))
    trick = tuple(parse_card(c) for c in trick)
    played = tuple(parse_card(c) for c in played) + trick
    sizes = [len(hand)] * 3
    for position in range(len(trick)):
        sizes[(leader + position) % 3] -= 1
    return SeatView(
        seat,
        target,
        hand,
        tuple(sizes),
        seat,
        leader,
        trick,
        played,
        (),
        None,
        scores,
        1,
        (leader + 2) % 3,
        None,
    )


def bot_turns(name: str, games: int, budget):
    """Play ``games`` whole games of three ``name`` bots (targets past 12 points: at least
    one whole hand and a new deal); yield each turn's bot and view, then check that the card
    it chose is legal and play it."""
    from games.engine.bots import make_bot

    for game in range(games):
        state = GameState(13 + game, seed=f"{name}-legal-{game}")
        bots = [make_bot(name, f"{game}/{seat}") for seat in range(3)]
        while state.winner is None:
            seat = state.to_play
            view = state.view_for(seat)
            yield bots[seat], view
            card = bots[seat].choose(view, budget)
            assert card in state.legal_cards(seat)
            state.play(seat, card)
