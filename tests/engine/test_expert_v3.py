"""expert-v3: legal, reproducible, handed its own view only; its race table is the one its
generator writes; its exact endgame search agrees with a brute force written from the rules."""

import random

from games.engine import SeatView, parse_card
from games.engine.bots import BOTS, EXPERT_V3, Budget, SearchBot, make_bot
from games.engine.bots.data import race_table
from games.engine.bots.policies import CAREFUL, LOOKAHEAD
from games.engine.bots.search.endgame import card_values, solve
from games.engine.bots.search.playouts import playout
from games.engine.bots.values import race_chances, race_value
from games.engine.cards import CARD_POINTS
from games.engine.tricks import trick_winner
from lab import race_table as race
from lab.simulation import play_game
from tests.engine.helpers import bot_turns, hand_made_view

FAST = Budget(iterations=12)


def test_expert_v3_is_registered_with_its_own_budget():
    bot = make_bot("expert-v3", 1)
    assert isinstance(bot, SearchBot) and bot.settings is EXPERT_V3
    assert BOTS["expert-v3"].budget == EXPERT_V3.budget and BOTS["expert-v3"].searches
    assert EXPERT_V3.budget.iterations and EXPERT_V3.race_value and EXPERT_V3.exact_cards == 3


def test_expert_v3_is_handed_its_own_view_and_nothing_more(monkeypatch):
    from lab import simulation

    received = []

    class Spy(SearchBot):
        def choose(self, view, budget=None):
            received.append(view)
            return super().choose(view, budget)

    monkeypatch.setattr(simulation, "make_bot", lambda name, seed=None: Spy(EXPERT_V3, seed))
    seating = ("expert-v3",) * 3
    simulation.play_game(seating, deal_seed="spy3", bot_seed="spy3", target=8, budget=FAST)
    assert received
    for view in received:
        assert type(view) is SeatView and view.to_play == view.seat
        assert set(view.unseen_cards()) == set(range(48)) - set(view.hand) - set(view.played)


def test_expert_v3_always_returns_a_legal_card_also_in_the_exact_endgame():
    exact_turns = sum(bot.exact(view) for bot, view in bot_turns("expert-v3", 3, FAST))
    assert exact_turns > 0


def test_expert_v3_is_deterministic_for_a_seed_and_an_iteration_budget():
    seating = ("expert-v3",) * 3
    first, _ = play_game(seating, deal_seed="d3", bot_seed="b3", target=12, budget=FAST)
    second, _ = play_game(seating, deal_seed="d3", bot_seed="b3", target=12, budget=FAST)
    assert [h.tricks for h in first.hand_log] == [h.tricks for h in second.hand_log]


def test_expert_v3_wins_the_game_deciding_last_trick_and_denies_it():
    view = hand_made_view(["9O", "12C", "2B", "3E"], trick=["5O", "7O"], scores=(5, 6, 8))
    assert make_bot("expert-v3", 1).choose(view, FAST) == parse_card("9O")
    view = hand_made_view(["2B", "5B", "6C", "9B"], trick=["3O", "4E"], scores=(9, 0, 2), leader=0)
    assert make_bot("expert-v3", 3).choose(view, FAST) == parse_card("6C")
    # The same with three cards: the exact search decides.
    view = hand_made_view(["2B", "6C", "9B"], trick=["3O", "4E"], scores=(9, 0, 2), leader=0)
    bot = make_bot("expert-v3", 3)
    assert bot.exact(view) and bot.choose(view) == parse_card("6C")


