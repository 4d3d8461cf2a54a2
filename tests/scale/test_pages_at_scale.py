"""Pages at scale: their queries do not grow with the games or the page, and bad paging
input gives a normal page (seeded with ``seed_scale``, the generator of the benchmark)."""

import re

import pytest
from django.core.management import call_command

from games.models import Game, Play, PlayerStats, Seat
from lab.benchmarks.pages import clients, page_kinds, queries_of
from ratings.models import RatingEvent, Standing

pytestmark = pytest.mark.django_db

ROWS = re.compile(r'data-history-game="|data-rank="|name="_selected_action"')
LISTS = ("leaderboard", "history", "admin games", "admin rating")


def seed(games: int, seed: str, people: int = 60, prefix: str = "scale") -> None:
    call_command("seed_scale", games=games, people=people, seed=seed, prefix=prefix, stdout=_Null())


class _Null:
    def write(self, text):
        pass


def measure(deep: int = 2) -> dict[str, tuple[int, int, bool]]:
    """Each page kind's (status, queries, whether it listed rows)."""
    visitor, admin = clients()
    measured = {}
    for kind in page_kinds(deep=deep):
        client = admin if kind.staff else visitor
        status, queries = queries_of(client, kind.url)
        listed = not kind.name.startswith(LISTS) or bool(
            ROWS.search(client.get(kind.url).content.decode())
        )
        measured[kind.name] = (status, queries, listed)
    return measured


def test_seed_scale_stores_real_games_rated_and_counted():
    seed(30, "rows")
    game = Game.objects.filter(status=Game.Status.FINISHED).first()
    from games.table.loading import game_load

    assert game_load(game).state.winner == game.winner_seat  # the rows replay the game
    assert Play.objects.filter(game=game).count() == game.moves
    rated = Game.objects.filter(is_rated=True).count()
    assert RatingEvent.objects.count() == 3 * rated
    assert Standing.objects.filter(leaderboard__slug="all-time").exists()
    played = Seat.objects.filter(user__isnull=False, outcome__in=["won", "lost"]).count()
    assert sum(PlayerStats.objects.values_list("finished", flat=True)) == played


def test_no_page_kind_costs_more_queries_with_more_games():
    seed(120, "first")
    few = measure()
    seed(240, "second")
    many = measure()
    compared = 0
    for name, (status, queries, listed) in few.items():
        assert status in (200, 302), (name, status)
        if name in many and listed and many[name][2]:
            assert many[name][1] <= queries, (name, queries, many[name][1])
            compared += 1
    assert compared >= 20, compared


def test_the_page_number_does_not_change_the_queries(client):
    seed(150, "pages")
    seed(100, "few", people=4, prefix="few")  # four people with about 70 games each
    heavy = PlayerStats.objects.order_by("-finished").first().user
    visitor, _admin = clients()
    first = visitor.get("/leaderboards/all-time/").content.decode()  # ranks the board
    assert 'data-rank="51"' not in first and 'href="?page=2" rel="next"' in first
    board = [
        "/leaderboards/all-time/",
        "/leaderboards/all-time/?page=2",
        "/leaderboards/all-time/?page=3",
        "/leaderboards/all-time/?page=last",
    ]
    counts = {url: queries_of(visitor, url) for url in board}
    assert len({queries for _status, queries in counts.values()}) == 1, counts
    assert 'data-rank="51"' in visitor.get("/leaderboards/all-time/?page=2").content.decode()
    base = f"/players/{heavy.get_username()}/games/"
    html = visitor.get(base).content.decode()
    older = re.search(r'rel="next" href="\?([^"]+)"', html).group(1)
    history = [base, f"{base}?{older}", f"{base}?page=last"]
    counts = {url: queries_of(visitor, url) for url in history}
    assert len({queries for _status, queries in counts.values()}) == 1, counts


