"""The simulate command: reproducible games, rotation, exports and its JSON summary."""

import json

import pytest
from django.core.management import CommandError, call_command

from games.engine import state_from_record
from lab.simulation import seatings, simulate, wilson_interval


def _run(*args, capsys):
    call_command("simulate", *args)
    return capsys.readouterr().out.strip().splitlines()


def test_the_last_line_is_a_json_summary(capsys):
    lines = _run("--games", "30", "--seed", "s", capsys=capsys)
    summary = json.loads(lines[-1])
    assert summary["games"] == 30 and summary["plays"] > 30 * 48 // 2
    assert summary["seconds"] > 0 and summary["plays_per_second"] > 0
    tally = summary["bots"]["random"]
    assert tally["wins"] == 30 and tally["seat_games"] == 90
    low, high = tally["ci95"]
    assert low < tally["win_rate"] < high
    assert sum(summary["seat_wins"]) == 30


def test_the_same_seed_gives_the_same_games(tmp_path, capsys):
    _run("--games", "5", "--seed", "same", "--export", str(tmp_path / "a"), "--json", capsys=capsys)
    _run("--games", "5", "--seed", "same", "--export", str(tmp_path / "b"), "--json", capsys=capsys)
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(files) == 5
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    _run(
        "--games", "5", "--seed", "other", "--export", str(tmp_path / "c"), "--json", capsys=capsys
    )
    assert (tmp_path / "a" / files[0]).read_bytes() != (tmp_path / "c" / files[0]).read_bytes()


def test_exported_records_replay(tmp_path, capsys):
    _run(
        "--games",
        "4",
        "--seed",
        "x",
        "--bots",
        "heuristic,random,heuristic",
        "--export",
        str(tmp_path),
        capsys=capsys,
    )
    for path in tmp_path.iterdir():
        record = json.loads(path.read_text())
        assert [p["bot"] for p in record["players"]] == ["heuristic", "random", "heuristic"]
        state_from_record(record)


def test_rotate_plays_each_deal_under_every_distinct_seating():
    assert len(seatings(("a", "b", "c"), rotate=True)) == 6
    assert seatings(("a", "b", "b"), rotate=True) == [
        ("a", "b", "b"),
        ("b", "a", "b"),
        ("b", "b", "a"),
    ]
    summary = simulate(games=7, seed="r", bots=("heuristic", "random", "random"), rotate=True)
    assert summary.games == 9 and summary.deals == 3
    assert summary.bots["heuristic"].seat_games == 9
    assert summary.bots["random"].seat_games == 18


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "random,random"],
        ["--bots", "random,random,wizard"],
        ["--games", "0"],
        ["--target", "0"],
        ["--target", "100"],
    ],
)
def test_bad_arguments_get_a_clear_error(args):
    with pytest.raises(CommandError):
        call_command("simulate", *args)


def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson_interval(0, 0) == (0.0, 1.0)
