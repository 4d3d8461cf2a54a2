from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Puzzle, PuzzleAttempt, PuzzleRecord


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "move", "seat", "solution", "played", "rating", "hidden")
    list_filter = ("hidden",)
    raw_id_fields = ("game", "user")
    readonly_fields = ("values", "view")
    actions = ("hide", "show")

    @admin.action(description=_("Hide the selected puzzles"))
    def hide(self, request, queryset):
        queryset.update(hidden=True)

    @admin.action(description=_("Serve the selected puzzles again"))
    def show(self, request, queryset):
        queryset.update(hidden=False)


@admin.register(PuzzleAttempt)
class PuzzleAttemptAdmin(admin.ModelAdmin):
    list_display = ("puzzle", "user", "card", "solved", "rating_change", "created_at")
    raw_id_fields = ("puzzle", "user")


@admin.register(PuzzleRecord)
class PuzzleRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "rating", "solved", "failed", "streak", "best_streak")
    raw_id_fields = ("user",)
