"""Table chat: rooms, refusals that change nothing, muting, reports, the replay and the admin."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import CARD_CODES
from games.models import ChatMessage, ChatMute, ChatReport, Game
from games.table import flow
from games.table import seats as services
from games.table.chat import (
    ChatRefused,
    chat_log,
    chat_mute,
    chat_post,
    chat_report,
    chat_unmute,
    muted_and_page_chat_stale,
    muted_at_table,
    muted_ids,
    shown_text,
)
from games.table.loading import game_load

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bots_wait(settings):
    """Bots pause: each card here is one move, the test serves the bots' one by one."""
    settings.COINS_BOT_PAUSE = 3600


@pytest.fixture
def table(alice, bob):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "random"])
    services.seat_join(game_id=game.pk, user=bob)
    return Game.objects.get(pk=game.pk)


def play(game: Game, people: dict, count: int) -> None:
    """Play ``count`` cards: bots choose, people play their lowest card."""
    for _ in range(count):
        loaded = game_load(Game.objects.get(pk=game.pk))
        seat = loaded.state.to_play
        if seat in people:
            card = CARD_CODES[min(loaded.state.hands[seat])]
            flow.play_card(game_id=game.pk, user=people[seat], card=card)
        else:
            flow.run_due(game.pk, now=timezone.now() + timedelta(hours=2))


def test_players_and_spectators_talk_in_separate_rooms(table, alice, bob, carol):
    said = chat_post(game_id=table.pk, user=alice, text="  good   luck  all ")
    assert said.room == "players" and said.text == "good luck all" and said.moves == 0
    chat_post(game_id=table.pk, user=carol, text="go bob!")
    assert [m["text"] for m in chat_log(table.pk, bob)] == ["good luck all"]
    assert [m["text"] for m in chat_log(table.pk, carol)] == ["go bob!"]
    assert [m["text"] for m in chat_log(table.pk, None)] == ["go bob!"]  # a signed-out watcher


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "Write something"),
        ("   ", "Write something"),
        (None, "Write something"),
        (42, "Write something"),
        ("x" * 201, "Keep it to 200 characters (that was 201)"),
        ("<b>hi</b>", "plain text"),
        ("look <script>alert(1)</script>", "plain text"),
        ("&lt;b&gt;", "plain text"),
        ("bell\x07", "letters, digits"),
    ],
)
def test_bad_messages_are_refused_clearly_and_change_nothing(table, alice, text, reason):
    with pytest.raises(ChatRefused, match=re.escape(reason)):
        chat_post(game_id=table.pk, user=alice, text=text)
    assert not ChatMessage.objects.exists()


def test_exactly_200_characters_and_lone_angle_brackets_are_fine(table, alice):
    chat_post(game_id=table.pk, user=alice, text="y" * 200)
    chat_post(game_id=table.pk, user=alice, text="3 > 2 and 1 < 2, fine")
    assert ChatMessage.objects.count() == 2


def test_signed_out_people_and_unknown_phrases_are_refused(table, alice):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ChatRefused, match="Log in"):
        chat_post(game_id=table.pk, user=AnonymousUser(), text="hi")
    with pytest.raises(ChatRefused, match="no such phrase"):
        chat_post(game_id=table.pk, user=alice, preset="<b>")
    assert not ChatMessage.objects.exists()


def test_writing_too_fast_is_refused_per_person(table, alice, bob):
    for n in range(3):
        chat_post(game_id=table.pk, user=alice, text=f"message {n}")
    with pytest.raises(ChatRefused, match="too fast"):
        chat_post(game_id=table.pk, user=alice, text="one more")
    chat_post(game_id=table.pk, user=bob, text="my turn to talk")  # others are not limited
    assert ChatMessage.objects.filter(user=alice).count() == 3
    ChatMessage.objects.update(created_at="2020-01-01T00:00:00Z")  # as if said long ago
    chat_post(game_id=table.pk, user=alice, text="later")


def test_preset_phrases_are_shown_in_each_readers_language(table, alice):
    chat_post(game_id=table.pk, user=alice, preset="good_game")
    data = chat_log(table.pk, alice)[0]
    assert shown_text(data) == "Good game!"
    with translation.override("es"):
        assert shown_text(data) == "¡Buena partida!"