def test_the_race_table_is_the_one_its_generator_writes():
    assert (race_table.HANDS, race_table.SEED) == (race.HANDS, race.SEED)
    d = race_table.MAX_DISTANCE
    assert d == race.MAX_DISTANCE and len(race_table.CHANCES) == 3 * d**3
    for i in range(0, len(race_table.CHANCES), 3):
        assert abs(sum(race_table.CHANCES[i : i + 3]) - 1) < 0.002
    # A small table from the same code is reproducible and renders to a valid module.
    small = race.build_table(hands=40, seed="test", max_distance=4)
    assert small == race.build_table(hands=40, seed="test", max_distance=4)
    namespace = {}
    exec(race.render_module(small, 40, "test", 4), namespace)
    assert len(namespace["CHANCES"]) == 3 * 4**3


def test_the_race_values_closer_to_the_target_more():
    for scores in ((4, 4, 4), (6, 3, 3), (2, 5, 5)):
        for leader in range(3):
            chances = race_chances(scores, leader, 10)
            assert abs(sum(chances) - 1) < 0.002
    assert race_value([8, 2, 2], 0, 1, 10) > race_value([7, 3, 2], 0, 1, 10) > 0
    assert race_value([4, 4, 4], 0, 1, 10) < 0  # a third of the chances is less than even
    assert race_value([40, 0, 0], 0, 1, 50) > 0.5  # far from any table: the lead decides


def test_a_race_playout_ends_when_someone_reaches_the_target():
    def seat_two_closes():
        return [[], [], [parse_card("9O")]], [parse_card("5O"), parse_card("7O")]

    for models in ([CAREFUL] * 3, [LOOKAHEAD] * 3):
        assert playout(*seat_two_closes(), 0, [0, 0, 7], 10, 2, models, race_value) == 1.0
        assert playout(*seat_two_closes(), 0, [0, 0, 7], 10, 0, models, race_value) == -1.0


def _brute(hands, trick, leader, scores, target):
    """Max-n from the rules alone (``trick_winner``, ``CARD_POINTS``): every seat takes the
    card best for itself, the first such card in sorted order on a tie."""
    seat = (leader + len(trick)) % 3
    if not trick and not hands[seat]:
        return race_chances(scores, leader, target)
    best = None
    for card in sorted(hands[seat]):
        rest = [sorted(h) for h in hands]
        rest[seat].remove(card)
        cards = [*trick, card]
        if len(cards) < 3:
            value = _brute(rest, cards, leader, scores, target)
        else:
            winner = (leader + trick_winner(*cards)) % 3
            points = sum(CARD_POINTS[c] for c in cards)
            after = list(scores)
            after[winner] += points
            if points and after[winner] >= target:
                value = tuple(float(s == winner) for s in range(3))
            else:
                value = _brute(rest, [], winner, after, target)
        if best is None or value[seat] > best[seat]:
            best = value
    return best


def test_the_exact_endgame_agrees_with_brute_force_on_small_positions():
    rng = random.Random(13)
    for _ in range(60):
        deck = list(range(48))
        rng.shuffle(deck)
        n = rng.randint(1, 3)
        hands = [sorted(deck[:n]), sorted(deck[n : 2 * n]), sorted(deck[2 * n : 3 * n])]
        scores = [rng.randint(0, 9) for _ in range(3)]
        leader = rng.randrange(3)
        assert solve(hands, (), leader, scores, 10) == _brute(hands, [], leader, scores, 10)
        # Mid-trick: the leader has played; the next seat's card values.
        lead = hands[leader][0]
        hands[leader] = hands[leader][1:]
        me = (leader + 1) % 3
        values = card_values(hands, (lead,), leader, scores, 10, me)
        for card in hands[me]:
            rest = [list(h) for h in hands]
            rest[me].remove(card)
            expected = _brute(rest, [lead, card], leader, scores, 10)[me]
            assert values[card] == expected


def test_think_time_times_only_the_bot_it_measures():
    import json
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("think_time", bot="heuristic", against="careful", games=3, target=4, stdout=out)
    result = json.loads(out.getvalue().splitlines()[-1])
    assert result["bot"] == "heuristic" and result["games"] == 3 and result["cards"] > 0
    assert result["p50_ms"] <= result["p95_ms"] <= result["max_ms"]
