"""The admin app, with lists that render lean (``common.admin_lean``)."""

from django.contrib.admin.apps import AdminConfig

from common.admin_lean import install


class CoinsAdminConfig(AdminConfig):
    def ready(self):
        super().ready()
        install()
