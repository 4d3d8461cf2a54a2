from django.apps import AppConfig


class BotArenaConfig(AppConfig):
    name = "botarena"
    verbose_name = "Bot arena"

    def ready(self):
        from . import receivers  # noqa: F401
