"""Staff create duplicate events between people, start them (an action), and follow them."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.table.errors import GameError

from .event_services import event_start
from .models import DuplicateEvent, DuplicateExclusion, EventEntry, EventTable


class EventEntryInline(admin.TabularInline):
    model = EventEntry
    fields = ("user", "player", "created_at")
    readonly_fields = ("player", "created_at")
    raw_id_fields = ("user",)
    extra = 0


class EventTableInline(admin.TabularInline):
    model = EventTable
    fields = ("deal", "number", "game")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class ExclusionInline(admin.TabularInline):
    """People kept off the listed standings (their results still count for the others)."""

    model = DuplicateExclusion
    fields = ("user", "reason", "created_at")
    readonly_fields = ("created_at",)
    extra = 0
    autocomplete_fields = ["user"]


class EventExclusionInline(ExclusionInline):
    fk_name = "event"


@admin.register(DuplicateEvent)
class DuplicateEventAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "status",
        "round",
        "deals",
        "clock",
        "people",
        "created_at",
        "started_at",
        "rated_at",
    )
    list_filter = ("status",)
    readonly_fields = ("status", "round", "created_at", "started_at", "finished_at", "rated_at")
    inlines = [EventEntryInline, EventTableInline, EventExclusionInline]

    def get_readonly_fields(self, request, obj=None):
        """An event's deals are set before it starts (its schedule depends on them)."""
        if obj is not None and obj.status != DuplicateEvent.Status.OPEN:
            return (*self.readonly_fields, "deals")
        return self.readonly_fields
    actions = ["start"]

    @admin.display(description=_("people"))
    def people(self, event):
        return event.entries.filter(user__isnull=False).count()

    @admin.action(description=_("Start the selected events (bots fill to a multiple of three)"))
    def start(self, request, queryset):
        started = 0
        for event in queryset.filter(status=DuplicateEvent.Status.OPEN):
            try:
                event_start(event.pk)
            except GameError as error:
                self.message_user(request, f"{event}: {error}", messages.ERROR)
            else:
                started += 1
        self.message_user(
            request,
            ngettext("%(n)d event started.", "%(n)d events started.", started) % {"n": started},
        )
