"""A search bot's budget: iterations alone make it reproducible however loaded the machine is
(the clock is never read), a clock cap stops it early, and ``make_bot`` takes a budget."""

import pytest

from games.engine import GameState
from games.engine.bots import BOTS, EXPERT_V2, SEARCH_BOTS, Budget, SearchSettings, make_bot
from games.engine.bots.search import bot as search_bot


class JumpingClock:
    """A clock ``step`` seconds later at every read (a machine as loaded as we like)."""

    def __init__(self, step: float):
        self.step, self.now, self.reads = step, 0.0, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def cards_played(name: str, budget: Budget, plays: int = 30) -> list[int]:
    """The first ``plays`` cards of a game of three ``name`` bots made with ``budget``."""
    state = GameState(10, seed="budget")
    bots = [make_bot(name, seed=seat, budget=budget) for seat in range(3)]
    cards = []
    while state.winner is None and len(cards) < plays:
        seat = state.to_play
        card = bots[seat].choose(state.view_for(seat))
        cards.append(card)
        state.play(seat, card)
    return cards


def deals_searched(monkeypatch, bot, view, budget=None) -> int:
    """How many deals ``bot`` plays out to choose from ``view`` (a 16-card hand)."""
    calls = []
    real = search_bot.card_worth

    def counted(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(search_bot, "card_worth", counted)
    bot.choose(view, budget)
    return len(calls) // len(view.legal_cards)


def first_view():
    state = GameState(10, seed="deals")
    return state.view_for(state.to_play)


@pytest.mark.parametrize("name", sorted(SEARCH_BOTS))
def test_an_iterations_only_budget_never_reads_the_clock(name, monkeypatch):
    calm = cards_played(name, Budget(iterations=5))
    clock = JumpingClock(step=1000.0)
    monkeypatch.setattr(search_bot, "clock", clock)
    assert cards_played(name, Budget(iterations=5)) == calm
    assert clock.reads == 0


def test_a_clock_cap_decides_when_the_budget_has_one(monkeypatch):
    """The control for the test above: the same clock stops a capped search after one deal."""
    monkeypatch.setattr(search_bot, "clock", JumpingClock(step=1000.0))
    bot = make_bot("expert-v2", 1, budget=Budget(iterations=50, seconds=0.5))
    assert deals_searched(monkeypatch, bot, first_view()) == 1


def test_make_bot_thinks_with_the_budget_it_is_given(monkeypatch):
    view = first_view()
    bot = make_bot("expert-v4", 1, budget=Budget(iterations=3))
    assert bot.budget == Budget(iterations=3)
    assert deals_searched(monkeypatch, bot, view) == 3
    assert deals_searched(monkeypatch, bot, view, Budget(iterations=2)) == 2  # per card wins
    monkeypatch.setattr(search_bot, "clock", JumpingClock(step=0.0))
    # A budget without iterations thinks the bot's own number of deals, under its cap.
    assert deals_searched(monkeypatch, make_bot("expert-v1", 1), view, Budget(seconds=1)) == 40


def test_the_bots_own_budgets_are_the_ones_they_always_had():
    assert {name: BOTS[name].budget for name in sorted(SEARCH_BOTS)} == {
        "expert-v1": Budget(iterations=40, seconds=0.24),
        "expert-v2": Budget(iterations=100, seconds=0.5),
        "expert-v3": Budget(iterations=100, seconds=0.5),
        "expert-v4": Budget(iterations=100, seconds=0.5),
    }
    assert make_bot("expert-v4", 1).budget == Budget(iterations=100, seconds=0.5)
    for name in ("random", "careful", "heuristic"):
        assert BOTS[name].budget is None and not BOTS[name].searches


@pytest.mark.parametrize(
    "arguments", [{"iterations": 0}, {"iterations": -3}, {"seconds": 0}, {"seconds": -1.0}]
)
def test_a_budget_that_cannot_think_is_refused(arguments):
    with pytest.raises(ValueError, match="budget"):
        Budget(**arguments)


def test_a_search_configuration_needs_iterations_positive_priors_and_known_policies():
    models, own = EXPERT_V2.opponent_models, EXPERT_V2.own_model
    with pytest.raises(ValueError, match="iterations"):
        SearchSettings("x", Budget(seconds=1.0), models, own)
    with pytest.raises(ValueError, match="prior"):
        SearchSettings("x", EXPERT_V2.budget, (), own)
    with pytest.raises(ValueError, match="unknown play-out policy"):
        SearchSettings("x", EXPERT_V2.budget, models, "grandmaster")
