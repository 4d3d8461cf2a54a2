"""Bots: legal, reproducible, handed views only, and the heuristic plays sensibly."""

import random

import pytest

from games.engine import GameState, SeatView, parse_card
from games.engine.bots import BOT_CLASSES, BOT_NAMES, BOTS, SEARCH_BOTS, Bot, Budget, make_bot
from lab.simulation import play_game
from tests.engine.helpers import hand_made_view

SMALL = Budget(iterations=12)  # a search bot's budget that never reads the clock


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_always_return_a_legal_card(name):
    rng = random.Random(name)
    for game in range(2 if BOTS[name].searches else 20):  # search: fewer games
        state = GameState(rng.randint(1, 25), seed=f"legal-{game}")
        bot = make_bot(name, seed=game, budget=SMALL)
        while state.winner is None:
            seat = state.to_play
            card = bot.choose(state.view_for(seat))
            assert card in state.legal_cards(seat)
            state.play(seat, card)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_with_the_same_seed_play_the_same_game(name):
    first, _ = play_game((name,) * 3, deal_seed="d", bot_seed="b", target=10, budget=SMALL)
    second, _ = play_game((name,) * 3, deal_seed="d", bot_seed="b", target=10, budget=SMALL)
    assert [h.tricks for h in first.hand_log] == [h.tricks for h in second.hand_log]


class SpyBot(Bot):
    """Records what it is handed, then plays like the bot it wraps."""

    name = "spy"

    def __init__(self, inner):
        super().__init__(0)
        self.inner, self.received = inner, []

    def choose(self, view, budget=None):
        self.received.append(view)
        return self.inner.choose(view, budget)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_are_handed_their_own_view_and_nothing_more(name, monkeypatch):
    from lab import simulation

    spies = []

    def spy_factory(bot_name, seed=None):
        spy = SpyBot(make_bot(bot_name, seed))
        spies.append(spy)
        return spy

    monkeypatch.setattr(simulation, "make_bot", spy_factory)
    simulation.play_game((name,) * 3, deal_seed="spy", bot_seed="spy", target=10, budget=SMALL)
    assert spies
    for seat, spy in enumerate(spies):
        for view in spy.received:
            assert type(view) is SeatView and view.seat == seat and view.to_play == seat
            hidden = set(range(48)) - set(view.hand) - set(view.played)
            assert not hidden & set(view.hand)


def test_a_bot_refuses_to_play_out_of_turn():
    view = hand_made_view(["1O"], seat=1)
    view.to_play = 0
    with pytest.raises(ValueError, match="not its turn"):
        make_bot("heuristic", 1).choose(view)


def test_every_bot_is_made_by_name_from_one_registry():
    assert BOT_NAMES == (
        "random",
        "careful",
        "heuristic",
        "expert-v1",
        "expert-v2",
        "expert-v3",
        "expert-v4",
    )
    assert BOT_CLASSES is BOTS  # the name the site has always imported
    for name in BOT_NAMES:
        bot = make_bot(name, 1)
        assert bot.name == name and bot.searches == BOTS[name].searches == (name in SEARCH_BOTS)


def test_make_bot_rejects_unknown_levels():
    with pytest.raises(ValueError, match="Unknown bot"):
        make_bot("grandmaster")


def test_heuristic_wins_a_trick_full_of_coins_cheaply():
    # Last to play on 5O 7O: only a higher Coins card wins the pair; the 9O is the cheapest.
    view = hand_made_view(["9O", "12O", "2B", "3E"], trick=["5O", "7O"])
    assert make_bot("heuristic", 1).choose(view) == parse_card("9O")


def test_heuristic_sheds_a_low_card_when_it_cannot_win():
    # A pair of Swords with the Ace: nothing wins; keep Coins and high cards, shed the 2.
    view = hand_made_view(["2B", "11B", "5O", "12C"], trick=["1E", "3E"])
    assert make_bot("heuristic", 1).choose(view) == parse_card("2B")


def test_heuristic_takes_the_winning_point_at_the_target():
    # 9 of 10 points: three suits with Clubs missing means the Cups card wins, with a coin.
    view = hand_made_view(["2C", "12B", "4B"], trick=["6O", "3E"], scores=(5, 5, 9))
    assert make_bot("heuristic", 1).choose(view) == parse_card("2C")


def test_heuristic_keeps_coins_from_the_player_about_to_win():
    # Seat 0 leads with 8 of 10 points and will win this trick whatever we do (pair of Cups
    # with the Ace led): we must not add a Coins card.
    view = hand_made_view(
        ["3O", "4O", "2B"], trick=["1C", "5C"], scores=(8, 0, 0), seat=2, leader=0
    )
    assert make_bot("heuristic", 1).choose(view) == parse_card("2B")


@pytest.mark.strength
def test_heuristic_beats_random_bots_clearly():
    from lab.simulation import simulate

    summary = simulate(
        games=90, seed="strength", bots=("heuristic", "random", "random"), rotate=True
    )
    assert summary.bots["heuristic"].wins / summary.bots["heuristic"].seat_games > 0.7
