"""Games in the admin: filter and search them, read every row of one, stop a stuck one."""

from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from . import flow, services
from .models import Game, Hand, Play, Seat, Trick


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = readonly_fields = ["number", "user", "bot", "score"]


class HandInline(ReadOnlyInline):
    model = Hand
    fields = readonly_fields = ["number", "dealer", "deck", "created_at"]


class PlayInline(ReadOnlyInline):
    model = Play
    fields = readonly_fields = ["sequence", "hand", "trick", "order", "seat", "card", "played_at"]
    ordering = ["sequence"]


class OpponentsFilter(admin.SimpleListFilter):
    title = _("players")
    parameter_name = "players"

    def lookups(self, request, model_admin):
        return [("humans", _("People only")), ("bots", _("With bots"))]

    def queryset(self, request, queryset):
        if self.value() == "humans":
            return queryset.exclude(seats__bot__gt="")
        if self.value() == "bots":
            return queryset.filter(seats__bot__gt="").distinct()
        return queryset


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pk", "status", "target", "moves", "is_public", "created_at", "finished_at"]
    list_filter = ["status", "target", "created_at", OpponentsFilter]
    search_fields = ["seats__user__username"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in Game._meta.fields if f.name != "seed"] + ["tricks"]
    exclude = ["seed"]  # the secret of the shuffles stays out of every page
    inlines = [SeatInline, HandInline, PlayInline]
    actions = ["mark_abandoned"]

    @admin.display(description=_("tricks"))
    def tricks(self, game: Game):
        """Every trick of the game, hand by hand (tricks belong to hands, so no inline)."""
        tricks = (
            Trick.objects.filter(hand__game=game)
            .select_related("hand")
            .prefetch_related("plays")
            .order_by("hand__number", "number")
        )
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    trick.hand.number,
                    trick.number,
                    trick.leader,
                    " ".join(p.card for p in sorted(trick.plays.all(), key=lambda p: p.order)),
                    "" if trick.winner is None else trick.winner,
                    "" if trick.points is None else trick.points,
                )
                for trick in tricks
            ),
        )
        return format_html(
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>"
            "{}</table>",
            _("hand"),
            _("trick"),
            _("leader"),
            _("cards"),
            _("winner"),
            _("points"),
            rows,
        )

    def get_search_results(self, request, queryset, search_term):
        queryset, _duplicates = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False

    @admin.action(description=_("Mark as abandoned (stuck games) and rate them"))
    def mark_abandoned(self, request, queryset):
        done = 0
        for game in queryset:
            try:
                flow.abandon(game_id=game.pk)
            except services.GameError as error:
                self.message_user(request, f"Game {game.pk}: {error}", messages.WARNING)
            else:
                done += 1
                self.log_change(request, game, "Marked abandoned.")
        self.message_user(request, _("%(n)d game(s) marked abandoned.") % {"n": done})


from . import admin_chat  # noqa: E402, F401  (chat's admin pages)
