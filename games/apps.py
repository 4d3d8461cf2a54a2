from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games import receivers  # noqa: F401  (sockets close on log-out and password change)
