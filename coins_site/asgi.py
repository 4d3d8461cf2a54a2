"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coins_site.settings")
django_asgi_app = get_asgi_application()  # before importing consumers: it sets up Django

from django.conf import settings  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402

if not settings.DEBUG and settings.SECRET_KEY == settings.DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "Refusing to serve with DJANGO_DEBUG off and no SECRET_KEY: anyone could forge "
        "sessions with the public development key. Set SECRET_KEY to a long random string "
        "(or DJANGO_DEBUG=1 on a development machine)."
    )

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from coins_site.address_rate import AddressRateGuard  # noqa: E402
from coins_site.http_slots import HttpSlots  # noqa: E402
from coins_site.proxies import ForwardedClient  # noqa: E402
from coins_site.websocket_origin import SameOriginValidator  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.table.runner import start_in_this_process  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402


class StartsTableRunner:
    """Start the process's table runner (``games/runner.py``) with its first connection,
    should the server not have started it already."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        start_in_this_process()
        return await self.app(scope, receive, send)


# Outermost: behind trusted proxies (COINS_TRUSTED_PROXIES), pages and sockets alike see the
# visitor's address, never the proxy's; then floods from one address are turned away cheaply.
application = ForwardedClient(
    AddressRateGuard(
        StartsTableRunner(
            ProtocolTypeRouter(
                {
                    "http": HttpSlots(django_asgi_app),
                    "websocket": SameOriginValidator(
                        # each route reads its user itself (games/, tournaments/routing.py)
                        SessionMiddlewareStack(
                            URLRouter(websocket_urlpatterns + tournament_sockets)
                        )
                    ),
                }
            )
        )
    )
)

# Under Daphne, the runner starts with the server: due bots and clocks of tables nobody is
# connected to go on right after a restart.
_reactor = sys.modules.get("twisted.internet.reactor")
if type(_reactor).__name__ == "AsyncioSelectorReactor":
    from coins_site.socket_writes import install as write_frames_at_once
    from coins_site.warm_up import warm_up_aside

    write_frames_at_once()
    warm_up_aside()  # before the first connection: URL maps, catalogues, the table's templates
    _reactor.callWhenRunning(start_in_this_process)


def _keep_collector_pauses_short() -> None:
    """Keep garbage-collector pauses out of move latency.

    A server process holds many long-lived objects (Django itself, compiled templates, the
    game cache). Freezing those present after start-up means full collections never walk
    them again, and a higher first threshold makes young collections rare. Measured with
    the table benchmark (100 tables, 30 s): collector pauses went from 458 ms in all, the
    longest 80 ms, to about 50 ms in all.
    """
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


_keep_collector_pauses_short()
