"""The arena's choice of trios, a pure function: property tests over any entrants, games
and history (hypothesis), and the rounds it plays out when every game ends in time."""

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.trios import WINDOW, Candidate, choose_trios, trio_key

LEVELS = ("easy", "medium", "hard")


def field(accounts: int, games=None) -> list[Candidate]:
    games = games or {}
    return [Candidate(f"u{n}", True, games.get(f"u{n}", 0)) for n in range(accounts)] + [
        Candidate(level, False, games.get(level, 0)) for level in LEVELS
    ]


def play_rounds(accounts: int, slots: int, rounds: int):
    """Every round seats up to ``slots`` tables, and every game ends before the next."""
    games = {c.key: 0 for c in field(accounts)}
    met: dict[str, int] = {}
    spreads = []
    for _round in range(rounds):
        for trio in choose_trios(field(accounts, games), met, slots):
            met[trio_key(trio)] = met.get(trio_key(trio), 0) + 1
            for key in trio:
                games[key] += 1
        played = [games[f"u{n}"] for n in range(accounts)]
        spreads.append(max(played) - min(played))
    return games, met, spreads


histories = st.dictionaries(
    st.lists(
        st.sampled_from([f"u{n}" for n in range(8)] + list(LEVELS)),
        min_size=3,
        max_size=3,
        unique=True,
    ).map(trio_key),
    st.integers(0, 5),
    max_size=20,
)


games_so_far = st.dictionaries(
    st.sampled_from([f"u{n}" for n in range(8)] + list(LEVELS)), st.integers(0, 9)
)


@settings(max_examples=150, deadline=None)
@given(
    accounts=st.integers(0, 8),
    games=games_so_far,
    history=histories,
    slots=st.integers(0, 10),
)
def test_every_table_is_three_entrants_with_an_account_and_no_account_twice(
    accounts, games, history, slots
):
    trios = choose_trios(field(accounts, games), history, slots)
    assert len(trios) <= slots
    seated = [key for trio in trios for key in trio if key.startswith("u")]
    assert len(seated) == len(set(seated))
    for trio in trios:
        assert len(set(trio)) == 3 and any(key.startswith("u") for key in trio)
    if slots >= accounts:
        assert len(set(seated)) == accounts  # levels are never short: nobody waits


@settings(max_examples=150, deadline=None)
@given(
    accounts=st.integers(1, 8),
    games=games_so_far,
    history=histories,
)
def test_the_first_table_is_the_least_met_trio_of_the_fewest_games(accounts, games, history):
    candidates = field(accounts, games)
    (anchor, *partners), *_ = choose_trios(candidates, history, 1)
    by_games = {c.key: c.games for c in candidates}
    account_games = [c.games for c in candidates if c.is_account]
    assert by_games[anchor] == min(account_games)
    others = sorted(by_games[k] for k in by_games if k != anchor)
    window = [k for k in by_games if k != anchor and by_games[k] <= others[1] + WINDOW]
    assert set(partners) <= set(window)
    least = min(history.get(trio_key((anchor, p, q)), 0) for p, q in combinations(window, 2))
    assert history.get(trio_key((anchor, *partners)), 0) == least


@settings(max_examples=60, deadline=None)
@given(accounts=st.integers(1, 9), slots=st.integers(1, 6), rounds=st.integers(1, 30))
def test_accounts_games_stay_within_two_of_each_other(accounts, slots, rounds):
    _games, _met, spreads = play_rounds(accounts, slots, rounds)
    assert max(spreads) <= WINDOW + 1


def test_one_account_meets_every_pair_of_levels_before_any_trio_repeats():
    _games, met, _spreads = play_rounds(accounts=1, slots=1, rounds=3)
    assert sorted(met.values()) == [1, 1, 1]


def test_four_accounts_one_table_at_a_time_spread_over_many_trios():
    """34 of the 35 trios (all but the three levels alone) can be seated; 34 games in a
    row seat at least 25 different ones, and none more than twice."""
    _games, met, _spreads = play_rounds(accounts=4, slots=1, rounds=34)
    assert sum(met.values()) == 34
    assert len(met) >= 25 and max(met.values()) <= 2
