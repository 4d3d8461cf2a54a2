from django.urls import path

from . import views

urlpatterns = [
    path("puzzles/", views.PuzzlesView.as_view(), name="puzzles"),
    path("puzzles/<int:puzzle_id>/", views.PuzzleView.as_view(), name="puzzle_answer"),
]