def test_muting_hides_someone_everywhere_until_unmuted(table, alice, bob):
    chat_post(game_id=table.pk, user=bob, text="first")
    chat_post(game_id=table.pk, user=bob, text="second")
    chat_mute(user=alice, username="bob")
    assert chat_log(table.pk, alice) == []
    assert muted_at_table(table.pk, alice) == [{"username": "bob", "name": "bob", "count": 2}]
    assert len(chat_log(table.pk, bob)) == 2  # bob still sees his own words
    with pytest.raises(ChatRefused, match="yourself"):
        chat_mute(user=alice, username="alice")
    with pytest.raises(ChatRefused, match="no such player"):
        chat_mute(user=alice, username="nobody")
    chat_unmute(user=alice, username="bob")
    assert len(chat_log(table.pk, alice)) == 2


def test_reports_reach_staff_once_and_only_for_messages_one_could_read(table, alice, bob, carol):
    said = chat_post(game_id=table.pk, user=bob, text="rude words")
    chat_report(user=alice, message_id=said.pk, game_id=table.pk)
    chat_report(user=alice, message_id=str(said.pk), game_id=table.pk)
    assert ChatReport.objects.filter(message=said).count() == 1
    with pytest.raises(ChatRefused, match="your own"):
        chat_report(user=bob, message_id=said.pk, game_id=table.pk)
    with pytest.raises(ChatRefused, match="no such message"):  # players' room: not carol's
        chat_report(user=carol, message_id=said.pk, game_id=table.pk)
    with pytest.raises(ChatRefused, match="no such message"):
        chat_report(user=alice, message_id="1; DROP", game_id=table.pk)


def test_staff_see_reports_and_hide_the_message_from_every_page(client, table, alice, bob):
    from django.contrib.auth import get_user_model

    said = chat_post(game_id=table.pk, user=bob, text="something nasty")
    chat_report(user=alice, message_id=said.pk, game_id=table.pk)
    staff = get_user_model().objects.create_superuser("staff", password="pw-Coins-123")
    client.force_login(staff)
    page = client.get("/admin/games/chatreport/").content.decode()
    assert "something nasty" in page and "bob" in page
    report = ChatReport.objects.get()
    client.post(
        "/admin/games/chatreport/",
        {"action": "hide_and_resolve", "_selected_action": [report.pk]},
    )
    assert ChatMessage.objects.get().hidden and ChatReport.objects.get().resolved
    assert chat_log(table.pk, alice) == []
    client.force_login(alice)
    assert "something nasty" not in client.get(table.get_absolute_url()).content.decode()


def test_the_table_page_shows_the_room_escaped_and_its_controls(client, table, alice, bob):
    chat_post(game_id=table.pk, user=bob, text='Tom & "Jerry" <3')
    client.force_login(alice)
    html = client.get(table.get_absolute_url()).content.decode()
    chat = re.search(r'<section id="chat".*?</section>', html, re.S)[0]
    assert "Players&#x27; chat" in chat or "Players' chat" in chat
    assert "Tom &amp; &quot;Jerry&quot; &lt;3" in chat and "<3" not in chat
    assert 'data-action="mute"' in chat and 'data-action="report"' in chat
    assert 'data-chat-preset="good_game"' in chat and 'name="chat"' in chat


def test_without_javascript_chat_posts_and_refusals_show_on_the_page(client, table, alice):
    client.force_login(alice)
    response = client.post(f"/games/{table.pk}/chat/", {"chat": "hello from a form"}, follow=True)
    assert "hello from a form" in response.content.decode()
    response = client.post(f"/games/{table.pk}/chat/", {"chat": "<i>x</i>"}, follow=True)
    assert "plain text" in response.content.decode()
    assert ChatMessage.objects.count() == 1


def test_the_replay_shows_what_was_said_beside_its_trick(client, table, alice, bob, carol):
    people = {0: alice, 1: bob}
    play(table, people, 4)  # the second trick is on the table
    chat_post(game_id=table.pk, user=alice, text="nice lead")
    chat_post(game_id=table.pk, user=carol, text="watching you")
    play(table, people, 2)  # the second trick is gathered
    client.force_login(carol)
    second = client.get(f"/games/{table.pk}/replay/?hand=1&trick=2").content.decode()
    first = client.get(f"/games/{table.pk}/replay/?hand=1&trick=1").content.decode()
    # While the game runs, a spectator reads the spectators' room only.
    assert "watching you" in second and "nice lead" not in second
    assert "watching you" not in first
    flow.resign(game_id=table.pk, user=bob)
    second = client.get(f"/games/{table.pk}/replay/?hand=1&trick=2").content.decode()
    assert "nice lead" in second and "watching you" in second  # once over, both rooms