BAD_PAGING = [
    "/leaderboards/all-time/?page=abc",
    "/leaderboards/all-time/?page=-1",
    "/leaderboards/all-time/?page=0",
    "/leaderboards/all-time/?page=99999999999999999999",
    "/leaderboards/all-time/?page=100000",
    "/leaderboards/all-time/?after=nonsense",
    "/leaderboards/all-time/?after=nan~1",
    "/leaderboards/all-time/?before=1e999~3",
    "/leaderboards/all-time/?after=-99999~1",
    "/players/scale-00001/games/?page=9999",
    "/players/scale-00001/games/?page=-5",
    "/players/scale-00001/games/?after=1~-1",
    "/players/scale-00001/games/?after=99999999999999999999999~1",
    "/players/scale-00001/games/?after=0~0",
    "/players/scale-00001/games/?before=abc",
    "/players/scale-00001/games/?result=nope&opponents=aliens&target=abc",
    "/players/scale-00001/games/?target=100000",
    "/admin/games/game/?players=aliens",
    "/admin/games/game/?target=abc",
    "/admin/games/game/?player=abc",
    "/admin/games/game/?player=999999",
    "/admin/games/game/?p=99999",
    "/admin/games/game/?p=-1",
    "/admin/ratings/ratingevent/?p=abc",
]


def test_bad_paging_input_gives_a_clear_page_never_an_error():
    seed(60, "bad")  # once: every address below reads the same games
    visitor, admin = clients()
    for url in BAD_PAGING:
        client = admin if url.startswith("/admin/") else visitor
        response = client.get(url)
        assert response.status_code in (200, 302), (url, response.status_code)
        if response.status_code == 200 and not url.startswith("/admin/"):
            html = response.content.decode()
            listed = "data-rank=" in html or "data-history-game=" in html or "No games" in html
            assert listed, url


def test_the_admin_links_a_players_games_and_filters_them_by_the_kept_columns():
    seed(80, "admin")
    _visitor, admin = clients()
    heavy = PlayerStats.objects.order_by("-finished").first()
    page = admin.get(f"/admin/auth/user/{heavy.user_id}/change/").content.decode()
    assert f"/admin/games/game/?player={heavy.user_id}" in page
    assert "games/seat" not in page  # no inline of every seat
    listed = admin.get(f"/admin/games/game/?player={heavy.user_id}").content.decode()
    ids = {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', listed)}
    mine = set(Seat.objects.filter(user_id=heavy.user_id).values_list("game_id", flat=True))
    assert ids and ids <= mine
    people = admin.get("/admin/games/game/?players=humans").content.decode()
    ids = {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', people)}
    with_bots = set(Seat.objects.exclude(bot="").values_list("game_id", flat=True))
    assert ids and not ids & with_bots


def test_the_admin_search_finds_a_players_dealt_games_and_waiting_tables():
    from django.contrib.auth import get_user_model

    from games.table import seats as services

    seed(40, "search")
    _visitor, admin = clients()
    user = get_user_model().objects.get(username="scale-00002")
    waiting = services.game_create(creator=user, target=10, seat_kinds=["me", "open", "open"])
    html = admin.get("/admin/games/game/?q=scale-00002").content.decode()
    ids = {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', html)}
    dealt = Seat.objects.filter(user=user, started_at__isnull=False).values_list("game_id")
    assert waiting.pk in ids and ids - {waiting.pk} <= {pk for (pk,) in dealt}
    assert len(ids) == min(50, len(dealt) + 1)


def test_a_broad_admin_search_looks_at_the_first_people_by_username_and_says_so(monkeypatch):
    from games.admin import games as games_admin

    seed(30, "broad", people=12)
    monkeypatch.setattr(games_admin.GameAdmin, "people_max", 3)
    _visitor, admin = clients()
    html = admin.get("/admin/games/game/?q=scale").content.decode()
    assert "More than 3 usernames match" in html
    ids = {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', html)}
    first = ["scale-00001", "scale-00002", "scale-00003"]
    theirs = set(Seat.objects.filter(user__username__in=first).values_list("game_id", flat=True))
    assert ids and ids <= theirs
    narrow = admin.get("/admin/games/game/?q=scale-00004").content.decode()
    assert "More than" not in narrow
