from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings and leaderboards"

    def ready(self):
        from . import rank_receivers, receivers  # noqa: F401  (connects the receivers)
