"""What the replay of a finished game shows of its analysis: each card's label with the better
card and the win chance before and after it, a graph of each seat's win chance, accuracy and
luck per hand, and the way to the next mistake. Only for games that are over: the replay then
shows every hand, so the analysis (made from each seat's own view) reveals nothing more."""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean

from django.urls import reverse
from django.utils.translation import gettext_lazy

from games.board.presenters import card_info
from games.engine import parse_card
from games.engine.analysis import card_accuracy
from games.models import Game

from .graph import chance_graph
from .models import GameAnalysis
from .services import MAX_ATTEMPTS

LABELS = {
    "good": gettext_lazy("good"),
    "inaccuracy": gettext_lazy("inaccuracy"),
    "mistake": gettext_lazy("mistake"),
    "blunder": gettext_lazy("blunder"),
}
SYMBOLS = {"good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
SERIOUS = ("mistake", "blunder")
TEMPLATES = {
    "panel": "analysis/replay_panel.html",
    "card": "analysis/card_note.html",
    "cell": "analysis/sheet_note.html",
}


def percent(chance: float) -> int:
    return round(100 * chance)


def analysis_state(game: Game) -> GameAnalysis | None:
    """The analysis the pages may show: of a game that is over (None otherwise)."""
    if not (game.is_over and game.was_dealt):
        return None
    return GameAnalysis.objects.filter(game=game).first()


def is_failed(analysis: GameAnalysis) -> bool:
    return analysis.status == GameAnalysis.Status.PENDING and analysis.attempts >= MAX_ATTEMPTS


def replay_notes(
    game: Game, *, viewer_seat: int | None, names: list[str], hand, trick, url
) -> dict:
    """The replay's analysis at ``hand``/``trick`` (the current trick; None before any)."""
    analysis = analysis_state(game)
    if analysis is None:
        return {}
    panel = {"templates": TEMPLATES, "done": analysis.status == GameAnalysis.Status.DONE}
    if not panel["done"]:
        panel["failed"] = is_failed(analysis)
        panel["status_url"] = reverse("analysis_status", args=[game.pk])
        return {"analysis": panel}
    plays = analysis.plays
    here = (hand, trick)
    serious = [
        p
        for p in plays
        if p["label"] in SERIOUS and (viewer_seat is None or p["seat"] == viewer_seat)
    ]
    ahead = next((p for p in serious if (p["hand"], p["trick"]) > here), None)
    panel.update(
        accuracy=[
            {"name": names[seat], "value": value, "is_you": seat == viewer_seat}
            for seat, value in enumerate(analysis.accuracy)
        ],
        graph=chance_graph(plays, names, here),
        next_mistake=url(ahead["hand"], ahead["trick"]) if ahead else "",
        mistakes_of_you=viewer_seat is not None,
        mistake_count=len(serious),
    )
    return {
        "analysis": panel,
        "card_notes": {
            i: card_note(p)
            for i, p in enumerate(p for p in plays if (p["hand"], p["trick"]) == here)
        },
        "sheet_notes": sheet_notes(plays, analysis.luck),
    }


def card_note(play: dict) -> dict:
    label = play["label"]
    best, card = play["best"], play["card"]
    choice = len(play["values"]) > 1
    return {
        "label": label,
        "label_text": str(LABELS[label]),
        "symbol": SYMBOLS[label],
        "choice": choice,
        "better": card_info(parse_card(best)) if label != "good" and best != card else None,
        "before": percent(play["values"][best]),
        "after": percent(play["values"][card]),
    }


def sheet_notes(plays: list[dict], luck: list[dict]) -> dict[int, list[dict]]:
    """Per hand, each seat's accuracy over its cards that were a choice, and its luck."""
    losses: dict[int, list[list[float]]] = defaultdict(lambda: [[], [], []])
    for play in plays:
        if len(play["values"]) > 1:
            losses[play["hand"]][play["seat"]].append(play["loss"])
    luck_of = {row["hand"]: row["seats"] for row in luck}
    notes = {}
    for number in sorted(set(losses) | set(luck_of)):
        notes[number] = [
            {
                "accuracy": round(fmean(card_accuracy(x) for x in losses[number][seat]))
                if losses[number][seat]
                else None,
                "luck": percent(luck_of[number][seat]) if number in luck_of else None,
            }
            for seat in range(3)
        ]
    return notes


def summary(game: Game, user) -> dict:
    """The result panel's line: the viewer's accuracy and mistakes (or that it is pending)."""
    analysis = analysis_state(game)
    if analysis is None:
        return {"analysis": None}
    context = {"analysis": analysis, "game": game, "failed": is_failed(analysis)}
    if analysis.status != GameAnalysis.Status.DONE:
        return context
    seat = None
    if user.is_authenticated:
        seat = game.seats.filter(user=user).values_list("number", flat=True).first()
    context["seat"] = seat
    if seat is not None:
        labels = [p["label"] for p in analysis.plays if p["seat"] == seat]
        first = next(
            (p for p in analysis.plays if p["seat"] == seat and p["label"] in SERIOUS), None
        )
        context.update(
            accuracy=analysis.accuracy[seat],
            mistakes=labels.count("mistake"),
            blunders=labels.count("blunder"),
            inaccuracies=labels.count("inaccuracy"),
        )
        if first:
            context["first_mistake_url"] = (
                reverse("game_replay", args=[game.pk])
                + f"?hand={first['hand']}&trick={first['trick']}"
            )
    context["replay_url"] = reverse("game_replay", args=[game.pk])
    return context
