from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("leaderboards/", include("ratings.urls")),
    path("", include("friends.urls")),
    path("", include("notifications.urls")),
    path("", include("analysis.urls")),
    path("", include("puzzles.urls")),
    path("", include("duplicate.urls")),
    path("", include("tournaments.urls")),
    path("", include("botapi.urls")),
    path("", include("botarena.urls")),
    path("", include("games.urls")),
]
