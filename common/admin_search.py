"""Admin searches that cost the same at 2,000 and 200,000 people.

Django's admin search turns every field into ``UPPER(col) LIKE '%term%'``: a scan of every
row, and across a join (``user__username``) a scan of every user for every list. Here:

* the term is bounded (``TERM_MAX`` characters, at most ``WORDS_MAX`` words): a pasted page
  of text is not a query;
* a word of three characters or more is searched inside the text, a shorter one at its
  beginning: on PostgreSQL both are served by a trigram index (``pg_trgm``, GIN) on
  ``UPPER(col)``, since a one-letter "contains" would match nearly everyone anyway;
* people are found first, by username, in one indexed query capped at ``PEOPLE_MAX`` (the
  list says so when it is cut), and the list is filtered by their ids: an ``IN`` on a
  foreign key's index, never a join searched row by row.

SQLite has no trigram index; there the same lookups run as plain scans (small databases).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.admin.utils import lookup_spawns_duplicates
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.functions import Upper
from django.utils.text import smart_split, unescape_string_literal
from django.utils.translation import gettext as _

TERM_MAX = 150  # a username's longest
WORDS_MAX = 3
INSIDE_FROM = 3  # characters from which a word is searched inside the text (trigrams)
PEOPLE_MAX = 200


def search_words(term: str) -> list[str]:
    """The words of an admin search, bounded; quotes group words as in Django's admin."""
    words = []
    for bit in smart_split(term.strip()[:TERM_MAX]):
        if bit[:1] in "\"'" and bit[-1:] == bit[:1]:
            bit = unescape_string_literal(bit)
        if bit:
            words.append(bit)
    return words[:WORDS_MAX]


def word_lookup(field: str, word: str) -> Q:
    """One word on one text field: inside it if long enough, else at its beginning."""
    lookup = "icontains" if len(word) >= INSIDE_FROM else "istartswith"
    return Q(**{f"{field}__{lookup}": word})


def words_match(fields, words) -> Q:
    """Every word in at least one of the fields (Django's admin rule)."""
    match = Q()
    for word in words:
        match &= Q.create([word_lookup(field, word) for field in fields], connector=Q.OR)
    return match


def people_matching(
    words: list[str], *, cap: int = PEOPLE_MAX, fields=("username",)
) -> tuple[list[int], bool]:
    """Ids of the people whose username (or other ``fields``) holds every word, the first
    ``cap`` by username, and whether there were more."""
    ids = list(
        get_user_model()
        .objects.filter(words_match(fields, words))
        # by the indexed expression's value, not the username's btree: walking that index
        # to find a rare name would read every user (a plan that flips with the term)
        .order_by(Upper("username"), "pk")
        .values_list("pk", flat=True)[: cap + 1]
    )
    return ids[:cap], len(ids) > cap


class ScaledSearchMixin:
    """For a ``ModelAdmin``: ``people_search`` names the paths to users searched by username
    (``("user",)``, ``("message__user", "reporter")``, ``("",)`` for the users' own list;
    ``people_fields`` may add ``email``); ``search_text`` the text fields of
    the listed rows themselves, searched with trigram-indexed lookups; ``search_more`` may
    add a match of its own (``Q``) for the words."""

    people_search: tuple[str, ...] = ()
    search_text: tuple[str, ...] = ()
    people_max = PEOPLE_MAX
    people_fields = ("username",)
    # True when ``people_match`` filters by a semi-join (``pk__in`` a subquery) instead of
    # the ``people_search`` paths: then they spawn no duplicates, and the list needs no
    # DISTINCT (which sorted every matching row, every column, for each page).
    people_match_semijoin = False

    def get_search_fields(self, request):
        # what the changelist needs to show a search box; the search itself is below
        paths = [f"{path}__username" if path else "username" for path in self.people_search]
        return [*self.search_text, *paths]

    def search_more(self, words: list[str]) -> Q:
        return Q(pk__in=[])

    def people_match(self, people: list[int]) -> Q:
        """The rows of these people (any of the ``people_search`` paths)."""
        lookups = [(f"{path}__in" if path else "pk__in", people) for path in self.people_search]
        return Q.create(lookups, connector=Q.OR)

    def get_search_results(self, request, queryset, search_term):
        words = search_words(search_term)
        if not words:
            return queryset, False
        fields = list(self.search_text)
        match = self.search_more(words)
        if fields:
            match |= words_match(fields, words)
        if self.people_search:
            people, cut = people_matching(words, cap=self.people_max, fields=self.people_fields)
            if cut:
                self.message_user(
                    request,
                    _(
                        "More than %(n)d usernames match “%(term)s”: the rows of the first "
                        "%(n)d by username are listed. Type more of the name."
                    )
                    % {"n": self.people_max, "term": " ".join(words)},
                    messages.WARNING,
                )
            match |= self.people_match(people)
        people_paths = () if self.people_match_semijoin else self.people_search
        paths = [*fields, *(path for path in people_paths if path)]
        duplicates = any(lookup_spawns_duplicates(self.opts, path) for path in paths)
        return queryset.filter(match), duplicates
