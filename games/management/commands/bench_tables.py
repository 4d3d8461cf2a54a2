"""Benchmark real-time play: N tables through real WebSockets against a Daphne process.

Needs PostgreSQL (DATABASE_URL): the server and this command share the database. The last
line of output is a JSON object with the figures.
"""

import json
import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from games.engine.bots import LEVELS
from games.table.options import QUICK_PLAY_BOT
from lab.benchmarks.baseline import FIGURES, compare
from lab.benchmarks.scaling import HISTORY, scale_pairs
from lab.benchmarks.tables import benchmark


class Command(BaseCommand):
    help = "Drive N tables (one scripted person, two bots each) and report move latency."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=100)
        parser.add_argument(
            "--mode",
            choices=["realistic", "saturation"],
            default="realistic",
            help="realistic: each person thinks --think seconds; saturation: plays at once",
        )
        parser.add_argument("--think", type=float, default=1.0, help="seconds (realistic mode)")
        parser.add_argument("--seconds", type=float, default=30.0, help="how long to run")
        parser.add_argument(
            "--ramp",
            type=float,
            default=0.0,
            help="seconds over which the tables sit down, not counted: the figures are then "
            "of a steady state (without one, all tables' first games end together, in waves)",
        )
        parser.add_argument(
            "--think-spread",
            type=float,
            default=0.0,
            help="0 to 1: each think drawn evenly from think * (1 - S) to think * (1 + S); "
            "with 0 (as the issue's figures) people keep in step and their cards bunch",
        )
        parser.add_argument("--url", help="use a running server (ws://host:port) instead")
        parser.add_argument(
            "--servers", type=int, default=1, help="Daphne processes (each with its runner)"
        )
        parser.add_argument(
            "--bot-pause",
            type=float,
            default=0.0,
            help="seconds bots wait: 0 answers in the person's move; above, the runners play "
            "each bot's card when it is due (the site's default is 0.8)",
        )
        parser.add_argument(
            "--bot",
            choices=[level.bot for level in LEVELS],
            default=QUICK_PLAY_BOT,
            help="the bots at every table, by level's bot (expert-v4 is hard: searches run "
            "in the site's worker processes); reports people's wait for their next turn",
        )
        parser.add_argument(
            "--baseline",
            metavar="REV",
            help="also run commit REV (unpacked into a temporary directory, on a database of "
            "its own) in alternation with this one, and print the ratios of the medians",
        )
        parser.add_argument(
            "--rounds", type=int, default=2, help="runs of each commit with --baseline"
        )
        parser.add_argument(
            "--laps",
            action="store_true",
            help="also log where each card's time goes on the servers' loops (a cost of its "
            "own: a thread CPU clock read per lap), printed as loop_card_laps_ms",
        )
        parser.add_argument(
            "--quick-play",
            choices=["page", "direct"],
            default="page",
            help="how each person starts a game: 'page' posts the page's Play now form to "
            "their server, as the site does; 'direct' writes the game from the benchmark's "
            "process (the older commits' client: --baseline runs ours so too)",
        )
        parser.add_argument(
            "--pairs",
            type=int,
            metavar="N",
            help="run N pairs: twice --tables on two servers, then --tables on one, each run "
            "on a database made afresh; print the ratios of their p99",
        )
        parser.add_argument(
            "--history",
            type=int,
            metavar="GAMES",
            help="with --pairs: finished games seeded into each fresh database before its run "
            f"(default {HISTORY}; 0 for none), so that PostgreSQL plans as for a site played on",
        )
        parser.add_argument(
            "--cpus-per-server",
            type=int,
            metavar="K",
            help="with --pairs: each side on K CPUs per server (the one server's run on K, "
            "the two servers' on 2K), the benchmark, PostgreSQL and Redis kept to them for "
            "the run: a machine the size of its servers (Linux; the services must be ours "
            "to pin)",
        )

    def handle(
        self,
        *args,
        tables,
        mode,
        think,
        seconds,
        ramp,
        url,
        servers,
        bot_pause,
        bot,
        think_spread,
        laps,
        **options,
    ):
        if options["baseline"] and ramp:
            raise CommandError("--ramp is not for --baseline: older commits do not know it.")
        if not 0 <= think_spread <= 1:
            raise CommandError("--think-spread is a share of the thinking time, from 0 to 1.")
        if laps and (options["pairs"] is not None or options["baseline"] or url):
            raise CommandError("--laps is for a run of this commit's own servers.")
        if options["history"] is not None and options["pairs"] is None:
            raise CommandError("--history is for --pairs (a database made afresh per run).")
        if options["cpus_per_server"] is not None and options["pairs"] is None:
            raise CommandError("--cpus-per-server is for --pairs.")
        if options["pairs"] is not None:
            if options["baseline"] or url or servers != 1:
                raise CommandError(
                    "--pairs runs its own servers: no --baseline, --url or --servers."
                )
            history = HISTORY if options["history"] is None else options["history"]
            return self.scaling(
                tables,
                options["pairs"],
                seconds,
                ramp,
                think_spread,
                history,
                options["cpus_per_server"],
            )
        if options["baseline"]:
            return self.side_by_side(
                options["baseline"], options["rounds"], tables, mode, seconds, think_spread
            )
        if connection.vendor != "postgresql":
            raise CommandError("Set DATABASE_URL to a PostgreSQL database: the server shares it.")
        if tables < 1 or seconds <= 0 or servers < 1 or bot_pause < 0 or ramp < 0:
            raise CommandError(
                "--tables, --seconds and --servers must be positive, --ramp and --bot-pause "
                "not negative."
            )
        if servers > 1 and "Redis" not in settings.CHANNEL_LAYERS["default"]["BACKEND"]:
            raise CommandError("Several servers share their tables' updates through REDIS_URL.")
        figures = benchmark(
            tables=tables,
            think=think if mode == "realistic" else 0.0,
            seconds=seconds,
            url=url,
            servers=servers,
            bot_pause=bot_pause,
            bot=bot,
            ramp=ramp,
            think_spread=think_spread,
            laps=laps,
            games_by_page=options["quick_play"] == "page",
        )
        lat = figures["latency_ms"]
        self.stdout.write(
            f"{figures['tables']} tables on {figures['servers']} server(s), bot pause "
            f"{figures['bot_pause_seconds']} s, {figures['mode']}, {figures['seconds']} s"
            + (f" after a {ramp:g} s ramp" if ramp else "")
            + ": "
            f"{figures['human_moves']} human moves ({figures['human_moves_per_second']}/s), "
            f"{figures['all_moves']} moves in all ({figures['moves_per_second']}/s)\n"
            f"move-to-update latency: p50 {lat['p50']} ms, p95 {lat['p95']} ms, "
            f"p99 {lat['p99']} ms, max {lat['max']} ms; p50 by 10 s "
            f"{figures['latency_p50_ms_by_10s']}, cards sent within 2 ms of another "
            f"{figures['cards_sent_together']}\n"
            f"SQL statements per human move, with the bots' answers and every push: "
            f"{figures.get('queries_per_human_move_all_in')} in "
            f"{figures.get('round_trips_per_human_move_all_in')} round trips "
            f"({figures.get('queries_per_move')} statements per move of any seat); "
            f"errors {figures['errors']}, stalled tables {len(figures['stalled_tables'])}"
        )
        wait = figures["turn_wait_ms"]
        self.stdout.write(
            f"bots {figures['bot']}: a person's wait for their next turn p50 {wait['p50']} ms, "
            f"p95 {wait['p95']} ms, max {wait['max']} ms ({wait['count']} turns)"
        )
        for name, cpu in figures["bot_think_cpu_ms"].items():
            self.stdout.write(
                f"{name} CPU per card in the site's workers: p50 {cpu['p50']} ms, "
                f"p95 {cpu['p95']} ms, max {cpu['max']} ms ({cpu['count']} cards)"
            )
        self.stdout.write(json.dumps(figures))

    def scaling(
        self,
        tables: int,
        pairs: int,
        seconds: float,
        ramp: float,
        think_spread: float,
        history: int,
        cpus_per_server: int | None,
    ) -> None:
        """Twice the tables on two servers against the tables on one, in pairs."""
        if "DATABASE_URL" not in os.environ or "REDIS_URL" not in os.environ:
            raise CommandError("Set DATABASE_URL and REDIS_URL: two servers share both.")
        try:
            result = scale_pairs(
                tables=tables,
                pairs=pairs,
                seconds=seconds,
                ramp=ramp,
                think_spread=think_spread,
                write=self.stdout.write,
                history=history,
                cpus_per_server=cpus_per_server,
            )
        except (ValueError, RuntimeError) as error:
            raise CommandError(str(error)) from error
        medians = result["p99_medians"]
        self.stdout.write(
            f"p99 of {2 * tables} tables on two servers / {tables} on one: pairs "
            f"{result['p99_ratios']}, median {result['median_ratio']}x; medians "
            f"{medians['two']} / {medians['one']} ms = {result['ratio_of_medians']}x"
        )
        self.stdout.write(json.dumps(result))

    def side_by_side(
        self, rev: str, rounds: int, tables: int, mode: str, seconds: float, think_spread: float
    ) -> None:
        """The arguments every commit's ``bench_tables`` knows: one Daphne, bot pause 0 (and
        a think spread, which ``baseline`` gives a commit that does not know it)."""
        if "DATABASE_URL" not in os.environ:
            raise CommandError("Set DATABASE_URL to a PostgreSQL database: the servers share it.")
        args = ["--tables", str(tables), "--mode", mode, "--seconds", str(seconds)]
        try:
            result = compare(
                rev=rev, rounds=rounds, args=args, write=self.stdout.write, spread=think_spread
            )
        except (ValueError, RuntimeError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"medians, this commit against {result['baseline'][:10]}:")
        for name in FIGURES:
            ours, theirs = result["medians"]["ours"][name], result["medians"]["theirs"][name]
            ratio = result["ratios"].get(name)
            self.stdout.write(
                f"  {name}: {ours} / {theirs}" + (f" = {ratio}x" if ratio is not None else "")
            )
        self.stdout.write(json.dumps(result))
