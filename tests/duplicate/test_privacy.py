"""Nobody sees a duplicate game but its player before the day closes: not by any page, list,
record, analysis, invite link or hint (the socket is test_socket.py's). Then the replays of
each game's best results are open to all, and only those."""

import re

import pytest

from duplicate.services import duplicate_play
from games.models import Game
from games.table.errors import GameError
from games.table.hints import hint_view

from .conftest import DAY
from .helpers import play_through

pytestmark = pytest.mark.django_db

LISTS = ["/", "/games/", "/players/alice/", "/players/alice/games/", "/puzzles/", "/duplicate/"]


def game_pages(game: Game) -> list[str]:
    base = f"/games/{game.pk}/"
    return [
        base,
        f"{base}?invite={game.invite_token}",
        f"{base}replay/",
        f"{base}replay/?invite={game.invite_token}",
        f"{base}record.json",
        f"{base}record.json?invite={game.invite_token}",
        f"{base}analysis.json",
        f"{base}analysis/summary/",
        f"{base}analysis/status/",
    ]


def decks_of(game: Game) -> list[str]:
    """Every dealt hand's deck, as it would appear in a page or a record."""
    return [",".join(f'"{code}"' for code in hand.deck) for hand in game.hands.all()]


def assert_nothing_shown(client, game: Game, viewer):
    client.logout() if viewer is None else client.force_login(viewer)
    for path in game_pages(game):
        assert client.get(path).status_code in (403, 404), (path, viewer)
    for path in LISTS:
        html = client.get(path).content.decode()
        assert not re.search(rf"/games/{game.pk}/", html), (path, viewer)
        assert all(deck not in html for deck in decks_of(game)), (path, viewer)


def test_a_running_and_a_finished_duplicate_game_are_its_players_alone(client, alice, bob):
    running = duplicate_play(user=alice, number=1, day=DAY)
    finished = play_through(duplicate_play(user=alice, number=2, day=DAY), alice)
    play_through(duplicate_play(user=bob, number=2, day=DAY), bob)  # bob has played it too
    for game in (running, finished):
        for viewer in (None, bob):
            assert_nothing_shown(client, game, viewer)
    client.force_login(alice)
    for path in (f"/games/{running.pk}/", f"/games/{finished.pk}/replay/"):
        assert client.get(path).status_code == 200
    record = client.get(f"/games/{finished.pk}/record.json").json()
    assert all(len(hand["deck"]) == 48 for hand in record["hands"])  # hers to see in full
    html = client.get(f"/games/{running.pk}/").content.decode()
    assert running.invite_token not in html  # no invite link to share


def test_no_hints_in_a_duplicate_game(alice):
    game = duplicate_play(user=alice, number=1, day=DAY)
    with pytest.raises(GameError, match="Hints are off"):
        hint_view(game_id=game.pk, user=alice)


def test_after_the_close_the_best_replays_open_to_all_and_only_those(
    client, settings, close_the_day, make_user
):
    settings.COINS_DUPLICATE_OPEN_BEST = 1
    people = [make_user(name) for name in ("ana", "ben", "cai", "dan")]
    picks = [lambda h: h[0], lambda h: h[-1], lambda h: h[len(h) // 2], lambda h: h[1 % len(h)]]
    games = [
        play_through(duplicate_play(user=p, number=1, day=DAY), p, pick)
        for p, pick in zip(people, picks, strict=True)
    ]
    running = duplicate_play(user=make_user("eve"), number=1, day=DAY)
    stranger = make_user("zoe")
    client.force_login(stranger)
    assert all(client.get(f"/games/{g.pk}/replay/").status_code == 404 for g in games)
    close_the_day()
    results = client.get(f"/duplicate/{DAY.isoformat()}.json").json()["games"][0]["results"]
    best = max(r["matchpoints"] for r in results)
    opened = {r["game_id"] for r in results if r["matchpoints"] == best}
    assert opened
    if len({r["matchpoints"] for r in results}) > 1:  # not all tied: some stay closed
        assert len(opened) < len(results)
    for game in games:
        expected = 200 if game.pk in opened else 404
        assert client.get(f"/games/{game.pk}/replay/").status_code == expected, game.pk
        assert client.get(f"/games/{game.pk}/record.json").status_code == expected, game.pk
    assert client.get(f"/games/{running.pk}/").status_code == 404  # no result: still hers
    html = client.get(f"/duplicate/{DAY.isoformat()}/").content.decode()
    assert {int(n) for n in re.findall(r"/games/(\d+)/replay/", html)} == opened
