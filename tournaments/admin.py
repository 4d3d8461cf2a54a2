"""Staff create arenas and Swiss events, see their results, cancel them, remove players and
exclude people (with a reason the player is shown)."""

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from .models import Entry, Tournament, TournamentExclusion, TournamentGame
from .selectors import standings
from .services import TournamentError, entry_remove, exclusion_add, tournament_cancel


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("user", "points", "games", "wins", "streak", "withdrawn", "removed", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


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
    list_display = ("name", "kind", "status", "starts_at", "players", "leader")
    list_filter = ("kind", "status")
    search_fields = ("name",)
    readonly_fields = ("status", "current_round", "cancel_reason", "created_at")
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

    @admin.display(description=_("players"))
    def players(self, tournament):
        return tournament.entries.filter(removed=False).count()

    @admin.display(description=_("leader"))
    def leader(self, tournament):
        first = standings(tournament).first()
        return f"{first.user} ({first.points})" if first else "—"

    @admin.action(description=_("Cancel the chosen tournaments (reason below)"))
    def cancel(self, request, queryset):
        reason = request.POST.get("reason", "")
        for tournament in queryset:
            try:
                tournament_cancel(tournament_id=tournament.pk, reason=reason)
            except TournamentError as error:
                self.message_user(request, f"{tournament}: {error}", messages.WARNING)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament", "points", "games", "withdrawn", "removed", "reason")
    list_filter = ("removed", "withdrawn", "tournament")
    search_fields = ("user__username", "tournament__name")
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
    list_display = ("game", "tournament", "round", "scored", "created_at")
    list_filter = ("scored",)
    readonly_fields = ("tournament", "game", "round", "scored", "created_at")

    def has_add_permission(self, request):
        return False
