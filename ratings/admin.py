"""Staff manage leaderboards here; every action is written to the admin log."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.admin import UserAdmin as AccountsUserAdmin
from common.admin_paging import CappedListMixin
from common.admin_search import ScaledSearchMixin
from games.engine.bots import BOT_NAMES
from games.models import PlayerStats

from . import services
from .models import (
    FrozenStanding,
    Leaderboard,
    LeaderboardExclusion,
    PlayerRating,
    RatingEvent,
    RatingsRecompute,
)


class ExclusionInline(admin.TabularInline):
    model = LeaderboardExclusion
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Leaderboard)
class LeaderboardAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "slug",
        "season_start",
        "season_end",
        "target",
        "opponents",
        "listed",
        "is_active",
        "is_public",
        "closed_at",
    ]
    list_filter = ["is_active", "is_public", "opponents", "listed"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ExclusionInline]
    actions = ["recompute_standings", "close_season", "archive"]

    @admin.action(description=_("Recompute ratings and standings from the match history"))
    def recompute_standings(self, request, queryset):
        RatingsRecompute.objects.create(requested_by=request.user)
        for board in queryset:
            self.log_change(request, board, "Asked for ratings to be recomputed from history.")
        self.message_user(
            request,
            _("Recompute queued: a table runner rebuilds every rating from history shortly."),
        )

    @admin.action(description=_("Close the season (freeze the final standings)"))
    def close_season(self, request, queryset):
        for board in queryset:
            count = services.season_close(board=board)
            self.log_change(request, board, f"Closed the season: froze {count} standings.")
        self.message_user(request, _("Season closed."), messages.SUCCESS)

    @admin.action(description=_("Archive (no longer active)"))
    def archive(self, request, queryset):
        for board in queryset:
            board.is_active = False
            board.save(update_fields=["is_active"])
            self.log_change(request, board, "Archived.")


@admin.register(PlayerRating)
class PlayerRatingAdmin(ScaledSearchMixin, CappedListMixin, admin.ModelAdmin):
    list_display = ["label", "display", "mu", "sigma", "games", "wins", "updated_at"]
    people_search = ("user",)
    list_select_related = ["user"]

    def search_more(self, words):
        """Engine bots by name (a handful: matched here, then one ``IN`` on the index)."""
        bots = [name for name in BOT_NAMES if all(w.lower() in name.lower() for w in words)]
        return Q(bot__in=bots)
    list_per_page = 50
    readonly_fields = ["user", "bot", "mu", "sigma", "games", "wins"]


@admin.register(RatingEvent)
class RatingEventAdmin(ScaledSearchMixin, CappedListMixin, admin.ModelAdmin):
    list_display = ["game", "rating", "seat", "rank", "score", "mu_before", "mu_after"]
    list_select_related = ["rating__user", "game"]
    list_per_page = 50
    people_search = ("rating__user",)
    readonly_fields = [f.name for f in RatingEvent._meta.fields]
    raw_id_fields = ["game", "rating"]


@admin.register(FrozenStanding)
class FrozenStandingAdmin(CappedListMixin, admin.ModelAdmin):
    list_display = ["leaderboard", "rank", "label", "display", "games", "wins"]
    list_filter = ["leaderboard"]
    readonly_fields = [f.name for f in FrozenStanding._meta.fields]


class RatingInline(admin.StackedInline):
    model = PlayerRating
    fields = ["mu", "sigma", "games", "wins"]
    readonly_fields = fields
    can_delete = False
    max_num = 0


User = get_user_model()


class UserWithRatingAdmin(AccountsUserAdmin):
    """The user admin with the profile, the rating and a link to the games of each user (a
    filtered games list: a heavy player has thousands, too many for an inline)."""

    inlines = (*AccountsUserAdmin.inlines, RatingInline)
    readonly_fields = (*AccountsUserAdmin.readonly_fields, "games")

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        return (*fieldsets, (_("Games"), {"fields": ("games",)}))

    def get_inlines(self, request, obj):
        inlines = super().get_inlines(request, obj)
        if obj is None:  # a new user has no rating and no games yet
            return [i for i in inlines if i is not RatingInline]
        return inlines

    @admin.display(description=_("games"))
    def games(self, user):
        stats = PlayerStats.objects.filter(user=user).first()
        ended = stats.finished + stats.abandoned if stats else 0
        url = reverse("admin:games_game_changelist") + f"?player={user.pk}"
        return format_html(
            '<a href="{}">{}</a>',
            url,
            ngettext("%(n)d game over: list them", "%(n)d games over: list them", ended)
            % {"n": ended},
        )


admin.site.unregister(User)
admin.site.register(User, UserWithRatingAdmin)


@admin.register(RatingsRecompute)
class RatingsRecomputeAdmin(admin.ModelAdmin):
    """Recompute requests and how they went (a table runner serves them, chunk by chunk:
    reload the page to follow one)."""

    list_display = ["requested_at", "requested_by", "progress", "speed", "finished_at", "games"]
    readonly_fields = [
        "requested_by",
        "requested_at",
        "started_at",
        "cutoff",
        "progress",
        "speed",
        "finished_at",
        "games",
    ]
    exclude = ["games_done", "games_total", "progress_at"]

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("progress"))
    def progress(self, recompute: RatingsRecompute) -> str:
        if recompute.started_at is None:
            return _("waiting for a table runner")
        total = recompute.games_total
        if not total:
            return f"{recompute.games_done}"
        return _("%(done)d of %(total)d games (%(percent)d%%)") % {
            "done": recompute.games_done,
            "total": total,
            "percent": 100 * recompute.games_done // total,
        }

    @admin.display(description=_("games per second"))
    def speed(self, recompute: RatingsRecompute) -> str:
        rate = recompute.rate
        return "\N{EN DASH}" if rate is None else f"{rate:,.0f}"
