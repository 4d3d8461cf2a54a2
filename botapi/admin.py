"""Staff see the API's tokens (owner, name, scopes, created, last use, revoked) and revoke
them; the games opened through the API; and the challenges."""

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import ApiGame, ApiToken, Challenge


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "user",
        "prefix",
        "scope_list",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["^user__username", "name", "^prefix"]
    list_select_related = ["user"]
    fields = ["user", "name", "prefix", "scopes", "created_at", "last_used_at", "revoked_at"]
    readonly_fields = fields
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False  # tokens are made by their owners (shown once), or by manage.py api_token

    @admin.display(description=_("scopes"))
    def scope_list(self, token):
        return ", ".join(token.scopes)

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request, queryset):
        count = queryset.filter(revoked_at=None).update(revoked_at=timezone.now())
        self.message_user(
            request,
            ngettext("%(n)d token revoked.", "%(n)d tokens revoked.", count) % {"n": count},
            messages.SUCCESS,
        )


@admin.register(ApiGame)
class ApiGameAdmin(admin.ModelAdmin):
    list_display = ["game", "user", "token", "created_at"]
    search_fields = ["^user__username"]
    list_select_related = ["user", "token"]
    raw_id_fields = ["game", "token", "user"]


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ["pk", "challenger", "challenged", "status", "target", "rated", "created_at"]
    list_filter = ["status"]
    search_fields = ["^challenger__username", "^challenged__username"]
    list_select_related = ["challenger", "challenged"]
    raw_id_fields = ["challenger", "challenged", "game"]
