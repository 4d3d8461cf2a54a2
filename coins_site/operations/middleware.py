"""``/healthz`` and ``/metrics``, answered first thing (the first entry of ``MIDDLEWARE``).

Load balancers ask by the server's address (``Host: 10.0.0.5:8001``) and over plain HTTP, and
ask often: going through the site's middleware would give them a 400 for the host, a redirect
to HTTPS, and a session and locale they do not need. Skipping ``ALLOWED_HOSTS`` is safe here
because neither answer uses the ``Host`` header (no link, no redirect) and neither may be
cached. A ``/metrics`` request that may not read the metrics goes on like any other, to the
site's own 404: nothing tells it the page exists.
"""

from __future__ import annotations

from . import views

READ_METHODS = frozenset({"GET", "HEAD"})


class OperationsEndpointsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in READ_METHODS:
            if request.path_info == "/healthz":
                return views.healthz(request)
            if request.path_info == "/metrics" and views.may_read_metrics(request):
                return views.metrics(request)
        return self.get_response(request)
