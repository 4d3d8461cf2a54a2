from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/analysis.json", views.AnalysisView.as_view(), name="game_analysis"),
]
