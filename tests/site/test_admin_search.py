"""Admin searches: what staff find, bounded terms, and plans served by the trigram indexes."""

import re

import pytest
from django.db import connection

from common.admin_search import (
    TERM_MAX,
    WORDS_MAX,
    people_matching,
    search_words,
    words_match,
)
from games.models import ChatMessage
from games.table import seats as services
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", password="pw-C-123"))
    return client


def listed(html: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', html)}


def test_terms_are_bounded_in_length_and_words():
    assert search_words("x" * 5000) == ["x" * TERM_MAX]
    assert search_words("a b c d e f") == ["a", "b", "c"][:WORDS_MAX]
    assert search_words('  "mary ann" lee ') == ["mary ann", "lee"]
    assert search_words("   ") == []


def test_short_words_match_the_beginning_longer_ones_anywhere(make_user):
    for name in ["alice", "malice", "bob"]:
        make_user(name)
    assert set(names(people_matching(["al"])[0])) == {"alice"}
    assert set(names(people_matching(["lic"])[0])) == {"alice", "malice"}
    assert set(names(people_matching(["ALI", "mal"])[0])) == {"malice"}  # every word, any case


def names(ids):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(pk__in=ids).values_list("username", flat=True)


def test_people_are_cut_at_the_cap_first_by_username_in_any_case(make_user):
    for name in ["carly", "carlos", "Carlo", "carla"]:
        make_user(name)
    ids, cut = people_matching(["carl"], cap=2)
    assert cut and set(names(ids)) == {"carla", "Carlo"}
    ids, cut = people_matching(["carl"], cap=4)
    assert not cut and len(ids) == 4


def test_the_user_list_finds_by_part_of_a_name_or_an_email(staff, make_user):
    make_user("alice", email="wonder@example.org")
    make_user("bob", email="builder@example.org")
    page = staff.get("/admin/auth/user/?q=lic").content.decode()
    assert "alice" in page and ">bob<" not in page
    page = staff.get("/admin/auth/user/?q=builder").content.decode()
    assert ">bob<" in page and "alice" not in page
    assert staff.get("/admin/auth/user/?q=" + "z" * 10_000).status_code == 200


def test_the_leaderboard_exclusion_autocomplete_uses_the_same_search(staff, make_user):
    make_user("alice")
    make_user("bob")
    answer = staff.get(
        "/admin/autocomplete/",
        {
            "term": "lic",
            "app_label": "ratings",
            "model_name": "leaderboardexclusion",
            "field_name": "user",
        },
    ).json()
    assert [row["text"] for row in answer["results"]] == ["alice"]


def test_games_chat_and_ratings_are_found_by_a_players_name(staff, alice, bob):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
    other = services.game_create(creator=bob, target=10, seat_kinds=["me", "open", "open"])
    assert listed(staff.get("/admin/games/game/?q=lic").content.decode()) == {game.pk}
    assert listed(staff.get("/admin/games/game/?q=bo").content.decode()) == {other.pk}
    said = ChatMessage.objects.create(
        game=game, user=alice, room="players", text="well played", moves=0
    )
    ChatMessage.objects.create(game=game, user=bob, room="players", text="thanks", moves=0)
    assert listed(staff.get("/admin/games/chatmessage/?q=PLAYED").content.decode()) == {said.pk}
    assert listed(staff.get("/admin/games/chatmessage/?q=alice").content.decode()) == {said.pk}
    mine = PlayerRating.objects.create(user=alice)
    PlayerRating.objects.create(user=bob)
    assert listed(staff.get("/admin/ratings/playerrating/?q=ali").content.decode()) == {mine.pk}


def test_engine_bots_are_found_by_name(staff):
    from games.engine.bots import LEVELS

    bot = LEVELS[0].bot
    rating = PlayerRating.objects.create(bot=bot)
    assert rating.pk in listed(staff.get(f"/admin/ratings/playerrating/?q={bot}").content.decode())


@pytest.mark.skipif(connection.vendor != "postgresql", reason="trigram indexes: PostgreSQL")
@pytest.mark.parametrize("words", [["k"], ["kal"], ["zzzq", "lo"]])
def test_the_people_search_is_served_by_the_trigram_index(words):
    """The index's expression is the one the lookups compare (``UPPER(col::text)``): with
    sequential scans priced out, the plan must be the index, whatever the term's length."""
    from django.contrib.auth import get_user_model

    query = get_user_model().objects.filter(words_match(["username", "email"], words))
    sql, params = query.values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        # only the bitmap scans (a trigram index's kind) left cheap: on tiny test tables a
        # scan of any other index would otherwise do
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "auth_user_username_trgm" in plan and "auth_user_email_trgm" in plan, plan
    assert "Seq Scan" not in plan


@pytest.mark.skipif(connection.vendor != "postgresql", reason="trigram indexes: PostgreSQL")
def test_chat_text_search_is_served_by_its_trigram_index():
    query = ChatMessage.objects.filter(words_match(["text"], ["played"])).order_by().values("pk")
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        # only the bitmap scans (a trigram index's kind) left cheap: on tiny test tables a
        # scan of any other index would otherwise do
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "games_chatmessage_text_trgm" in plan, plan


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the index is PostgreSQL's")
def test_a_one_letter_people_search_walks_the_username_order_index(make_user):
    """Nearly everyone matches one letter: the first by name come from the index in order,
    with no sort of them all."""
    from django.contrib.auth import get_user_model
    from django.db.models.functions import Upper

    query = (
        get_user_model()
        .objects.filter(words_match(["username"], ["s"]))
        .order_by(Upper("username"), "pk")
        .values_list("pk", flat=True)[:201]
    )
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")  # as on a big table: no bitmap
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "auth_user_username_upper" in plan, plan
