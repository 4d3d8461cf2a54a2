"""``/duplicate/``: today's games to play, any day's results (page and JSON), and the duplicate
rating's board."""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.views import View

from games.table.errors import GameError

from . import days
from .event_selectors import current_events
from .presenters import day_context, day_document
from .selectors import day_results, rating_board, rating_of
from .services import duplicate_play


class DayView(View):
    """Today's games (play or go back to yours) and a day's table of results."""

    def get(self, request, day: date | None = None):
        today = days.today()
        if day is None or day > today:
            day = today
        context = day_context(day, request.user, today=today)
        context["yesterday_day"] = today - timedelta(days=1)
        context["my_rating"] = rating_of(request.user)
        context["events"] = current_events()
        return TemplateResponse(request, "duplicate/day.html", context)


class PlayView(LoginRequiredMixin, View):
    """Start your game of a number today, or go back to it."""

    def post(self, request):
        try:
            number = int(request.POST.get("number", ""))
        except ValueError:
            number = 0
        try:
            game = duplicate_play(user=request.user, number=number, day=days.today())
        except GameError as error:
            messages.error(request, str(error))
            return redirect("duplicate")
        return redirect(game)


class DayJsonView(View):
    """A day's finished results with their matchpoints (a day to come has none yet)."""

    def get(self, request, day: date):
        games = day_results(day) if day <= days.today() else []
        return JsonResponse(day_document(day, games))


class RatingsView(View):
    """The duplicate rating's board: everyone rated, best first, a page at a time."""

    per_page = 50

    def get(self, request):
        page = Paginator(rating_board(), self.per_page).get_page(request.GET.get("page"))
        viewer_id = request.user.pk if request.user.is_authenticated else None
        rows = [
            {
                "rank": page.start_index() + i,
                "rating": rating,
                "is_you": rating.user_id == viewer_id,
            }
            for i, rating in enumerate(page)
        ]
        return TemplateResponse(
            request,
            "duplicate/ratings.html",
            {"page": page, "rows": rows, "mine": rating_of(request.user)},
        )
