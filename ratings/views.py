"""Public leaderboard pages."""

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from . import selectors
from .models import Leaderboard

PAGE_SIZE = 50


class LeaderboardListView(TemplateView):
    template_name = "ratings/leaderboard_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["boards"] = selectors.active_boards()
        return context


class LeaderboardDetailView(TemplateView):
    template_name = "ratings/leaderboard_detail.html"

    def get_context_data(self, slug: str, **kwargs):
        context = super().get_context_data(**kwargs)
        board = get_object_or_404(Leaderboard, slug=slug, is_public=True)
        if board.closed_at:
            page = Paginator(board.frozen.select_related("rating"), PAGE_SIZE).get_page(
                self.request.GET.get("page")
            )
            rows = [
                {
                    "rank": f.rank,
                    "rating": f.rating,
                    "label": f.label,
                    "display": f.display,
                    "games": f.games,
                    "wins": f.wins,
                    "win_rate": f.wins / f.games if f.games else 0.0,
                    "last_played": f.last_played,
                    "provisional": False,
                }
                for f in page
            ]
        else:
            page = Paginator(selectors.standings(board), PAGE_SIZE).get_page(
                self.request.GET.get("page")
            )
            rows = [
                selectors.standing_row(rating, page.start_index() + i)
                for i, rating in enumerate(page)
            ]
        user = self.request.user
        for row in rows:
            row["is_you"] = bool(
                user.is_authenticated and row["rating"] and row["rating"].user_id == user.pk
            )
        context.update(board=board, page=page, rows=rows)
        return context
