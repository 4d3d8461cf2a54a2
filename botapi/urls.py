from django.urls import path

from . import challenge_pages, pages, streams, views

urlpatterns = [
    path("account/tokens/", pages.TokensView.as_view(), name="api_tokens"),
    path("challenges/", challenge_pages.ChallengesView.as_view(), name="challenges"),
    path(
        "challenges/<int:challenge_id>/accept/",
        challenge_pages.ChallengeAnswerView.as_view(accept=True),
        name="challenge_accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline/",
        challenge_pages.ChallengeAnswerView.as_view(accept=False),
        name="challenge_decline",
    ),
    path(
        "challenges/<int:challenge_id>/cancel/",
        challenge_pages.ChallengeAnswerView.as_view(cancel=True),
        name="challenge_cancel",
    ),
    path(
        "challenges/send/<str:username>/",
        challenge_pages.ChallengeSendView.as_view(),
        name="challenge_send",
    ),
    path("api/openapi.json", views.openapi, name="api_openapi"),
    path("api/bot/account/upgrade", views.account_upgrade, name="api_account_upgrade"),
    path("api/games", views.game_create, name="api_game_create"),
    path("api/games/<int:game_id>/record", views.game_record_view, name="api_game_record"),
    path("api/challenge/<str:username>", views.challenge_create, name="api_challenge_create"),
    path(
        "api/challenge/<int:challenge_id>/accept",
        views.challenge_accept,
        name="api_challenge_accept",
    ),
    path(
        "api/challenge/<int:challenge_id>/decline",
        views.challenge_decline,
        name="api_challenge_decline",
    ),
    path(
        "api/challenge/<int:challenge_id>/cancel",
        views.challenge_cancel,
        name="api_challenge_cancel",
    ),
    path("api/stream/event", streams.event_stream, name="api_event_stream"),
    path("api/bot/game/stream/<int:game_id>", streams.game_stream, name="api_game_stream"),
    path("api/bot/game/<int:game_id>/play/<str:card>", views.card_play, name="api_card_play"),
    path("api/bot/game/<int:game_id>/resign", views.resign, name="api_resign"),
    path("api/bot/game/<int:game_id>/chat", views.chat, name="api_chat"),
]
