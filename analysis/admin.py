from django.contrib import admin

from .models import GameAnalysis


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin):
    list_display = ("game", "status", "queued_at", "finished_at", "attempts", "cpu_seconds")
    list_filter = ("status",)
    raw_id_fields = ("game",)
    readonly_fields = ("plays", "accuracy", "luck")
