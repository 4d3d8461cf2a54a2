from django.urls import path

from . import views

urlpatterns = [
    path("", views.LeaderboardListView.as_view(), name="leaderboard_list"),
    path("<slug:slug>/", views.LeaderboardDetailView.as_view(), name="leaderboard_detail"),
]
