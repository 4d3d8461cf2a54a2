from django.urls import path

from . import api, views

urlpatterns = [
    path("bots/", views.BotsView.as_view(), name="bot_arena"),
    path("api/bot/arena", api.status, name="api_arena_status"),
    path("api/bot/arena/join", api.join, name="api_arena_join"),
    path("api/bot/arena/leave", api.leave, name="api_arena_leave"),
]
