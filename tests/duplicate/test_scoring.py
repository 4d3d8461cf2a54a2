"""Matchpoints, as docs/duplicate.md states them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duplicate.scoring import ALONE, Result, matchpoints, percentages, places, versus

results = st.lists(st.builds(Result, st.integers(0, 30), st.booleans()), min_size=1, max_size=12)


@pytest.mark.parametrize(
    ("mine", "theirs", "score"),
    [
        (Result(3, True), Result(9, False), 1.0),  # a win beats any points without one
        (Result(9, False), Result(3, True), 0.0),
        (Result(10, True), Result(10, True), 0.5),
        (Result(4, False), Result(4, False), 0.5),
        (Result(5, False), Result(4, False), 1.0),
        (Result(11, True), Result(12, True), 0.0),
    ],
)
def test_one_result_against_another(mine, theirs, score):
    assert versus(mine, theirs) == score


def test_a_small_field():
    field = [Result(10, True), Result(7, False), Result(7, False), Result(2, False)]
    assert matchpoints(field) == [3.0, 1.5, 1.5, 0.0]
    assert percentages(field) == [100.0, 50.0, 50.0, 0.0]
    assert places(percentages(field)) == [1, 2, 2, 4]


def test_a_result_alone_scores_the_average():
    assert percentages([Result(0, False)]) == [ALONE] == [50.0]


@given(results)
def test_matchpoints_share_out_every_comparison(field):
    """Each pair hands out exactly one matchpoint between its two results."""
    n = len(field)
    assert sum(matchpoints(field)) == pytest.approx(n * (n - 1) / 2)
    assert all(0 <= p <= 100 for p in percentages(field))


@given(results)
def test_the_same_result_scores_the_same_and_better_scores_more(field):
    scores = dict(zip(field, percentages(field), strict=False))
    for mine, percent in zip(field, percentages(field), strict=True):
        assert scores[mine] == percent
        for theirs, other in zip(field, percentages(field), strict=True):
            if versus(mine, theirs) == 1.0:
                assert percent > other
