"""Keyset ("seek") pagination: a page is the next slice of an index after a cursor.

A page costs the same whatever its depth: no ``OFFSET`` walks past the rows before it and no
``COUNT(*)`` runs over the whole list. The list is ordered by two keys, both descending (a
value, then a unique tie-break); a cursor is the pair of keys of a page's edge row, written in
the URL as ``?after=`` (older/lower rows) or ``?before=`` (newer/higher rows), and
``?page=last`` asks for the end of the list. A cursor that cannot be read gives the first
page, and one past the end gives the last page: bad input is a normal page, never an error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q, QuerySet


@dataclass
class SeekPage:
    """One page of a keyset-paginated list, with the cursors of its neighbours."""

    rows: list
    before: str = ""  # cursor of the page above (newer, higher), if any
    after: str = ""  # cursor of the page below (older, lower), if any
    is_first: bool = True
    is_last: bool = True
    fell_back: bool = False  # the cursor asked for could not be used: a page was chosen

    @property
    def has_other_pages(self) -> bool:
        return not (self.is_first and self.is_last)


@dataclass(frozen=True)
class Keys:
    """How a list is ordered (``value`` then ``tiebreak``, both descending) and how its
    cursors are written."""

    value: str
    tiebreak: str
    dump: Callable[[Any], str]
    load: Callable[[str], Any]

    def cursor(self, row) -> str:
        return f"{self.dump(getattr(row, self.value))}~{getattr(row, self.tiebreak)}"

    def parse(self, cursor: str | None) -> tuple[Any, int] | None:
        """The keys a cursor stands for, or None if it is not one of ours."""
        if not cursor or len(cursor) > 64 or "~" not in cursor:
            return None
        value, _, tiebreak = cursor.rpartition("~")
        try:
            key = int(tiebreak)
            parsed = self.load(value)
        except (TypeError, ValueError, OverflowError):
            return None
        return (parsed, key) if key >= 0 else None

    def below(self, keys) -> Q:
        value, key = keys
        return Q(**{f"{self.value}__lte": value}) & (
            Q(**{f"{self.value}__lt": value}) | Q(**{f"{self.tiebreak}__lt": key})
        )

    def above(self, keys) -> Q:
        value, key = keys
        return Q(**{f"{self.value}__gte": value}) & (
            Q(**{f"{self.value}__gt": value}) | Q(**{f"{self.tiebreak}__gt": key})
        )

    @property
    def descending(self) -> tuple[str, str]:
        return (f"-{self.value}", f"-{self.tiebreak}")

    @property
    def ascending(self) -> tuple[str, str]:
        return (self.value, self.tiebreak)


def seek(
    queryset: QuerySet, keys: Keys, per_page: int, *, after=None, before=None, last=False
) -> SeekPage:
    """The page of ``queryset`` after cursor ``after``, before cursor ``before``, the last
    page (``last``) or else the first one; two indexed queries at most, whatever the page."""
    below, above = keys.parse(after), keys.parse(before)
    fell_back = bool((after and below is None) or (before and above is None))
    if below is not None:
        rows = list(queryset.filter(keys.below(below)).order_by(*keys.descending)[: per_page + 1])
        if rows:
            return _forward(rows, keys, per_page, is_first=False)
        last, fell_back = True, True  # past the end: the last page
    elif above is not None:
        rows = list(queryset.filter(keys.above(above)).order_by(*keys.ascending)[: per_page + 1])
        if rows:
            return _backward(rows, keys, per_page, is_last=False)
        fell_back = True  # before the start: the first page
    if last:
        rows = list(queryset.order_by(*keys.ascending)[: per_page + 1])
        page = _backward(rows, keys, per_page, is_last=True)
    else:
        rows = list(queryset.order_by(*keys.descending)[: per_page + 1])
        page = _forward(rows, keys, per_page, is_first=True)
    page.fell_back = fell_back
    return page


def _forward(rows: list, keys: Keys, per_page: int, *, is_first: bool) -> SeekPage:
    more = len(rows) > per_page
    rows = rows[:per_page]
    return SeekPage(
        rows=rows,
        before="" if is_first else keys.cursor(rows[0]),
        after=keys.cursor(rows[-1]) if more else "",
        is_first=is_first,
        is_last=not more,
    )


def _backward(rows: list, keys: Keys, per_page: int, *, is_last: bool) -> SeekPage:
    more = len(rows) > per_page
    rows = list(reversed(rows[:per_page]))
    return SeekPage(
        rows=rows,
        before=keys.cursor(rows[0]) if more and rows else "",
        after="" if is_last or not rows else keys.cursor(rows[-1]),
        is_first=not more,
        is_last=is_last,
    )


def dump_time(value: datetime) -> str:
    """A timestamp as whole microseconds since the epoch (exact, and short in a URL)."""
    delta = value - datetime(1970, 1, 1, tzinfo=UTC)
    return str((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds)


def load_time(text: str) -> datetime:
    from datetime import timedelta

    micros = int(text)
    if not 0 <= micros < 10**17:
        raise ValueError(text)
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=micros)


def load_float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def page_request(request) -> dict:
    """The paging arguments of a request, as ``seek`` takes them."""
    return {
        "after": request.GET.get("after"),
        "before": request.GET.get("before"),
        "last": request.GET.get("page") == "last",
    }
