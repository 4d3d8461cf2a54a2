"""Play a Swiss or an arena with scripted people through real sockets against one Daphne
(with its table runner and the tournaments' lane) and report table move latency, waits,
games and whether the standings came out right. The last line is a JSON object.

Needs PostgreSQL (DATABASE_URL): the server and this command share the database.
"""

import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from lab.benchmarks.tournament_play import benchmark


class Command(BaseCommand):
    help = "Play a tournament with N scripted people and report move latency under play."

    def add_arguments(self, parser):
        parser.add_argument("--kind", choices=["swiss", "arena"], default="swiss")
        parser.add_argument("--people", type=int, default=30)
        parser.add_argument("--rounds", type=int, default=3, help="Swiss: rounds")
        parser.add_argument("--minutes", type=float, default=60.0, help="arena: its length")
        parser.add_argument("--think", type=float, default=1.0, help="seconds per card")
        parser.add_argument(
            "--clock", type=int, default=30, help="seconds a card (0: no clock), as staff set"
        )
        parser.add_argument("--target", type=int, default=10, help="points a game is played to")
        parser.add_argument(
            "--bot-pause",
            type=float,
            default=0.8,
            help="seconds the bots filling free seats wait (the site's default: 0.8)",
        )
        parser.add_argument(
            "--join-seconds",
            type=float,
            default=15.0,
            help="people join at random moments within this many seconds before the start",
        )
        parser.add_argument(
            "--time-limit", type=float, help="seconds before the people give up waiting"
        )

    def handle(self, *args, kind, people, rounds, minutes, think, clock, target, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Set DATABASE_URL to a PostgreSQL database: the server shares it.")
        if "tournaments.lane.pair_forever" not in settings.COINS_RUNNER_LANES:
            raise CommandError("The runner's lanes (COINS_RUNNER_LANES) must pair tournaments.")
        if people < 2 or rounds < 1 or minutes <= 0 or think < 0 or target < 1:
            raise CommandError("--people (2+), --rounds, --minutes and --target must be positive.")
        figures = benchmark(
            kind=kind,
            people=people,
            rounds=rounds,
            minutes=minutes,
            think=think,
            clock=clock or None,
            target=target,
            bot_pause=options["bot_pause"],
            time_limit=options["time_limit"],
            join_spread=options["join_seconds"],
        )
        self.stdout.write(summary(figures))
        self.stdout.write(json.dumps(figures))


def summary(f: dict) -> str:
    """The figures in a few lines for people."""
    lat, wait, table, check = f["latency_ms"], f["turn_wait_ms"], f["table_wait_ms"], f["check"]
    shape = f"{f['rounds']} rounds" if f["kind"] == "swiss" else f"{f['minutes']} minutes"
    lines = [
        f"{f['kind']} of {f['people']} people ({shape}, games to {f['target']}, clock "
        f"{f['clock']} s, think {f['think_seconds']} s) in {f['seconds']} s: "
        f"{check['games']} games, {f['human_moves']} cards played by people "
        f"({f['human_moves_per_second']}/s)",
        f"move-to-update latency: p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms, "
        f"max {lat['max']} ms",
        "by sixth of the run (p50/p99 ms): "
        + ", ".join(f"{w['p50']}/{w['p99']}" for w in f["latency_by_window_ms"]),
        f"a person's wait for their next turn: p50 {wait['p50']} ms, p95 {wait['p95']} ms; "
        f"for their next table: p50 {table['p50']} ms, p95 {table['p95']} ms, "
        f"max {table['max']} ms",
        f"errors {f['errors']} {f['error_kinds'] or ''}, stalled tables "
        f"{len(f['stalled_tables'])}, tables reopened {f['reopened_tables']}, live parts pushed to "
        f"the pages {f['page_frames']}, page polls "
        f"{f['polls']} (found a table first: {f['polls_found_table']}), people who saw the end "
        f"{f['people_done']}/{f['people']}",
        f"tournament {check['status']}; standings consistent: {check['consistent']} (games "
        f"unscored {check['games_unscored']}, not over {check['games_not_over']}, entries not "
        f"matching their games {len(check['entries_not_matching_games'])}"
        + (
            f", rounds complete {check['rounds_complete']}/{check['rounds']})"
            if "rounds" in check
            else ")"
        ),
        f"server CPU per person's card {f['server_cpu_ms_per_human_move']} ms; load (1 min) "
        f"{f['load_1min']['min']}..{f['load_1min']['max']} on {f['cores']} cores",
    ]
    return "\n".join(lines)
