from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/analysis.json", views.AnalysisView.as_view(), name="game_analysis"),
    path(
        "games/<int:game_id>/analysis/summary/",
        views.SummaryView.as_view(),
        name="analysis_summary",
    ),
    path(
        "games/<int:game_id>/analysis/status/",
        views.StatusView.as_view(),
        name="analysis_status",
    ),
]
