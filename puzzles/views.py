"""``/puzzles/``: one puzzle at a time, answered by a POST that the server checks."""

from __future__ import annotations

from django.http import Http404
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views import View

from games.table.invites import may_view

from .models import Puzzle, PuzzleAttempt
from .presenters import puzzle_context, result_context
from .selectors import next_puzzle, record_of, served_puzzles
from .services import NotInPuzzleHand, puzzle_answer

TEMPLATE = "puzzles/puzzle.html"


def _page(request, puzzle, *, status=200, error="", attempt=None, answer=None, **extra):
    mine = request.GET.get("from") == "mine" or request.POST.get("from") == "mine"
    context = {"record": record_of(request.user), "mine": mine, "error": error, **extra}
    if puzzle is not None:
        context.update(puzzle_context(puzzle))
        if attempt is not None:
            context.update(result_context(puzzle, attempt, answer))
            context["may_replay"] = may_view(request, puzzle.game)
    return TemplateResponse(request, TEMPLATE, context, status=status)


class PuzzlesView(View):
    def get(self, request):
        if not request.user.is_authenticated:
            return TemplateResponse(request, TEMPLATE, {"anonymous": True})
        mine = request.GET.get("from") == "mine"
        return _page(request, next_puzzle(request.user, mine=mine))


class PuzzleView(View):
    def _puzzle(self, request, puzzle_id: int) -> Puzzle:
        if not request.user.is_authenticated:
            raise Http404(_("Log in to solve puzzles."))
        puzzle = served_puzzles(request.user).filter(pk=puzzle_id).select_related("game").first()
        if puzzle is None:
            raise Http404(_("There is no such puzzle."))
        return puzzle

    def get(self, request, puzzle_id: int):
        puzzle = self._puzzle(request, puzzle_id)
        attempt = PuzzleAttempt.objects.filter(puzzle=puzzle, user=request.user).first()
        return _page(request, puzzle, attempt=attempt)

    def post(self, request, puzzle_id: int):
        puzzle = self._puzzle(request, puzzle_id)
        card = request.POST.get("card", "")
        try:
            answer = puzzle_answer(puzzle_id=puzzle.pk, user=request.user, card=card)
        except NotInPuzzleHand as refusal:
            return _page(request, puzzle, status=400, error=str(refusal))
        except Puzzle.DoesNotExist:
            raise Http404(_("There is no such puzzle.")) from None
        puzzle.refresh_from_db(fields=["rating"])
        return _page(
            request, puzzle, attempt=answer.attempt, answer=card, first_answer=answer.first
        )
