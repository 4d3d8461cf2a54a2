"""The search bot as expert-v2 (and expert-v1): handed views only, legal, reproducible, and
it sees a won game when it can."""

import time

from games.engine import GameState, SeatView, parse_card
from games.engine.bots import BOTS, EXPERT_V1, EXPERT_V2, Budget, SearchBot, make_bot
from games.engine.bots.policies import CAREFUL, LOOKAHEAD
from games.engine.bots.search.playouts import playout
from games.engine.bots.values import hand_value
from lab.simulation import play_game
from tests.engine.helpers import hand_made_view

FAST = Budget(iterations=12)


class SpyBot(SearchBot):
    """An expert-v2 that records every argument it is handed."""

    def __init__(self, seed):
        super().__init__(EXPERT_V2, seed)
        self.received = []

    def choose(self, view, budget=None):
        self.received.append((view, budget))
        return super().choose(view, budget)


def test_the_experts_are_registered_and_the_hard_level_is_the_newest():
    from games.engine.bots import HARD

    assert BOTS["expert-v2"].budget == EXPERT_V2.budget and BOTS["expert-v2"].searches
    assert HARD.bot == "expert-v4"
    for settings in (EXPERT_V1, EXPERT_V2):
        bot = make_bot(settings.name, 1)
        assert isinstance(bot, SearchBot) and bot.settings is settings


def test_the_expert_is_handed_its_own_view_and_nothing_more(monkeypatch):
    from lab import simulation

    spies = []

    def spy_factory(bot_name, seed=None):
        spy = SpyBot(seed)
        spies.append(spy)
        return spy

    monkeypatch.setattr(simulation, "make_bot", spy_factory)
    simulation.play_game(("expert-v2",) * 3, deal_seed="spy", bot_seed="spy", target=6, budget=FAST)
    assert len(spies) == 3
    for seat, spy in enumerate(spies):
        assert spy.received
        for view, budget in spy.received:
            assert type(view) is SeatView and view.seat == seat and view.to_play == seat
            assert budget is FAST
            others = set(range(48)) - set(view.hand) - set(view.played)
            assert set(view.unseen_cards()) == others


def test_the_expert_always_returns_a_legal_card():
    for game in range(3):
        state = GameState(4 + 3 * game, seed=f"expert-legal-{game}")
        bots = [make_bot("expert-v2", f"{game}/{seat}") for seat in range(3)]
        while state.winner is None:
            seat = state.to_play
            card = bots[seat].choose(state.view_for(seat), FAST)
            assert card in state.legal_cards(seat)
            state.play(seat, card)


def test_the_expert_is_deterministic_for_a_seed_and_an_iteration_budget():
    first, _ = play_game(("expert-v2",) * 3, deal_seed="d", bot_seed="b", target=5, budget=FAST)
    second, _ = play_game(("expert-v2",) * 3, deal_seed="d", bot_seed="b", target=5, budget=FAST)
    assert [h.tricks for h in first.hand_log] == [h.tricks for h in second.hand_log]


def test_the_same_view_gets_the_same_evaluation():
    view = hand_made_view(["1O", "3C", "7E", "10B", "2O"], leader=2)
    budget = Budget(iterations=30)
    one = SearchBot(EXPERT_V2, 7).evaluate(view, budget.iterations)
    two = SearchBot(EXPERT_V2, 7).evaluate(view, budget.iterations)
    assert one == two
    assert set(one) == set(view.hand)


def test_the_expert_wins_the_game_deciding_last_trick():
    # 8 of 10 points, last to play on 5O 7O: only a higher Coins card wins the pair (and the
    # game); the 12C, a three-suit winner elsewhere, would hand the trick to the 7O.
    view = hand_made_view(["9O", "12C", "2B", "3E"], trick=["5O", "7O"], scores=(5, 6, 8))
    assert make_bot("expert-v2", 1).choose(view, FAST) == parse_card("9O")


def test_the_expert_denies_the_game_to_an_opponent():
    # Seat 0 has 9 of 10 and leads 3O; seat 1 answered 4E. Three suits with Cups missing is
    # won by the Coins card, so any Clubs card gives seat 0 the game. Only the Cups card
    # (Clubs missing) keeps the trick, and the game, from seat 0.
    view = hand_made_view(["2B", "5B", "6C", "9B"], trick=["3O", "4E"], scores=(9, 0, 2), leader=0)
    card = make_bot("expert-v2", 3).choose(view, FAST)
    assert card == parse_card("6C")


def test_the_expert_plays_the_only_card_left_at_once():
    view = hand_made_view(["4C"], trick=["1O", "2O"])
    assert make_bot("expert-v2", 0).choose(view) == parse_card("4C")


def test_a_playout_ends_when_someone_reaches_the_target():
    # Seat 2 closes 5O 7O with the 9O and reaches the target: a win for seat 2.
    def seat_two_closes():
        return [[], [], [parse_card("9O")]], [parse_card("5O"), parse_card("7O")]

    for models in ([CAREFUL] * 3, [LOOKAHEAD] * 3):
        assert playout(*seat_two_closes(), 0, [0, 0, 7], 10, 2, models, hand_value) == 1.0
        assert playout(*seat_two_closes(), 0, [0, 0, 7], 10, 0, models, hand_value) == -1.0


def test_the_default_budget_answers_quickly():
    # The first decision of a hand is the slowest one: 16 cards, a whole hand to roll out.
    # The median of a few keeps a busy machine from failing this loose check.
    times = []
    for deal in range(5):
        state = GameState(10, seed=f"think-time-{deal}")
        view = state.view_for(state.to_play)
        started = time.perf_counter()
        make_bot("expert-v2", deal).choose(view)
        times.append(time.perf_counter() - started)
    assert sorted(times)[2] < EXPERT_V2.budget.seconds + 0.1  # the clock cap is a safety net


def test_inference_reads_each_opponents_plays_of_this_hand_with_what_they_saw():
    """Two careful beginners play against the expert; for the real deal the careful model
    explains every card they played, and the look-ahead model explains fewer or as many."""
    from games.engine.bots.search.inference import model_likelihoods, opponent_plays

    state = GameState(10, seed="inference")
    bots = {1: make_bot("careful", 1), 2: make_bot("careful", 2), 0: make_bot("random", 0)}
    while not (state.to_play == 0 and len(state.current_hand.tricks) >= 5):
        seat = state.to_play
        state.play(seat, bots[seat].choose(state.view_for(seat)))
    view = state.view_for(0)
    plays = opponent_plays(view)
    played_by = {1: [], 2: []}
    tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    for leader, cards in tricks:
        for position, card in enumerate(cards):
            seat = (leader + position) % 3
            if seat:
                played_by[seat].append(card)
    for seat in (1, 2):
        assert [play[0] for play in plays[seat]] == played_by[seat][::-1]  # latest first
        models = (CAREFUL, LOOKAHEAD)
        careful, lookahead = model_likelihoods(seat, state.hands[seat], plays[seat], 10, models)
        assert careful == 1.0 and lookahead <= careful
    # A deal that gives seat 1 a cheaper plain card than one it led is less likely.
    led = next(t for t in view.tricks if t.leader == 1)
    cheaper = [c for c in range(48) if c % 12 < led.cards[0] % 12 and not 12 <= c < 24]
    unseen_cheaper = [c for c in cheaper if c in view.unseen_cards()]
    if unseen_cheaper:
        hand = [*state.hands[1][:-1], unseen_cheaper[0]]
        careful, _ = model_likelihoods(1, hand, plays[1], 10, (CAREFUL, LOOKAHEAD))
        assert careful < 1.0
