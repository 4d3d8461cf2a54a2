from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from . import receivers  # noqa: F401  (sockets close on log-out and password change)
