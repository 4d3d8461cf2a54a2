"""The ladder: lineups rotated over the same deals, ranked results, reproducible ratings."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from lab.ladder import (
    Job,
    Outcome,
    match_jobs,
    outcome_ranks,
    round_robin,
    run_ladder,
)

POOL = ["random", "careful", "heuristic"]


def outcome(winner, scores):
    job = Job(0, ("random",) * 3, "d", "b", 10)
    return Outcome(job, winner, scores, 0, 0.0)


def test_games_rank_as_the_site_ranks_them_winner_first_then_by_points():
    assert outcome_ranks(outcome(1, (4, 10, 7))) == [3, 1, 2]
    assert outcome_ranks(outcome(0, (11, 5, 5))) == [1, 2, 2]
    assert outcome_ranks(outcome(2, (9, 3, 10))) == [2, 3, 1]


def test_every_lineup_plays_the_same_deals_under_all_six_seatings():
    assert round_robin(["a", "b", "c", "d"]) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "c", "d"),
        ("b", "c", "d"),
    ]
    jobs = match_jobs([("a", "b", "c")], deals=2, seed="s", target=10)
    assert len(jobs) == 12 and len({job.seating for job in jobs}) == 6
    assert {job.deal_seed for job in jobs} == {"s/deal/1", "s/deal/2"}
    against_two = match_jobs([("a", "b", "b")], deals=1, seed="s", target=10)
    assert sorted(job.seating for job in against_two) == [
        ("a", "b", "b"),
        ("b", "a", "b"),
        ("b", "b", "a"),
    ]


def test_a_ladder_is_reproducible_and_orders_the_bots():
    first = run_ladder(POOL, deals=5, seed="ladder-test", processes=1)
    second = run_ladder(POOL, deals=5, seed="ladder-test", processes=1)
    assert [s.as_dict() for s in first.table()] == [s.as_dict() for s in second.table()]
    assert all(s.games == 30 for s in first.table())
    assert sum(s.wins for s in first.table()) == 30
    assert first.standings["careful"].mu > first.standings["random"].mu


def test_the_command_prints_the_ladder_and_matches_then_a_json_line():
    out = StringIO()
    call_command(
        "ladder",
        pool=",".join(POOL),
        deals=2,
        match=["careful,random"],
        match_games=6,
        seed="cmd",
        processes=1,
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Ladder: 12 games")
    assert any(line.startswith("careful    medium") for line in lines)
    result = json.loads(lines[-1])
    assert [row["bot"] for row in result["ladder"]] and result["matches"][0]["games"] == 6


@pytest.mark.parametrize(
    "options",
    [{"pool": "random,careful,nobody"}, {"pool": "random,careful"}, {"match": ["careful"]}],
)
def test_bad_options_are_refused_clearly(options):
    with pytest.raises(CommandError):
        call_command("ladder", deals=1, processes=1, stdout=StringIO(), **options)
