"""Public leaderboard pages."""

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from common.paging import page_request

from . import selectors
from .models import Leaderboard

PAGE_SIZE = selectors.PAGE_SIZE


def _page_number(value: str | None) -> int | None:
    """A page number from the URL; anything else (negative, text, huge) is page 1."""
    if value is None or not value.isdigit() or len(value) > 6:
        return None
    return int(value) or None


class LeaderboardListView(TemplateView):
    template_name = "ratings/leaderboard_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["boards"] = boards = selectors.active_boards()
        if not boards:
            context["highest"] = selectors.highest_ratings()
        return context


class LeaderboardDetailView(TemplateView):
    template_name = "ratings/leaderboard_detail.html"

    def get_context_data(self, slug: str, **kwargs):
        context = super().get_context_data(**kwargs)
        board = get_object_or_404(Leaderboard, slug=slug, is_public=True)
        if board.closed_at:
            context.update(self._frozen(board))
        else:
            context.update(self._kept(board))
        user = self.request.user
        for row in context["rows"]:
            row["is_you"] = bool(user.is_authenticated and row["user_id"] == user.pk)
        context["board"] = board
        return context

    def _kept(self, board) -> dict:
        asked = self.request.GET.get("page")
        number = _page_number(asked)
        found = selectors.standings_page(board, **page_request(self.request), page=number)
        page = found.page
        return {
            "rows": found.rows,
            "pager": {
                "ranks": (found.first_rank, found.first_rank + len(found.rows) - 1, found.total),
                "first": "?" if not page.is_first else "",
                "newer": f"?{urlencode({'before': page.before})}" if page.before else "",
                "older": f"?{urlencode({'after': page.after})}" if page.after else "",
                "last": "?page=last" if not page.is_last else "",
                "shown": page.has_other_pages,
            },
            "fell_back": page.fell_back or (asked not in (None, "", "last") and number is None),
        }

    def _frozen(self, board) -> dict:
        """A closed season's final table (stored rows, at most a few thousand)."""
        page = Paginator(
            board.frozen.select_related("rating__user").order_by("rank"), PAGE_SIZE
        ).get_page(self.request.GET.get("page"))
        rows = [
            {
                "rank": f.rank,
                "rating": f.rating,
                "user_id": f.rating.user_id if f.rating else None,
                "username": f.rating.user.get_username() if f.rating and f.rating.user else "",
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
        number = page.number
        return {
            "rows": rows,
            "pager": {
                "ranks": (page.start_index(), page.end_index(), page.paginator.count),
                "first": "?" if number > 1 else "",
                "newer": f"?page={number - 1}" if page.has_previous() else "",
                "older": f"?page={number + 1}" if page.has_next() else "",
                "last": f"?page={page.paginator.num_pages}" if page.has_next() else "",
                "shown": page.has_other_pages(),
            },
            "fell_back": False,
        }