@given(
    lines=st.lists(
        st.tuples(st.sampled_from(["alice", "bob", "carol"]), st.booleans(), st.booleans()),
        max_size=8,
    ),  # (author, hidden, in the players' room)
    mutes=st.sets(st.sampled_from([("alice", "bob"), ("alice", "carol"), ("bob", "alice")])),
    viewer=st.sampled_from(["alice", "bob", None]),
    seen_at=st.integers(min_value=-1, max_value=8),  # which line the page shows last
    room=st.sampled_from(["players", "spectators"]),
)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_the_opening_statement_reads_the_mutes_and_staleness_the_orm_reads(
    table, alice, bob, carol, lines, mutes, viewer, seen_at, room
):
    """Any lines (hidden or not, by anyone, in either room), any mutes, any line the page
    shows last (or none): the one statement of a socket's opening gives the viewer's mutes
    and whether the page needs the panel as the ORM's filters give them."""
    people = {"alice": alice, "bob": bob, "carol": carol}
    ChatMessage.objects.filter(game=table).delete()
    ChatMute.objects.all().delete()
    said = ChatMessage.objects.bulk_create(
        ChatMessage(
            game=table,
            user=people[author],
            room="players" if players else "spectators",
            text="hi",
            moves=0,
            hidden=hidden,
        )
        for author, hidden, players in lines
    )
    ChatMute.objects.bulk_create(
        ChatMute(user=people[who], muted=people[whom]) for who, whom in mutes
    )
    user = people[viewer] if viewer else AnonymousUser()
    seen = said[seen_at].pk if 0 <= seen_at < len(said) else 0
    muted = muted_ids(user)
    newer = Q(id__gt=seen, hidden=False) & ~Q(user_id__in=muted)
    shown_changed = Q(id__lte=seen) & (Q(hidden=True) | Q(user_id__in=muted))
    stale = ChatMessage.objects.filter(game=table, room=room).filter(newer | shown_changed).exists()
    assert muted_and_page_chat_stale(table.pk, user, room, seen) == (muted, stale)


@given(
    lines=st.lists(
        st.tuples(st.sampled_from(["alice", "bob", "carol"]), st.booleans(), st.booleans()),
        max_size=8,
    ),
    shown=st.integers(min_value=1, max_value=6),
    room=st.sampled_from(["players", "spectators"]),
    no_profile=st.sampled_from([None, "alice", "carol"]),
)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_the_page_s_chat_statement_reads_the_lines_the_orm_reads(
    table, alice, bob, carol, monkeypatch, lines, shown, room, no_profile
):
    """Any lines (hidden or not, by anyone, in either room), a log of any length, authors
    with or without a profile: with no one muted, the page's chat is read in one statement
    written once (the authors and their profiles with it), and it is what the ORM reads."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.models import Profile
    from games.table import chat

    people = {"alice": alice, "bob": bob, "carol": carol}
    ChatMessage.objects.filter(game=table).delete()
    ChatMute.objects.all().delete()
    for name, person in people.items():
        Profile.objects.update_or_create(user=person, defaults={"display_name": name.upper()})
    if no_profile:
        Profile.objects.filter(user=people[no_profile]).delete()
    ChatMessage.objects.bulk_create(
        ChatMessage(
            game=table,
            user=people[author],
            room="players" if players else "spectators",
            text=f"line {number}",
            moves=number,
            hidden=hidden,
        )
        for number, (author, hidden, players) in enumerate(lines)
    )
    monkeypatch.setattr(chat, "LOG_LENGTH", shown)
    with CaptureQueriesContext(connection) as reads:
        log = chat_log(table.pk, alice, room=room, muted=set())
    orm = ChatMessage.objects.filter(game=table, room=room, hidden=False).select_related(
        "user__profile"
    )
    expected = [chat.message_data(line) for line in reversed(orm.order_by("-id")[:shown])]
    assert log == expected and len(reads.captured_queries) == 1
    if no_profile and any(line["username"] == no_profile for line in log):
        assert no_profile in {line["name"] for line in log}  # no display name: the username
