"""expert-v4 and the distilled policy: legal and reproducible; its opponent models are drawn
as expert-v2's always were; the distilled policy's fit recovers a policy it is shown, and the
committed weights have the shape the tables are built from."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameState, SeatView
from games.engine.bots import BOTS, EXPERT_V4, Budget, SearchBot, make_bot
from games.engine.bots.data import distilled_weights
from games.engine.bots.policies import CAREFUL, DISTILLED, LOOKAHEAD, distilled
from games.engine.bots.search.inference import draw_model, model_weights, opponent_plays
from games.engine.bots.search.playouts import playout
from games.engine.bots.values import race_value
from lab.distill import Choice, features, fit_position
from lab.simulation import play_game
from tests.engine.helpers import bot_turns

FAST = Budget(iterations=12)


def test_expert_v4_is_registered_and_plays_its_opponents_and_itself_by_the_distilled_policy():
    bot = make_bot("expert-v4", 1)
    assert isinstance(bot, SearchBot) and bot.settings is EXPERT_V4
    assert BOTS["expert-v4"].budget == EXPERT_V4.budget and BOTS["expert-v4"].searches
    assert EXPERT_V4.own_policy is DISTILLED and bot.own_policy is DISTILLED
    assert {model for model, _ in bot.priors} == {CAREFUL, LOOKAHEAD, DISTILLED}
    assert sum(share for _, share in EXPERT_V4.opponent_models) == 1.0


def test_expert_v4_is_handed_its_own_view_and_always_returns_a_legal_card():
    for _, view in bot_turns("expert-v4", 2, FAST):
        assert type(view) is SeatView and view.to_play == view.seat
        assert set(view.unseen_cards()) == set(range(48)) - set(view.hand) - set(view.played)


def test_expert_v4_is_deterministic_for_a_seed_and_an_iteration_budget():
    seating = ("expert-v4", "expert-v1", "careful")
    first, plays = play_game(seating, deal_seed="d4", bot_seed="b4", target=12, budget=FAST)
    again, plays_again = play_game(seating, deal_seed="d4", bot_seed="b4", target=12, budget=FAST)
    assert (first.winner, first.scores, plays) == (again.winner, again.scores, plays_again)


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 1, exclude_max=True), st.floats(0, 1), st.floats(0, 1))
def test_two_models_are_drawn_exactly_as_expert_v2_drew_them(draw, careful, lookahead):
    """expert-v2 and expert-v3 games replay as before the models became a list."""
    priors = ((CAREFUL, 0.5), (LOOKAHEAD, 0.5))
    before = LOOKAHEAD if draw * (careful + lookahead) < lookahead else CAREFUL
    if careful + lookahead > 0:
        assert draw_model(priors, [careful, lookahead], draw) == before


def test_a_model_that_explains_no_play_is_drawn_less():
    priors = ((CAREFUL, 0.25), (LOOKAHEAD, 0.25), (DISTILLED, 0.5))
    draws = [draw_model(priors, [0.25, 0.0, 0.5], k / 1000) for k in range(1000)]
    assert LOOKAHEAD not in draws
    assert 600 < draws.count(DISTILLED) < 730  # two thirds of the weight


def test_inference_weighs_every_model_of_the_bot():
    state = GameState(10, seed="infer-v4")
    bots = [make_bot("careful", seat) for seat in range(3)]
    for _ in range(9):  # three tricks of careful players
        seat = state.to_play
        state.play(seat, bots[seat].choose(state.view_for(seat)))
    view = state.view_for(state.to_play)
    plays = opponent_plays(view)
    seat = (view.seat + 1) % 3
    weights = model_weights(seat, state.hands[seat], plays[seat], 10, EXPERT_V4.priors)
    careful, lookahead, fitted = weights
    assert careful == 0.25  # the careful model explains every card it played
    assert careful >= lookahead and careful >= fitted * 0.5


def test_the_distilled_policy_plays_a_whole_hand_and_ends_when_the_target_is_reached():
    rng = random.Random(4)
    for _ in range(50):
        deck = list(range(48))
        rng.shuffle(deck)
        hands = [deck[:16], deck[16:32], deck[32:]]
        scores = [0, 0, 0]
        value = playout(hands, [], 0, scores, 99, 0, [DISTILLED] * 3, lambda s, *_: s)
        assert sum(value) == 12 and hands == [[], [], []]  # every card played once
    closing = [[], [], [29]], [17, 19]  # 7O 9O, then seat 2 plays 7E: 9O takes 2 Coins
    assert playout(*closing, 0, [0, 8, 0], 10, 1, [DISTILLED] * 3, race_value) == 1.0


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_distilled_policy_returns_a_card_of_the_hand(data):
    cards = data.draw(st.permutations(range(48)))
    n = data.draw(st.integers(0, 2))
    trick, hand = cards[:n], cards[n : n + data.draw(st.integers(1, 16))]
    scores = data.draw(st.lists(st.integers(0, 14), min_size=3, max_size=3))
    assert DISTILLED.card(list(hand), tuple(trick), 0, n, scores, 15) in hand


def test_the_committed_weights_fit_the_features_the_tables_are_built_from():
    assert len(distilled_weights.LEAD) == 48 + len(distilled.lead_features(0))
    assert len(distilled_weights.SECOND) == 48 + len(distilled.second_features(0, 1))
    assert len(distilled_weights.THIRD) == 48 + len(distilled.third_features(0, 1, 2))
    assert len(distilled_weights.REACH) == 2
    assert len(distilled.LEAD_SCORE) == 48 and len(distilled.THIRD_SCORE) == 48 * 48
    best_lead = max(range(48), key=distilled.LEAD_SCORE.__getitem__)
    assert distilled.LEAD_SCORE[best_lead] == distilled.score(
        distilled_weights.LEAD, distilled.lead_features(best_lead), best_lead
    )


def test_the_fit_recovers_a_policy_it_is_shown():
    """Choices made by the careful beginner: the fitted weights name nearly all of them."""
    rng = random.Random(7)
    for position in (0, 1, 2):
        choices = []
        for _ in range(400):
            deck = list(range(48))
            rng.shuffle(deck)
            trick, hand = tuple(deck[:position]), tuple(sorted(deck[position : position + 8]))
            card = CAREFUL.card(list(hand), trick, 0, position, [0, 0, 0], 10)
            choices.append(Choice(hand, trick, 0, position, (0, 0, 0), 10, card))
        assert len(features(choices[0], choices[0].hand[0])) == {0: 52, 1: 70, 2: 62}[position]
        _, hits = fit_position(choices)
        assert hits > 0.98
