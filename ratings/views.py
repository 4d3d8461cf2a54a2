"""Public leaderboard pages."""

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

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
        query = self.request.GET
        asked = query.get("page")
        if asked == "last":
            wanted = "last"
        elif asked not in (None, ""):
            wanted = _page_number(asked) or "?"  # not a page: the first, with a notice
        else:  # cursors of older links ("?after="): the first page, with a notice
            wanted = "?" if ("after" in query or "before" in query) else None
        page = selectors.standings_page(board, wanted)
        number = page.number
        return {
            "rows": page.rows,
            "pager": {
                "ranks": (page.first_rank, page.first_rank + len(page.rows) - 1, page.total),
                "first": "?" if not page.is_first else "",
                "newer": f"?page={number - 1}" if not page.is_first else "",
                "older": f"?page={number + 1}" if not page.is_last else "",
                "last": "?page=last" if not page.is_last else "",
                "shown": page.pages > 1,
            },
            "fell_back": page.fell_back,
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
