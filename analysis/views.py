"""``/games/<id>/analysis.json``: a finished game's coins-analysis/1 document, seen by whoever
may see its record (a private game by its players and invitees only)."""

from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.views import View

from games.table.invites import table_page_game

from .services import document


class AnalysisView(View):
    def get(self, request, game_id: int):
        game = table_page_game(request, game_id)
        if not game.is_over or not game.was_dealt:
            raise Http404(_("A game is analysed once it is over."))
        response = JsonResponse(document(game), json_dumps_params={"ensure_ascii": False})
        response["Cache-Control"] = "no-store"  # pending, then done: always ask again
        return response
