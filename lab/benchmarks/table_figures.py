"""The figures of a table benchmark's run, from what its client timed and its servers logged:
latencies, the server's statements per move, the search bots' CPU, and how bunched the
people's cards were when they reached the servers."""

from __future__ import annotations

import bisect
import statistics
from pathlib import Path

from games.realtime.loop_card import LAPS_KIND

TOGETHER_SECONDS = 0.002  # two cards sent this close meet in the server's queue
WINDOW_SECONDS = 10.0  # the run's p50 and p99, window by window


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def query_figures(path: Path) -> dict:
    """Sum the server's query log: each "human" block is one person's move (with the bots'
    answers when they follow at once), "bot" blocks are the table runners' looks at the
    schedule (with the cards they played: bots, clocks) and "push" blocks are boards
    rendered for other sockets. Queries are SQL statements; round trips count the
    statements sent together once."""
    # kind -> [statements, round trips, moves, blocks]
    totals = {kind: [0, 0, 0, 0] for kind in ("human", "bot", "push")}
    if path.exists():
        for line in path.read_text().splitlines():
            kind, *numbers = line.split() or [""]
            if kind not in totals or len(numbers) != 3:
                continue  # a card's laps, or a line cut short when the server stopped
            entry = totals[kind]
            for index, number in enumerate(numbers):
                entry[index] += int(number)
            entry[3] += 1
    human_q, human_trips, human_moves, human_n = totals["human"]
    bot_q, bot_trips, bot_n, runner_looks = totals["bot"]
    push_q, push_trips, _, push_n = totals["push"]
    all_q, all_moves = human_q + bot_q + push_q, human_moves + bot_n
    all_trips = human_trips + bot_trips + push_trips

    def per(amount, count):
        return round(amount / count, 2) if count else None

    return {
        "queries_per_human_move_call": per(human_q, human_n),
        "round_trips_per_human_move_call": per(human_trips, human_n),
        "bot_moves_in_human_call": per(human_moves - human_n, human_n),
        "runner_looks": runner_looks,
        "runner_cards": bot_n,
        "queries_per_runner_card_with_its_looks": per(bot_q, bot_n),
        "queries_per_push": per(push_q, push_n),
        "queries_per_move": per(all_q, all_moves),
        "queries_per_human_move_all_in": per(all_q, human_n),
        "round_trips_per_human_move_all_in": per(all_trips, human_n),
    }


# A person's card on the event loop (``games/realtime/loop_card.py``), lap by lap: its turn
# waited for (the card before it finishing); played on the copy (both bots' answers, the
# statement built); the statement sent and the mover's
# board rendered; then what was left of the statement's round trip (PostgreSQL, its commit,
# the loop getting back to it). Each lap's line gives its wall and the loop's CPU time.
CARD_LAP_NAMES = (
    "turn_waited",
    "played_on_copy",
    "sent_and_rendered",
    "statement_after_render",
)


def card_lap_figures(path: Path) -> dict:
    """The p50 and p99 of each lap of the cards the servers played on their loops, wall and
    CPU (ms): ``card`` lines of the query log. A lap whose wall time is well over its CPU
    time waited (for PostgreSQL, or for the loop's other work)."""
    laps: list[list[float]] = [[] for _ in range(2 * len(CARD_LAP_NAMES))]
    if path.exists():
        for line in path.read_text().splitlines():
            kind, *numbers = line.split() or [""]
            if kind != LAPS_KIND or len(numbers) != len(laps):
                continue  # another kind, or a line cut short when the server stopped
            for values, number in zip(laps, numbers, strict=True):
                values.append(float(number))
    if not laps[0]:
        return {}
    figures = {}
    for index, name in enumerate(CARD_LAP_NAMES):
        wall, cpu = laps[2 * index], laps[2 * index + 1]
        figures[name] = {
            "wall_p50": round(percentile(wall, 0.5), 3),
            "wall_p99": round(percentile(wall, 0.99), 3),
            "cpu_p50": round(percentile(cpu, 0.5), 3),
            "cpu_p99": round(percentile(cpu, 0.99), 3),
        }
    return {"loop_card_laps_ms": {"cards": len(laps[0]), **figures}}


def latency_figures(values: list[float], digits: int = 2) -> dict:
    """p50, p95, p99, max and mean of ``values`` (milliseconds), to ``digits`` places."""
    return {
        "p50": round(percentile(values, 0.50), digits),
        "p95": round(percentile(values, 0.95), digits),
        "p99": round(percentile(values, 0.99), digits),
        "max": round(max(values), digits) if values else None,
        "mean": round(statistics.fmean(values), digits) if values else None,
    }


def spread(values: list[float]) -> dict:
    return {
        "p50": round(percentile(values, 0.50), 2),
        "p95": round(percentile(values, 0.95), 2),
        "max": round(max(values), 2) if values else None,
        "count": len(values),
    }


def think_figures(path: Path) -> dict:
    """CPU per card of each search bot, as the site's worker processes logged it."""
    by_bot: dict[str, list[float]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 3:  # bot, CPU seconds, process
                by_bot.setdefault(parts[0], []).append(float(parts[1]) * 1000)
    return {bot: spread(values) for bot, values in by_bot.items()}


def sent_together(starts: list[float], within: float = TOGETHER_SECONDS) -> float | None:
    """The share of cards sent within ``within`` seconds after another card (of any table).

    Every person thinks exactly ``--think`` seconds, so tables whose cards once queued
    behind each other in a server leave it one after the other and come back together a
    thinking time later: a run's cards bunch as it goes, and the p50 rises with them at
    the same CPU (docs/benchmarks.md, twentieth sitting). Spread at random over a second,
    100 cards would give 0.18 at 2 ms.
    """
    if len(starts) < 2:
        return None
    ordered = sorted(starts)
    close = sum(
        1
        for index, start in enumerate(ordered)
        if index and bisect.bisect_left(ordered, start - within, 0, index) < index
    )
    return round(close / len(ordered), 3)


def percentile_by_window(
    latencies: list[float], taken_at: list[float], fraction: float = 0.5, window=WINDOW_SECONDS
) -> list:
    """The ``fraction`` percentile of ``latencies`` (ms) in each ``window`` seconds since the
    first was taken: when a run's median wandered, and which moments made its p99."""
    if not taken_at:
        return []
    first = min(taken_at)
    windows: dict[int, list[float]] = {}
    for latency, at in zip(latencies, taken_at, strict=True):
        windows.setdefault(int((at - first) // window), []).append(latency)
    return [
        round(percentile(windows[n], fraction), 2) if n in windows else None  # a window of none
        for n in range(max(windows) + 1)
    ]


def latency_by_kind(latencies: list[float], kinds: list[str]) -> dict:
    """The cards' count, p50 and p99 (ms) by kind of card (a game's last, a hand's last,
    any other): which cards make a run's p99 (its games' last cards, until they went into
    the one statement)."""
    by_kind: dict[str, list[float]] = {}
    for latency, kind in zip(latencies, kinds, strict=True):
        by_kind.setdefault(kind, []).append(latency)
    return {
        kind: {
            "cards": len(values),
            "p50": round(percentile(values, 0.5), 2),
            "p99": round(percentile(values, 0.99), 2),
        }
        for kind, values in sorted(by_kind.items())
    }
