"""The HTTP half of ``bench_abuse``: bursts of 50 requests released at once, each from the
address an attacker shows (behind the benchmark's server's trusted proxy, the address is the
right-most ``X-Forwarded-For`` entry, as a real proxy appends it).

Each function returns what was tried and how it was answered; none of them asserts: the
benchmark prints, people judge (the tests hold the limits).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from accounts.benchmarks import Visitor
from lab.benchmarks.bursts import at_once

BURST = 50
# The attackers' addresses: a network of this run's own, so that counters a previous run left
# in the shared cache (an hour's sign-ups, resets) do not decide this one.
NET = f"10.{random.randrange(256)}.{random.randrange(256)}."


def visitor(base: str, address: str, spoofed: str = "") -> Visitor:
    """A browser at ``address``; ``spoofed`` is what it writes into X-Forwarded-For itself
    (the proxy appends the real address after it)."""
    client = Visitor(base)
    forwarded = f"{spoofed}, {address}" if spoofed else address
    client.opener.addheaders.append(("X-Forwarded-For", forwarded))
    return client


def statuses(results: list) -> dict:
    counted = Counter(r[0] if isinstance(r, tuple) else type(r).__name__ for r in results)
    return {str(key): n for key, n in sorted(counted.items(), key=str)}


def prepared_posts(clients: list[Visitor], path: str, fields: list[dict]) -> list:
    """One POST per client, its form already loaded (the CSRF token in hand), to be sent
    together."""
    calls = []
    for client, data in zip(clients, fields, strict=True):
        token = client.token(path)
        calls.append(lambda c=client, d=data, t=token: c.post(path, d, t))
    return calls


def login_burst(base: str, username: str, password: str, path="/accounts/login/") -> dict:
    """50 wrong passwords at once for one account from one address; then its owner, from
    another address, logs in with the right one."""
    clients = [visitor(base, NET + "66") for _ in range(BURST)]
    wrong = [{"username": username, "password": f"wrong-{n}"} for n in range(BURST)]
    answers = at_once(prepared_posts(clients, path, wrong))
    owner = visitor(base, "198.51.100.20")
    right = owner.post(path, {"username": username, "password": password}, owner.token(path))
    return {
        "tried": BURST,
        "answers": statuses(answers),  # 200: the form again after a hash; 429 refused first
        "owner_from_elsewhere": right[0],  # 302: logged in
    }


def login_spray(base: str) -> dict:
    """50 different names at once from one address (guessing who has which password)."""
    clients = [visitor(base, NET + "67") for _ in range(BURST)]
    fields = [{"username": f"someone-{n}", "password": "guess"} for n in range(BURST)]
    return {
        "tried": BURST,
        "answers": statuses(at_once(prepared_posts(clients, "/accounts/login/", fields))),
    }


def rotation_burst(base: str, username: str) -> dict:
    """50 wrong passwords from one address that writes a new address into X-Forwarded-For
    each time: the limits must follow the proxy's own entry, not the forged ones."""
    clients = [visitor(base, NET + "68", spoofed=f"10.9.{n}.1") for n in range(BURST)]
    fields = [{"username": username, "password": f"wrong-{n}"} for n in range(BURST)]
    return {
        "tried": BURST,
        "answers": statuses(at_once(prepared_posts(clients, "/accounts/login/", fields))),
    }


def signup_burst(base: str, run: str, password: str) -> dict:
    """50 sign-ups at once from one address."""
    clients = [visitor(base, NET + "69") for _ in range(BURST)]
    fields = [
        {"username": f"abuse{run}s{n}", "password1": password, "password2": password}
        for n in range(BURST)
    ]
    answers = at_once(prepared_posts(clients, "/accounts/signup/", fields))
    return {"tried": BURST, "answers": statuses(answers)}  # 302: an account was made


def reset_burst(base: str, email: str, mail_dir: Path) -> dict:
    """50 reset requests at once for one e-mail address from one address."""
    clients = [visitor(base, NET + "70") for _ in range(BURST)]
    fields = [{"email": email}] * BURST
    answers = at_once(prepared_posts(clients, "/accounts/password/reset/", fields))
    return {"tried": BURST, "answers": statuses(answers), "mail_dir": str(mail_dir)}


def mails_in(mail_dir: Path) -> int:
    return sum(path.read_text(errors="replace").count("Subject:") for path in mail_dir.iterdir())


def table_burst(base: str, username: str, password: str) -> dict:
    """One account sends 50 new tables with an open seat at once, then 50 quick plays."""
    owner = visitor(base, "198.51.100.21")
    token = owner.token("/accounts/login/")
    owner.post("/accounts/login/", {"username": username, "password": password}, token)
    table = {"target": "10", "seat_left": "open", "seat_right": "careful", "is_public": "public"}
    token = owner.token("/games/new/")
    opened = at_once([lambda: owner.post("/games/new/", table, token)] * BURST)
    token = owner.token("/games/")
    quick = at_once([lambda: owner.post("/games/quick-play/", {}, token)] * BURST)
    return {"new_tables": statuses(opened), "quick_plays": statuses(quick)}
