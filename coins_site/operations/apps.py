from django.apps import AppConfig


class OperationsConfig(AppConfig):
    name = "coins_site.operations"
    label = "operations"
    verbose_name = "Operations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from .views import allowed_networks

        allowed_networks()  # a mistyped COINS_METRICS_ALLOW stops the start, with its reason
