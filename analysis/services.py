"""Analysing finished games as durable work: queued when a game ends, claimed by one
runner's analysis lane at a time (``SKIP LOCKED`` and a lease), worked in a low-priority
process, saved once. A worker killed mid-way leaves its lease to run out; another runner then
takes the game again. The analysis itself is the engine's (``games.engine.analysis``)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.kept_rows import row_insert_ignoring
from games.engine import parse_card
from games.engine.analysis import FORMAT, THRESHOLDS
from games.history.records import game_record
from games.models import Game, Seat

from .models import GameAnalysis, SeatAccuracy
from .signals import analysis_done
from .work import Job, work

LEASE = timedelta(minutes=5)  # a claim this old is a dead worker's: taken again
MAX_ATTEMPTS = 5  # a game whose analysis failed this often is left alone (logged)


def queue_analysis(game_id: int) -> None:
    """Queue ``game_id`` (inside the game's aftermath transaction); once only: one
    statement, where a read, a savepoint and an insert were four."""
    row_insert_ignoring(GameAnalysis(game_id=game_id))  # a statement written once


def claim_next(now=None) -> Job | None:
    """Claim the analysis queued longest (or one whose worker's lease ran out)."""
    now = now or timezone.now()
    with transaction.atomic():
        analysis = (
            GameAnalysis.objects.select_for_update(skip_locked=True)
            .filter(attempts__lt=MAX_ATTEMPTS)
            .exclude(status=GameAnalysis.Status.DONE)
            .exclude(status=GameAnalysis.Status.RUNNING, lease_until__gt=now)
            .order_by("queued_at")
            .select_related("game")
            .first()
        )
        if analysis is None:
            return None
        analysis.status = GameAnalysis.Status.RUNNING
        analysis.lease_until = now + LEASE
        analysis.attempts += 1
        analysis.save(update_fields=["status", "lease_until", "attempts"])
        return job_for(analysis)


def job_for(analysis: GameAnalysis) -> Job:
    record = game_record(analysis.game)
    decks = [tuple(parse_card(code) for code in hand["deck"]) for hand in record["hands"]]
    moves = []
    for hand in record["hands"]:
        for trick in hand["tricks"]:
            seat = trick["leader"]
            for code in trick["cards"]:
                moves.append((seat, parse_card(code)))
                seat = (seat + 1) % 3
    return Job(
        analysis_id=analysis.pk,
        attempt=analysis.attempts,
        target=record["target"],
        first_dealer=record["hands"][0]["dealer"],
        decks=decks,
        moves=moves,
        seed=analysis.game.seed,
        iterations=settings.COINS_ANALYSIS_ITERATIONS,
        luck_deals=settings.COINS_ANALYSIS_LUCK_DEALS,
    )


def renew_lease(job: Job, now=None) -> bool:
    """The lane still has ``job`` in hand (its worker paused while the machine was busy, or
    slow): its lease runs ``LEASE`` from now. False if another lane took the game over."""
    now = now or timezone.now()
    renewed = GameAnalysis.objects.filter(
        pk=job.analysis_id, status=GameAnalysis.Status.RUNNING, attempts=job.attempt
    ).update(lease_until=now + LEASE)
    return bool(renewed)


def save(job: Job, result: dict) -> bool:
    """Keep ``result`` if the claim is still this worker's; False if another took over."""
    with transaction.atomic():
        analysis = GameAnalysis.objects.select_for_update().filter(pk=job.analysis_id).first()
        if (
            analysis is None
            or analysis.status != GameAnalysis.Status.RUNNING
            or analysis.attempts != job.attempt
        ):
            return False
        analysis.status = GameAnalysis.Status.DONE
        analysis.finished_at = timezone.now()
        analysis.lease_until = None
        analysis.plays, analysis.accuracy, analysis.luck = (
            result["plays"],
            result["accuracy"],
            result["luck"],
        )
        analysis.cpu_seconds = result.get("cpu_seconds")
        analysis.save()
        _keep_accuracies(analysis)
        analysis_done.send(sender=None, analysis=analysis)
    return True


def _keep_accuracies(analysis: GameAnalysis) -> None:
    game = analysis.game
    people = Seat.objects.filter(game=game, user__isnull=False).values_list("number", "user_id")
    rows = []
    for number, user_id in people:
        labels = [play["label"] for play in analysis.plays if play["seat"] == number]
        rows.append(
            SeatAccuracy(
                analysis=analysis,
                game=game,
                user_id=user_id,
                seat=number,
                accuracy=analysis.accuracy[number] if analysis.accuracy else None,
                inaccuracies=labels.count("inaccuracy"),
                mistakes=labels.count("mistake"),
                blunders=labels.count("blunder"),
                finished_at=game.finished_at or analysis.finished_at,
            )
        )
    SeatAccuracy.objects.filter(game=game).delete()
    SeatAccuracy.objects.bulk_create(rows)


def analyse_now(game: Game) -> GameAnalysis:
    """Queue, claim and work ``game`` in this process (the command, tests)."""
    queue_analysis(game.pk)
    analysis = GameAnalysis.objects.get(game=game)
    GameAnalysis.objects.filter(pk=analysis.pk).update(
        status=GameAnalysis.Status.PENDING, queued_at=timezone.now() - timedelta(days=3650)
    )
    job = claim_next()
    assert job is not None and job.analysis_id == analysis.pk
    save(job, work(job))
    return GameAnalysis.objects.get(pk=analysis.pk)


def document(game: Game) -> dict:
    """The game's coins-analysis/1 document (``status`` only until it is done)."""
    analysis = GameAnalysis.objects.filter(game=game).first()
    status = analysis.status if analysis else GameAnalysis.Status.PENDING
    doc = {"format": FORMAT, "game_id": str(game.pk), "status": status}
    if status == GameAnalysis.Status.DONE:
        doc.update(
            thresholds={label: threshold for label, threshold in THRESHOLDS},
            plays=analysis.plays,
            accuracy=analysis.accuracy,
            luck=analysis.luck,
        )
    return doc
