"""The service worker that shows "your turn" notifications, and a browser's subscription to
them (kept or forgotten; thin: ``services`` checks everything)."""

import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import View

from . import services

WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"


@cache
def _worker_source() -> bytes:
    return WORKER.read_bytes()


def service_worker(request):
    """Served from the site's root, so that it may show notifications for every page."""
    response = HttpResponse(_worker_source(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


class PushSubscriptionView(LoginRequiredMixin, View):
    """POST ``{"subscription": PushSubscription.toJSON()}`` to keep a browser's address,
    ``{"forget": endpoint}`` to drop it."""

    raise_exception = True  # a script's request: 403, not a redirect to the log-in page

    def post(self, request):
        try:
            data = json.loads(request.body or b"{}")
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            return JsonResponse({"error": _("That is not a push subscription.")}, status=400)
        if "forget" in data:
            services.unsubscribe(user=request.user, endpoint=data["forget"])
            return JsonResponse({"ok": True})
        try:
            services.subscribe(user=request.user, data=data.get("subscription"))
        except services.SubscriptionRefused as refusal:
            return JsonResponse({"error": str(refusal)}, status=400)
        return JsonResponse({"ok": True})
