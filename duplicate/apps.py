from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DuplicateConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "duplicate"
    verbose_name = _("Daily duplicate")

    def ready(self):
        from . import receivers  # noqa: F401
