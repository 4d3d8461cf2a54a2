from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings and leaderboards"

    def ready(self):
        from . import receivers  # noqa: F401  (connects the receivers to games' signals)
