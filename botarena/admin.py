"""Staff see bot accounts (and ban them: no more sign-in, API or arena), the arena's
entrants and its games."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import ArenaGame, BotAccount, Entrant
from .services import bots_ban


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin):
    list_display = ["username", "is_active", "date_joined", "last_login", "arena_status"]
    list_filter = ["is_active"]
    search_fields = ["^username"]
    fields = ["username", "is_active", "date_joined", "last_login"]
    readonly_fields = fields
    actions = ["ban"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .filter(profile__is_bot=True)
            .select_related("arena_entrant")
        )

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("arena"))
    def arena_status(self, account):
        entrant = getattr(account, "arena_entrant", None)
        return entrant.get_status_display() if entrant else None

    @admin.action(description=_("Ban the selected bots (no sign-in, API or arena)"))
    def ban(self, request, queryset):
        count = bots_ban(user_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            ngettext("%(n)d bot banned.", "%(n)d bots banned.", count) % {"n": count},
            messages.SUCCESS,
        )


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = [
        "__str__",
        "status",
        "games",
        "played",
        "wins",
        "clock_losses",
        "owner",
        "joined_at",
    ]
    list_filter = ["status"]
    search_fields = ["^user__username", "owner"]
    list_select_related = ["user"]
    fields = [
        "user",
        "level",
        "status",
        "reason",
        "owner",
        "games",
        "played",
        "wins",
        "clock_losses",
    ]
    readonly_fields = ["user", "level", "games", "played", "wins", "clock_losses"]


@admin.register(ArenaGame)
class ArenaGameAdmin(admin.ModelAdmin):
    list_display = ["game", "trio", "scored", "created_at"]
    list_filter = ["scored"]
    raw_id_fields = ["game"]
    readonly_fields = ["game", "trio", "scored", "created_at"]
