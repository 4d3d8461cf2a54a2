"""Staff create arenas and Swiss events, see their results, cancel them, remove players and
exclude people (with a reason the player is shown)."""

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from common.admin_search import ScaledSearchMixin

from .models import Entry, Tournament, TournamentExclusion, TournamentGame
from .scoring import SeatResult, places
from .selectors import STANDINGS_ORDER, standings
from .services import TournamentError, entry_remove, exclusion_add, tournament_cancel

PODIUM = 3


def _count(rows) -> Coalesce:
    """The number of ``rows`` of each listed tournament, as a subquery."""
    counted = rows.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    return Coalesce(Subquery(counted.annotate(n=Count("pk")).values("n")), 0)


class EntryInline(admin.TabularInline):
    """Every entry (the removed ones too, with their reason), in the standings' order."""

    model = Entry
    fields = (
        "user",
        "points",
        "games",
        "wins",
        "game_points",
        "byes",
        "streak",
        "withdrawn",
        "removed",
        "reason",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user").order_by(*STANDINGS_ORDER)


class ExclusionInline(admin.TabularInline):
    """As on leaderboards: staff keep a person out, with a reason (shown to them). Saving
    goes through ``exclusion_add``, which also removes an entry they have."""

    model = TournamentExclusion
    fields = ("user", "reason", "created_at")
    readonly_fields = ("created_at",)
    extra = 0
    autocomplete_fields = ["user"]


class ReasonForm(admin.helpers.ActionForm):
    reason = forms.CharField(label=_("Reason"), required=False, max_length=200)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "status", "starts_at", "players", "podium", "games")
    list_filter = ("kind", "status")
    search_fields = ("name",)
    readonly_fields = (
        "status",
        "current_round",
        "cancel_reason",
        "created_at",
        "results",
        "games",
    )
    inlines = [EntryInline, ExclusionInline]
    action_form = ReasonForm
    actions = ["cancel"]

    def save_formset(self, request, form, formset, change):
        if formset.model is not TournamentExclusion:
            return super().save_formset(request, form, formset, change)
        for exclusion in formset.save(commit=False):
            if exclusion.pk is not None:
                exclusion.save()  # a row edited: its person may have changed
            exclusion_add(
                tournament_id=form.instance.pk, user=exclusion.user, reason=exclusion.reason
            )
        for lifted in formset.deleted_objects:
            lifted.delete()  # they may join again once their entry is no longer removed

    def get_readonly_fields(self, request, obj=None):
        if obj is None:  # a new tournament has no standings or games yet
            return [name for name in self.readonly_fields if name not in ("results", "games")]
        return self.readonly_fields

    def get_queryset(self, request):
        """Each row's counts as subqueries (a join of entries and games would multiply)."""
        return (
            super()
            .get_queryset(request)
            .annotate(
                players=_count(Entry.objects.filter(removed=False)),
                tables=_count(TournamentGame.objects.all()),
            )
        )

    @admin.display(description=_("players"), ordering="players")
    def players(self, tournament):
        return tournament.players

    @admin.display(description=_("podium"))
    def podium(self, tournament):
        top = standings(tournament)[:PODIUM]
        line = " · ".join(f"{place}. {e.user} ({e.points})" for place, e in enumerate(top, 1))
        return line or "—"

    @admin.display(description=_("games"))
    def games(self, tournament):
        tables = tournament.tables
        url = reverse("admin:tournaments_tournamentgame_changelist")
        return format_html(
            '<a href="{}?tournament__id__exact={}">{}</a>',
            url,
            tournament.pk,
            ngettext("%(n)d game: list them", "%(n)d games: list them", tables) % {"n": tables},
        )

    @admin.display(description=_("standings"))
    def results(self, tournament):
        """The standings as the page shows them, with every tie-break's figure."""
        heads = ("#", _("Player"), _("Points"), _("Games"), _("Wins"), _("Card points"))
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    place,
                    entry.user,
                    f" ({_('left')})" if entry.withdrawn else "",
                    entry.points,
                    entry.games,
                    entry.wins,
                    entry.game_points,
                )
                for place, entry in enumerate(standings(tournament), 1)
            ),
        )
        if not rows:
            return "—"
        head = format_html_join("", "<th>{}</th>", ((h,) for h in heads))
        return format_html(
            '<table class="tournament-results"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>',
            head,
            rows,
        )

    @admin.action(description=_("Cancel the chosen tournaments (reason below)"))
    def cancel(self, request, queryset):
        reason = request.POST.get("reason", "")
        for tournament in queryset:
            try:
                tournament_cancel(tournament_id=tournament.pk, reason=reason)
            except TournamentError as error:
                self.message_user(request, f"{tournament}: {error}", messages.WARNING)


@admin.register(Entry)
class EntryAdmin(ScaledSearchMixin, admin.ModelAdmin):
    list_display = ("user", "tournament", "points", "games", "withdrawn", "removed", "reason")
    list_filter = ("removed", "withdrawn", "tournament")
    people_search = ("user",)  # a person's entries; the tournaments are few, listed by name
    search_text = ("tournament__name",)
    readonly_fields = ("tournament", "user", "points", "games", "wins", "streak", "game_points")
    fields = (*readonly_fields, "withdrawn", "removed", "reason")
    action_form = ReasonForm
    actions = ["remove"]

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Remove the chosen players (reason below, shown to them)"))
    def remove(self, request, queryset):
        reason = request.POST.get("reason", "")
        for entry in queryset:
            try:
                entry_remove(entry_id=entry.pk, reason=reason)
            except TournamentError as error:
                self.message_user(request, str(error), messages.ERROR)
                return


@admin.register(TournamentGame)
class TournamentGameAdmin(admin.ModelAdmin):
    """Each table of a tournament with its result (the tournament's page in the admin links
    here, filtered to it)."""

    list_display = ("game", "tournament", "round", "scored", "result", "created_at")
    list_filter = ("scored", "round")
    list_select_related = ("game", "tournament")
    readonly_fields = ("tournament", "game", "round", "scored", "result", "created_at")

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("game__seats__user")

    @admin.display(description=_("result"))
    def result(self, tournament_game):
        """Each seat's place, player and score, as the game was scored (★: the winner)."""
        game = tournament_game.game
        seats = list(game.seats.all())
        placed = places([SeatResult(seat.number, seat.score) for seat in seats], game.winner_seat)
        return " · ".join(
            f"{placed[seat.number]}. {'★ ' if seat.number == game.winner_seat else ''}"
            f"{seat.user or seat.bot} {seat.score}"
            for seat in sorted(seats, key=lambda seat: placed[seat.number])
        )

    def has_add_permission(self, request):
        return False
