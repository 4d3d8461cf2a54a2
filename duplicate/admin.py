"""Staff see each day of the duplicate with every game played and its result."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from common.admin_search import ScaledSearchMixin

from .event_admin import ExclusionInline
from .models import (
    DuplicateDay,
    DuplicateEntry,
    DuplicateExclusion,
    DuplicateRating,
    DuplicateRatingEvent,
)
from .selectors import day_results


class DuplicateEntryInline(admin.TabularInline):
    model = DuplicateEntry
    fields = ("number", "user", "game", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False


class DayExclusionInline(ExclusionInline):
    fk_name = "day"


@admin.register(DuplicateDay)
class DuplicateDayAdmin(admin.ModelAdmin):
    list_display = ("date", "games_played", "results", "rated_at")
    readonly_fields = ("date", "created_at", "rated_at", "results_table")
    inlines = [DuplicateEntryInline, DayExclusionInline]
    date_hierarchy = "date"

    @admin.display(description=_("games played"))
    def games_played(self, day):
        return day.entries.count()

    @admin.display(description=_("finished results"))
    def results(self, day):
        return sum(results.players for results in day_results(day.date))

    @admin.display(description=_("results"))
    def results_table(self, day):
        lines = []
        for results in day_results(day.date):
            for row in results.rows:
                lines.append(
                    f"#{results.number} {row.place}. {row.player}: {row.points} "
                    f"{'W' if row.won else '-'} {row.matchpoints:g} ({row.percent:.1f}%) "
                    f"game {row.game_id}"
                )
        return "\n".join(lines) or "-"

    def has_add_permission(self, request):
        return False


@admin.register(DuplicateEntry)
class DuplicateEntryAdmin(ScaledSearchMixin, admin.ModelAdmin):
    list_display = ("day", "number", "user", "game")
    list_filter = ("number",)
    people_search = ("user",)
    list_select_related = ("day", "user", "game")
    raw_id_fields = ("user", "game")
    readonly_fields = ("day", "number", "user", "game", "created_at")

    def has_add_permission(self, request):
        return False


class DuplicateRatingEventInline(admin.TabularInline):
    model = DuplicateRatingEvent
    fields = (
        "day",
        "event",
        "number",
        "seat",
        "place",
        "players",
        "percent",
        "mu_after",
        "sigma_after",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(DuplicateRating)
class DuplicateRatingAdmin(ScaledSearchMixin, admin.ModelAdmin):
    list_display = ("user", "display", "mu", "sigma", "results", "last_day")
    people_search = ("user",)
    list_select_related = ("user",)
    ordering = ("-ordinal",)
    readonly_fields = ("user", "mu", "sigma", "ordinal", "results", "last_day")
    inlines = [DuplicateRatingEventInline]

    def has_add_permission(self, request):
        return False


@admin.register(DuplicateExclusion)
class DuplicateExclusionAdmin(ScaledSearchMixin, admin.ModelAdmin):
    """Every exclusion; one with neither a day nor an event keeps the person off the duplicate
    rating's board."""

    list_display = ("user", "day", "event", "reason", "created_at")
    people_search = ("user",)
    list_select_related = ("user", "day", "event")
    autocomplete_fields = ["user"]
    raw_id_fields = ("day", "event")
