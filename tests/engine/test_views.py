"""A seat's view holds its own hand and public facts only, with no way back to the state."""

import gc
import random

from games.engine import CARD_CODES, GameState, SeatView

from .helpers import play_randomly


def _everything_reachable(obj, depth=4):
    """Yield every object reachable from ``obj`` through references, a few levels deep."""
    seen, frontier = set(), [obj]
    for _ in range(depth):
        following = []
        for item in frontier:
            for child in gc.get_referents(item):
                if id(child) not in seen and not isinstance(child, type):
                    seen.add(id(child))
                    following.append(child)
                    yield child
        frontier = following


def test_a_seat_sees_its_own_hand_and_not_the_others():
    state = GameState(10, seed="views")
    play_randomly(state, random.Random(4), limit=25)
    for seat in range(3):
        view = state.view_for(seat)
        assert view.hand == tuple(state.hands[seat])
        others = {card for other in range(3) if other != seat for card in state.hands[other]}
        data = view.to_dict()
        visible = set(data["hand"]) | set(data["trick"])
        for trick in data["tricks"]:
            visible |= set(trick["cards"])
        assert not {CARD_CODES[card] for card in others} & visible
        assert set(view.unseen_cards()) == others


def test_a_spectator_sees_no_hand():
    state = GameState(10, seed="spectator")
    play_randomly(state, random.Random(4), limit=7)
    view = state.spectator_view()
    assert view.seat is None and view.hand == () and view.legal_cards == ()
    assert sum(view.hand_sizes) == 48 - 7 and set(view.hand_sizes) == {13, 14}


def test_a_view_holds_no_reference_to_the_state_or_other_hands():
    state = GameState(10, seed="refs")
    play_randomly(state, random.Random(4), limit=10)
    view = state.view_for(state.to_play)
    reachable = list(_everything_reachable(view))
    assert not any(obj is state for obj in reachable)
    for other in range(3):
        if other != view.seat:
            assert not any(obj is state.hands[other] for obj in reachable)
    assert all(
        isinstance(getattr(view, name), int | tuple | type(None)) for name in SeatView.__slots__
    )


def test_a_view_is_a_snapshot():
    state = GameState(10, seed="snap")
    seat = state.to_play
    view = state.view_for(seat)
    state.play(seat, view.hand[0])
    assert len(view.hand) == 16 and view.trick == ()
