"""The analysis's own addresses: ``/games/<id>/analysis.json`` (a finished game's
coins-analysis/1 document), the result panel's summary and the replay's "is it done?" poll,
each seen by whoever may see the game's record (a private game by its players and invitees)."""

from django.http import Http404, HttpResponse, JsonResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views import View

from games.table.invites import table_page_game

from .models import GameAnalysis
from .replay import analysis_state, is_failed, summary
from .services import document


def finished_game(request, game_id: int):
    game = table_page_game(request, game_id)
    if not game.is_over or not game.was_dealt:
        raise Http404(_("A game is analysed once it is over."))
    return game


class AnalysisView(View):
    def get(self, request, game_id: int):
        game = finished_game(request, game_id)
        response = JsonResponse(document(game), json_dumps_params={"ensure_ascii": False})
        response["Cache-Control"] = "no-store"  # pending, then done: always ask again
        return response


class SummaryView(View):
    """The result panel's line (htmx): the viewer's accuracy and a link to their mistakes;
    while the analysis runs, a note that asks again a few seconds later."""

    def get(self, request, game_id: int):
        game = finished_game(request, game_id)
        response = TemplateResponse(request, "analysis/summary.html", summary(game, request.user))
        response["Cache-Control"] = "no-store"
        return response


class StatusView(View):
    """The replay's poll (htmx): 204 (nothing to swap) while the analysis runs; once it is
    done (or given up), ``HX-Refresh`` reloads the page, which then shows it."""

    def get(self, request, game_id: int):
        analysis = analysis_state(finished_game(request, game_id))
        response = HttpResponse(status=204)
        if analysis is None or analysis.status == GameAnalysis.Status.DONE or is_failed(analysis):
            response["HX-Refresh"] = "true"
            response.status_code = 200
        response["Cache-Control"] = "no-store"
        return response
