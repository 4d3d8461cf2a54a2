from django.urls import path

from games import views
from games.history import views as views_history
from games.tutorial.views import LearnView

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("rules/", views.RulesView.as_view(), name="rules"),
    path("learn/", LearnView.as_view(), name="learn"),
    path("games/", views.LobbyView.as_view(), name="lobby"),
    path("games/new/", views.GameCreateView.as_view(), name="game_new"),
    path("games/quick-play/", views.QuickPlayView.as_view(), name="quick_play"),
    path("games/find/", views.FindGameView.as_view(), name="find_game"),
    path("games/<int:game_id>/", views.TableView.as_view(), name="game_table"),
    path(
        "games/<int:game_id>/join/", views.SeatActionView.as_view(action="join"), name="game_join"
    ),
    path(
        "games/<int:game_id>/leave/",
        views.SeatActionView.as_view(action="leave"),
        name="game_leave",
    ),
    path("games/<int:game_id>/play/", views.PlayCardView.as_view(), name="game_play"),
    path("games/<int:game_id>/resign/", views.ResignView.as_view(), name="game_resign"),
    path("games/<int:game_id>/chat/", views.ChatView.as_view(), name="game_chat"),
    path("games/<int:game_id>/rematch/", views.RematchView.as_view(), name="game_rematch"),
    path("games/<int:game_id>/record.json", views.GameRecordView.as_view(), name="game_record"),
    path("players/<str:username>/", views.PlayerView.as_view(), name="player_profile"),
    path("games/<int:game_id>/replay/", views_history.ReplayView.as_view(), name="game_replay"),
    path(
        "players/<str:username>/games/",
        views_history.PlayerGamesView.as_view(),
        name="player_games",
    ),
]
