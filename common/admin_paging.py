"""Admin lists that stay fast with years of rows: counts stop at a cap.

Django's changelist counts every row of the (filtered) list to number its pages; on a table
of millions that ``COUNT(*)`` is the slowest part of the page. ``CappedPaginator`` counts at
most ``CAP`` rows (one indexed scan that stops there): past it the list says it shows the
first ``CAP`` rows (``templates/admin/pagination.html``) and pages up to them, and filters
or the search narrow it down. With
``show_full_result_count = False`` no second, unfiltered count runs either.
"""

from django.core.paginator import Paginator
from django.utils.functional import cached_property

CAP = 2_000  # 40 pages of 50


class CappedPaginator(Paginator):
    @cached_property
    def count(self) -> int:
        return self.object_list.order_by()[:CAP].count()

    @property
    def capped(self) -> bool:
        """Whether the list may hold more rows than were counted (the page says so)."""
        return self.count >= CAP


class CappedListMixin:
    """For a ``ModelAdmin`` over a large table."""

    paginator = CappedPaginator
    show_full_result_count = False
