"""Chat in the admin: reported messages first, and hiding a message from every page."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from common.admin_paging import CappedListMixin
from common.admin_search import ScaledSearchMixin
from games.models import ChatMessage, ChatReport


def _game_link(game_id: int):
    return format_html('<a href="{}">{}</a>', reverse("game_table", args=[game_id]), game_id)


@admin.register(ChatMessage)
class ChatMessageAdmin(ScaledSearchMixin, CappedListMixin, admin.ModelAdmin):
    list_display = ["created_at", "user", "game_link", "room", "moves", "said", "hidden"]
    list_filter = ["room", "hidden", "created_at"]
    people_search = ("user",)
    search_text = ("text",)  # trigram-indexed (games 0021)
    readonly_fields = ["game", "user", "room", "text", "preset", "moves", "created_at"]
    list_select_related = ["user"]
    actions = ["hide", "show"]

    @admin.display(description=_("said"))
    def said(self, message: ChatMessage) -> str:
        return message.text or f"[{message.preset}]"

    @admin.display(description=_("game"))
    def game_link(self, message: ChatMessage):
        return _game_link(message.game_id)

    @admin.action(description=_("Hide from every page"))
    def hide(self, request, queryset):
        self.message_user(
            request, _("%(n)d message(s) hidden.") % {"n": queryset.update(hidden=True)}
        )

    @admin.action(description=_("Show again"))
    def show(self, request, queryset):
        self.message_user(
            request, _("%(n)d message(s) shown.") % {"n": queryset.update(hidden=False)}
        )

    def has_add_permission(self, request):
        return False


@admin.register(ChatReport)
class ChatReportAdmin(ScaledSearchMixin, admin.ModelAdmin):
    list_display = ["created_at", "reporter", "sender", "said", "game_link", "hidden", "resolved"]
    list_filter = ["resolved", "created_at"]
    people_search = ("message__user", "reporter")
    search_text = ("message__text",)  # reports are few: the join is to them
    readonly_fields = ["message", "reporter", "created_at"]
    list_select_related = ["message__user", "reporter"]
    actions = ["hide_and_resolve", "resolve"]

    @admin.display(description=_("sender"))
    def sender(self, report: ChatReport):
        return report.message.user

    @admin.display(description=_("said"))
    def said(self, report: ChatReport) -> str:
        return report.message.text or f"[{report.message.preset}]"

    @admin.display(description=_("hidden"), boolean=True)
    def hidden(self, report: ChatReport) -> bool:
        return report.message.hidden

    @admin.display(description=_("game"))
    def game_link(self, report: ChatReport):
        return _game_link(report.message.game_id)

    @admin.action(description=_("Hide the messages and close the reports"))
    def hide_and_resolve(self, request, queryset):
        ChatMessage.objects.filter(reports__in=queryset).update(hidden=True)
        self.message_user(
            request, _("%(n)d report(s) closed.") % {"n": queryset.update(resolved=True)}
        )

    @admin.action(description=_("Close the reports (nothing wrong)"))
    def resolve(self, request, queryset):
        self.message_user(
            request, _("%(n)d report(s) closed.") % {"n": queryset.update(resolved=True)}
        )

    def has_add_permission(self, request):
        return False
