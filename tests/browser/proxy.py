"""A small TCP proxy in front of the test servers, as a load balancer stands in front of the
Daphnes in production: each connection goes to the first live server; the test can cut
every connection, drop what pages send, or refuse new connections for a while."""

from __future__ import annotations

import contextlib
import socket
import threading


class Proxy:
    def __init__(self, ports: list[int]):
        self.ports = list(ports)  # tried in order: a dead server's port refuses
        self.refusing = False  # new connections are closed at once (every server down)
        self.dropping = False  # what pages send is swallowed (a socket dying on its way)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return  # closed
            server = None if self.refusing else self._connect()
            if server is None:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _connect(self) -> socket.socket | None:
        for port in self.ports:
            try:
                return socket.create_connection(("127.0.0.1", port), timeout=2)
            except OSError:
                continue
        return None

    def _pump(self, source: socket.socket, target: socket.socket, from_page: bool) -> None:
        try:
            while data := source.recv(65536):
                if not (from_page and self.dropping):
                    target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                shut(end)
                end.close()

    def cut(self) -> None:
        """Close every connection going through (the pages see their sockets drop)."""
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                shut(end)

    def close(self) -> None:
        self.listener.close()
        self.cut()


def shut(end: socket.socket) -> None:
    with contextlib.suppress(OSError):
        end.shutdown(socket.SHUT_RDWR)
