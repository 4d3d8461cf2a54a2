"""Template context of a puzzle, built from its stored view (the seat's own cards and what
was public at that moment) and, once answered, its analysis."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from games.board.card_names import card_label
from games.board.presenters import card_info, hand_order
from games.engine import CARD_CODES, parse_card

from .models import Puzzle, PuzzleAttempt


def who(seat: int, me: int) -> str:
    """A seat as the puzzle's solver sees it: you, or a neighbour."""
    return (_("you"), _("your left"), _("your right"))[(seat - me) % 3]


def _card(code: str, **extra) -> dict:
    return {**card_info(parse_card(code)), **extra}


def _trick_cards(codes: list[str], leader: int, me: int, winner: int | None = None) -> list:
    return [
        _card(
            code,
            player=who((leader + n) % 3, me),
            is_winner=winner is not None and (leader + n) % 3 == winner,
        )
        for n, code in enumerate(codes)
    ]


def puzzle_context(puzzle: Puzzle) -> dict:
    """What the puzzle shows before it is answered."""
    view, me = puzzle.view, puzzle.seat
    return {
        "puzzle": puzzle,
        "answer_url": reverse("puzzle_answer", args=[puzzle.pk]),
        "hand": [
            _card(code, play_label=_("Play the %(name)s") % {"name": card_label(parse_card(code))})
            for code in _sorted(view["hand"])
        ],
        "trick": _trick_cards(view["trick"], view["leader"], me),
        "earlier": [
            {
                "number": trick["number"],
                "cards": _trick_cards(trick["cards"], trick["leader"], me, trick["winner"]),
                "points": trick["points"],
            }
            for trick in view["tricks"]
        ],
        "scores": [
            {"who": who(seat, me), "score": view["scores"][seat], "is_you": seat == me}
            for seat in (me, (me + 1) % 3, (me + 2) % 3)
        ],
        "target": view["target"],
        "dealer": who(view["dealer"], me),
        "leader": who(view["leader"], me),
        "hand_number": view["hand_number"],
        "trick_number": puzzle.trick_number,
    }


def _sorted(codes: list[str]) -> list[str]:
    return [CARD_CODES[card] for card in hand_order(parse_card(code) for code in codes)]


def result_context(puzzle: Puzzle, attempt: PuzzleAttempt, answer: str | None = None) -> dict:
    """The analysis shown once ``attempt`` (the person's first answer) is recorded."""
    values = puzzle.values
    order = sorted(values, key=lambda code: (-values[code], code))
    return {
        "attempt": attempt,
        "answer": answer or attempt.card,
        "analysis": [
            _card(
                code,
                percent=round(100 * values[code]),
                is_best=code == puzzle.solution,
                is_played=code == puzzle.played,
                is_yours=code == attempt.card,
            )
            for code in order
        ],
        "solution": _card(puzzle.solution),
        "played": _card(puzzle.played),
        "replay_url": reverse("game_replay", args=[puzzle.game_id])
        + f"?hand={puzzle.hand_number}&trick={puzzle.trick_number}",
    }
