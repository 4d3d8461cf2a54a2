"""The table benchmark's figures of bunching (what explains a run's p50 rising at the same
CPU), of the moments and the kinds of card that make a run's p99 (docs/benchmarks.md)."""

import random
import subprocess
import time

from django.conf import settings

from common.metrics import Laps
from lab.benchmarks.baseline import bench_command
from lab.benchmarks.table_figures import (
    card_lap_figures,
    latency_by_kind,
    percentile_by_window,
    query_figures,
    sent_together,
)
from lab.benchmarks.tables import card_kind, thinking_time


def test_cards_spread_at_random_are_rarely_sent_together():
    rng = random.Random(7)
    starts = [second + rng.random() for second in range(60) for _ in range(100)]
    share = sent_together(starts)
    assert 0.14 < share < 0.22  # 1 - (1 - 0.002) ** 99 = 0.18 within each second


def test_cards_in_bunches_are_counted_after_the_first_of_each():
    bunches = [second + offset for second in range(10) for offset in (0.1, 0.1005, 0.1015, 0.5)]
    assert sent_together(bunches) == 0.5  # in each second, two follow within 2 ms; two don't
    assert sent_together([1.0]) is None


def test_percentile_by_window_counts_windows_from_the_first_latency():
    taken_at = [100.0, 101.0, 105.0, 112.0, 131.0]
    latencies = [4.0, 6.0, 5.0, 9.0, 3.0]
    assert percentile_by_window(latencies, taken_at) == [5.0, 9.0, None, 3.0]
    assert percentile_by_window(latencies, taken_at, 1.0) == [6.0, 9.0, None, 3.0]
    assert percentile_by_window([], []) == []


def board(hand: int, result: bool = False) -> str:
    closing = '<section id="game-result" class="game-result">' if result else ""
    return f'<div id="board" class="board" data-moves="40" data-hand="{hand}">{closing}</div>'


def test_a_card_is_known_by_the_boards_around_it():
    assert card_kind(board(2), board(2)) == "other"
    assert card_kind(board(2), board(3)) == "hand_end"
    assert card_kind(board(3), board(3, result=True)) == "game_end"
    kinds = ["other", "game_end", "other", "other", "hand_end"]
    figures = latency_by_kind([4.0, 30.0, 6.0, 5.0, 9.0], kinds)
    assert figures == {
        "game_end": {"cards": 1, "p50": 30.0, "p99": 30.0},
        "hand_end": {"cards": 1, "p50": 9.0, "p99": 9.0},
        "other": {"cards": 3, "p50": 5.0, "p99": 6.0},
    }


def test_thinking_is_exact_unless_spread():
    assert thinking_time(1.0, 0.0) == 1.0
    rng_state = random.getstate()
    random.seed(3)
    drawn = [thinking_time(1.0, 0.5) for _ in range(4000)]
    random.setstate(rng_state)
    assert min(drawn) >= 0.5 and max(drawn) <= 1.5
    assert abs(sum(drawn) / len(drawn) - 1.0) < 0.02  # the same mean: the same load


def test_a_commit_runs_with_its_thinking_spread_through_its_own_bench_tables():
    """``--baseline`` with ``--think-spread`` runs the other commit's own ``bench_tables``
    through a snippet that spreads its client's thinking: here, this commit's, asked for
    its help (the snippet must find the client module and hand over the arguments)."""
    command = bench_command(["--help"], spread=0.5)
    assert command[1] == "-c"
    done = subprocess.run(
        command, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "--think-spread" in done.stdout
    assert bench_command(["--tables", "3"])[1:] == ["manage.py", "bench_tables", "--tables", "3"]


def test_a_card_s_laps_are_read_from_the_query_log_beside_its_counts(tmp_path):
    """``card`` lines give each lap's wall and CPU p50 and p99; the counted
    blocks' lines, an empty line and a line cut short by a stopping server are passed over."""
    log = tmp_path / "queries.log"
    lines = ["human 1 1 3", ""]
    for n in range(1, 101):  # laps of n/100, 2n/100 ... ms: p50 at n = 51, p99 at n = 99
        lines.append("card " + " ".join(f"{n * lap / 100:.3f}" for lap in range(1, 9)))
    lines.append("card 0.300 0.200 0.5")
    log.write_text("\n".join(lines) + "\n")
    figures = card_lap_figures(log)["loop_card_laps_ms"]
    assert figures["cards"] == 100
    assert figures["turn_waited"] == {
        "wall_p50": 0.51,
        "wall_p99": 0.99,
        "cpu_p50": 1.02,
        "cpu_p99": 1.98,
    }
    assert figures["statement_after_render"] == {
        "wall_p50": 3.57,
        "wall_p99": 6.93,
        "cpu_p50": 4.08,
        "cpu_p99": 7.92,
    }
    assert query_figures(log)["queries_per_human_move_call"] == 1.0


def test_no_card_laps_without_cards_on_the_loop(tmp_path):
    assert card_lap_figures(tmp_path / "missing.log") == {}
    (tmp_path / "threads.log").write_text("human 4 2 3\n")
    assert card_lap_figures(tmp_path / "threads.log") == {}


def test_laps_write_one_line_of_wall_and_cpu_times_only_when_asked_with_the_log_on(
    tmp_path, settings
):
    settings.COINS_QUERY_LOG, settings.COINS_CARD_LAPS = "", True
    quiet = Laps("card")
    quiet.mark()
    quiet.log()
    assert quiet.marks is None
    settings.COINS_QUERY_LOG, settings.COINS_CARD_LAPS = str(tmp_path / "queries.log"), False
    unasked = Laps("card")  # the log on, for the statements: no laps unless asked
    unasked.mark()
    unasked.log()
    assert unasked.marks is None and not (tmp_path / "queries.log").exists()
    settings.COINS_CARD_LAPS = True
    laps = Laps("card")
    sum(range(200_000))  # some CPU in the first lap
    laps.mark()
    time.sleep(0.02)  # a wait in the second: wall time, next to no CPU
    laps.mark()
    laps.log()  # a line at a time: written through at once
    kind, *numbers = (tmp_path / "queries.log").read_text().split()
    first_wall, first_cpu, second_wall, second_cpu = map(float, numbers)
    assert kind == "card" and first_wall > 0 and first_cpu > 0
    assert second_wall >= 20 and second_cpu < second_wall / 2
