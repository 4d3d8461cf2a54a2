"""A person logs in from their browser while an attacker, from another address, hammers their
account with wrong passwords: the attacker is refused, the person is not."""

import http.client
import re
import threading
import time
from urllib.parse import urlencode, urlsplit

import pytest

from .actions import PASSWORD

pytestmark = pytest.mark.browser

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Attacker:
    """Wrong passwords for one account, one after another, from 127.0.0.2 (loopback answers
    every 127.x address, so the server sees another visitor than the browser at 127.0.0.1)."""

    def __init__(self, base: str, username: str):
        parts = urlsplit(base)
        self.host, self.port, self.username = parts.hostname, parts.port, username
        self.answers: list[int] = []
        self.stop = threading.Event()

    def request(self, method: str, path: str, body: str = "", headers=None):
        conn = http.client.HTTPConnection(
            self.host, self.port, timeout=30, source_address=("127.0.0.2", 0)
        )
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        page = response.read().decode(errors="replace")
        cookie = response.getheader("Set-Cookie") or ""
        conn.close()
        return response.status, page, cookie

    def run(self) -> None:
        _status, page, cookie = self.request("GET", "/accounts/login/")
        token, csrf = TOKEN.search(page)[1], cookie.split(";")[0]
        while not self.stop.is_set():
            body = urlencode(
                {"username": self.username, "password": "wrong", "csrfmiddlewaretoken": token}
            )
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": csrf,
                "Referer": f"http://{self.host}:{self.port}/accounts/login/",
            }
            self.answers.append(self.request("POST", "/accounts/login/", body, headers)[0])
            time.sleep(0.05)


def test_a_person_logs_in_while_an_attacker_hammers_their_account(
    live_server_url, page, django_user_model
):
    django_user_model.objects.create_user("carol", password=PASSWORD)
    attacker = Attacker(live_server_url, "carol")
    thread = threading.Thread(target=attacker.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while attacker.answers.count(429) < 3:  # the attacker is locked out by now
            assert time.monotonic() < deadline, attacker.answers
            time.sleep(0.05)
        page.goto(f"{live_server_url}/accounts/login/")
        page.fill("input[name=username]", "carol")
        page.fill("input[name=password]", PASSWORD)
        page.locator("form.account-form button[type=submit]").click()
        page.wait_for_load_state()
        assert "carol" in page.locator("header").inner_text()
        assert "/accounts/login/" not in page.url
    finally:
        attacker.stop.set()
        thread.join(timeout=30)
    assert attacker.answers.count(200) <= 5  # wrong passwords weighed: at most five
