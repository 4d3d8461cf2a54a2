"""The pages: home, lobby, new table, quick play, table, seats, no-JS play, records, players."""

import json
import re

import pytest
from django.utils.html import escape

from games.engine import CARD_CODES, record_json, state_from_record
from games.history.records import game_record
from games.models import Game, Play, Seat
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import can_play, hand_cards, play_out, serve_due

pytestmark = pytest.mark.django_db

WATCHING = "You are watching this game."
BOTS = ["me", "random", "random"]
NEW_TABLE = {
    "target": "15",
    "seat_left": "heuristic",
    "seat_right": "careful",
    "is_public": "public",
}


def listed(html: str, heading: str | None = None) -> set[int]:
    """Games listed on a page, or under one ``<h2>`` heading of it."""
    if heading is not None:
        html = re.search(rf"<h2>{heading}</h2>\s*<ul[^>]*>(.*?)</ul>", html, re.S).group(1)
    return {int(pk) for pk in re.findall(r'data-game="(\d+)"', html)}


def post_for_messages(client, url: str, data=None) -> list[str]:
    """POST, follow the redirect and return the messages the next page showed."""
    response = client.post(url, data or {}, follow=True)
    texts = [str(message) for message in response.context["messages"]]
    assert all(escape(text) in response.content.decode() for text in texts)
    return texts


def hand_of(game, seat: int) -> list[str]:
    return [CARD_CODES[c] for c in game_load(Game.objects.get(pk=game.pk)).state.hands[seat]]


def snapshot(game):
    return (
        Game.objects.values_list("moves", "status", "to_play").get(pk=game.pk),
        Play.objects.filter(game=game).count(),
        list(Seat.objects.filter(game=game).values_list("user_id", "score")),
    )


def create(user, kinds=("me", "open", "open"), target=10, is_public=True) -> Game:
    return services.game_create(
        creator=user, target=target, seat_kinds=list(kinds), is_public=is_public
    )


def three_humans(alice, bob, carol, target=10) -> Game:
    game = create(alice, target=target)
    for user in (bob, carol):
        services.seat_join(game_id=game.pk, user=user)
    return Game.objects.get(pk=game.pk)


def finish_against_bots(user) -> Game:
    return play_out(create(user, BOTS, target=1), user)


# -- home and lobby -------------------------------------------------------------------------


def test_home_offers_quick_play_as_a_post_form_or_a_sign_up_link(client, alice):
    html = client.get("/").content.decode()
    link = re.search(r'<a[^>]*data-action="quick-play"[^>]*>', html)
    assert link and 'href="/accounts/signup/' in link.group(0)
    assert 'action="/games/quick-play/"' not in html
    client.force_login(alice)
    html = client.get("/").content.decode()
    form = re.search(r'<form[^>]*action="/games/quick-play/"[^>]*>.*?</form>', html, re.S)
    assert form and 'method="post"' in form.group(0)
    assert 'data-action="quick-play"' in form.group(0)


def test_lobby_lists_open_running_and_watchable_tables_but_never_private_ones(
    client, alice, bob, carol
):
    open_table = create(bob, ["me", "open", "random"])
    mine = services.game_quick_play(user=alice)
    watchable = services.game_quick_play(user=bob)
    private = {create(carol, ["me", "open", "random"], is_public=False).pk}
    private.add(create(carol, BOTS, is_public=False).pk)
    finished = finish_against_bots(bob)
    client.force_login(alice)
    html = client.get("/games/").content.decode()
    assert listed(html, "Your games") == {mine.pk}
    assert listed(html, "Open tables") == {open_table.pk}
    assert listed(html, "Watch a game") == {mine.pk, watchable.pk}
    assert not private & listed(html) and finished.pk not in listed(html)
    client.logout()
    response = client.get("/games/")
    assert response.status_code == 200 and "Your games" not in response.content.decode()
    assert listed(response.content.decode()) == {open_table.pk, mine.pk, watchable.pk}


# -- creating tables ------------------------------------------------------------------------


def new_table(client, **fields):
    return client.post("/games/new/", {**NEW_TABLE, **fields})


@pytest.mark.parametrize(
    "url",
    ["games/new/", "games/quick-play/", "games/{}/join/", "games/{}/leave/", "games/{}/play/"],
)
def test_every_action_needs_a_login_and_changes_nothing_without(client, alice, url):
    game = create(alice, ["me", "open", "random"])
    before = snapshot(game), Game.objects.count()
    response = client.post("/" + url.format(game.pk), {"card": "1O", **NEW_TABLE})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert (snapshot(game), Game.objects.count()) == before
    if url == "games/new/":
        assert client.get("/" + url)["Location"].startswith("/accounts/login/")


def test_the_form_creates_a_table_with_two_bots_starts_it_and_opens_it(client, alice):
    client.force_login(alice)
    html = client.get("/games/new/").content.decode()
    for name in ("target", "other_target", "seat_left", "seat_right", "is_public"):
        assert f'name="{name}"' in html
    response = new_table(client)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.target, game.status, game.is_public) == (15, Game.Status.IN_PROGRESS, True)
    seats = list(game.seats.order_by("number").values_list("user_id", "bot"))
    assert seats == [(alice.pk, ""), (None, "heuristic"), (None, "careful")]


def test_the_form_offers_the_three_levels_and_refuses_a_retired_bot(client, alice):
    client.force_login(alice)
    html = client.get("/games/new/").content.decode()
    for bot, level in (("heuristic", "easy"), ("careful", "medium"), ("expert-v4", "hard")):
        assert f'<option value="{bot}"' in html and f"Bot: {level.capitalize()}" in html
    assert 'value="expert-v1"' not in html and 'value="random"' not in html
    assert 'value="expert-v2"' not in html and 'value="expert-v3"' not in html  # retired
    response = new_table(client, seat_left="expert-v1")
    assert response.status_code == 200 and response.context["form"].errors["seat_left"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("other", ["37", "0", "100", None])
def test_other_target_is_used_when_valid_and_is_a_form_error_otherwise(client, alice, other):
    client.force_login(alice)
    response = new_table(client, target="0", **({} if other is None else {"other_target": other}))
    if other == "37":
        assert Game.objects.get().target == 37
        return
    assert response.status_code == 200 and response.context["form"].errors["other_target"]
    assert 'class="errorlist' in response.content.decode()
    assert not Game.objects.exists()


def test_an_open_seat_makes_a_waiting_table(client, alice):
    client.force_login(alice)
    response = new_table(client, seat_right="open", is_public="private")
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.WAITING and not game.is_public


# -- quick play -----------------------------------------------------------------------------


def test_quick_play_posts_start_a_game_against_two_medium_bots_gets_are_refused(client, alice):
    client.force_login(alice)
    response = client.post("/games/quick-play/")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.IN_PROGRESS
    seats = list(game.seats.order_by("number").values_list("user_id", "bot"))
    assert seats == [(alice.pk, ""), (None, "careful"), (None, "careful")]
    assert client.get("/games/quick-play/").status_code == 405 and Game.objects.count() == 1


def test_a_page_never_plays_a_bot_the_runner_does_and_the_page_reloads_meanwhile(client, alice):
    """No GET writes: the bots' cards are the runner's. Without JavaScript the page reloads
    while others are to play, and shows the person's turn once the bot has played."""
    client.force_login(alice)
    for _ in range(30):  # a bot leads two games in three
        game = Game.objects.get(pk=int(client.post("/games/quick-play/")["Location"].split("/")[2]))
        if game.to_play != 0:
            break
    assert game.to_play != 0
    html = client.get(game.get_absolute_url()).content.decode()
    assert not can_play(html) and 'http-equiv="refresh"' in html
    assert Game.objects.get(pk=game.pk).moves == 0
    serve_due(game.pk)
    assert can_play(client.get(game.get_absolute_url()).content.decode())


def test_players_see_their_own_hand_playable_on_their_turn_spectators_none(
    client, alice, bob, carol, make_user
):
    game = three_humans(alice, bob, carol, target=15)
    for seat in game.seats.select_related("user"):
        client.force_login(seat.user)
        html = client.get(game.get_absolute_url()).content.decode()
        turn = seat.number == game.to_play
        assert sorted(hand_cards(html)) == sorted(hand_of(game, seat.number))
        buttons = re.findall(r"<button[^>]*data-card=[^>]*>", html)
        assert len(buttons) == 16
        # On your turn each card submits; otherwise a card only chooses what to play next.
        submitting = sum('type="submit" name="card"' in b for b in buttons)
        ahead = sum('type="button"' in b and "data-premove" in b for b in buttons)
        assert (submitting, ahead) == ((16, 0) if turn else (0, 16))
        assert can_play(html) == turn and f'data-your-turn="{str(turn).lower()}"' in html
        assert all(f'data-score-seat="{number}"' in html for number in range(3))
        assert "<strong>15</strong>" in html and WATCHING not in html
    for viewer in (None, make_user("dave")):
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        html = client.get(game.get_absolute_url()).content.decode()
        assert 'id="hand"' not in html and WATCHING in html and not can_play(html)
        assert "<strong>15</strong>" in html and 'data-score-seat="2"' in html


def test_a_private_table_is_hidden_from_strangers_but_not_from_its_link_or_players(
    client, alice, bob
):
    game = create(alice, BOTS, is_public=False)
    url = game.get_absolute_url()
    assert client.get(url).status_code == 404
    assert client.get(f"{url}record.json").status_code == 404
    client.force_login(bob)
    assert client.get(url).status_code == client.get(f"{url}?invite=wrong").status_code == 404
    html = client.get(f"{url}?invite={game.invite_token}").content.decode()
    assert WATCHING in html and "Invite friends" not in html
    client.force_login(alice)
    html = client.get(url).content.decode()
    assert f"http://testserver{url}?invite={game.invite_token}" in html


def test_an_htmx_request_gets_only_the_board(client, alice):
    game = services.game_quick_play(user=alice)
    client.force_login(alice)
    html = client.get(game.get_absolute_url(), headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in html and html.lstrip().startswith('<div id="board"')
    assert 'id="hand"' in html


REFRESH = 'http-equiv="refresh"'


def test_without_javascript_a_waiting_page_reloads_but_a_board_never_carries_the_reload(
    client, alice, bob, carol
):
    """The reload is for pages without JavaScript. Inside a board pushed by the socket,
    htmx would turn it into a live refresh and reload a page that is only waiting."""
    game = three_humans(alice, bob, carol)
    state = game_load(Game.objects.get(pk=game.pk)).state
    users = {seat.number: seat.user for seat in Seat.objects.filter(game=game)}
    waiting = users[(state.to_play + 1) % 3]
    client.force_login(waiting)
    page = client.get(game.get_absolute_url()).content.decode()
    assert REFRESH in page.split('id="board"')[0]  # in the head, before the board
    board = client.get(game.get_absolute_url(), headers={"HX-Request": "true"}).content.decode()
    assert REFRESH not in board
    client.force_login(users[state.to_play])
    assert REFRESH not in client.get(game.get_absolute_url()).content.decode()  # your turn


# -- seats ----------------------------------------------------------------------------------


def test_joining_takes_a_seat_and_the_last_seat_starts_the_game(client, alice, bob):
    game = create(alice, ["me", "open", "random"])
    client.force_login(bob)
    response = client.post(f"/games/{game.pk}/join/")
    assert response["Location"] == game.get_absolute_url()
    assert Seat.objects.get(game=game, number=1).user == bob
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS


def test_joining_or_leaving_a_started_table_shows_why_and_changes_nothing(
    client, alice, bob, carol, make_user
):
    game = three_humans(alice, bob, carol)
    before = snapshot(game)
    client.force_login(make_user("dave"))
    texts = post_for_messages(client, f"/games/{game.pk}/join/")
    assert texts == ["This game has already started: you can watch it instead."]
    client.force_login(bob)
    texts = post_for_messages(client, f"/games/{game.pk}/leave/")
    assert texts == ["The game has started: seats can no longer be left."]
    assert snapshot(game) == before


def test_taking_a_taken_seat_or_a_second_seat_is_refused(client, alice, bob, carol):
    game = create(alice)
    services.seat_join(game_id=game.pk, user=bob, seat_number=1)
    before = snapshot(game)
    client.force_login(carol)
    taken = post_for_messages(client, f"/games/{game.pk}/join/", {"seat": "1"})
    client.force_login(bob)
    twice = post_for_messages(client, f"/games/{game.pk}/join/", {"seat": "2"})
    assert (taken, twice) == (["That seat is taken."], ["You already have a seat at this table."])
    assert snapshot(game) == before


def test_a_refused_join_on_a_private_table_shows_its_message(client, alice, bob, carol):
    game = create(alice, is_public=False)
    services.seat_join(game_id=game.pk, user=bob, seat_number=1, invite_token=game.invite_token)
    client.force_login(carol)
    data = {"seat": "1", "invite": game.invite_token}
    response = client.post(f"/games/{game.pk}/join/", data, follow=True)
    assert response.status_code == 200 and "That seat is taken." in response.content.decode()


def test_joining_a_table_closed_before_the_start_does_not_claim_it_started(client, alice, bob):
    game = create(alice)
    services.seat_leave(game_id=game.pk, user=alice)
    client.force_login(bob)
    texts = post_for_messages(client, f"/games/{game.pk}/join/")
    assert len(texts) == 1 and "started" not in texts[0]


def test_leaving_before_the_start_frees_the_seat(client, alice, bob):
    game = create(alice)
    services.seat_join(game_id=game.pk, user=bob)
    client.force_login(bob)
    assert client.post(f"/games/{game.pk}/leave/")["Location"] == "/games/"
    assert Seat.objects.get(game=game, number=1).user is None
    assert Game.objects.get(pk=game.pk).status == Game.Status.WAITING


# -- playing without JavaScript -------------------------------------------------------------


def test_playing_a_card_lets_the_bots_answer_until_it_is_your_turn_again(client, alice):
    game = create(alice, BOTS, target=30)
    serve_due(game.pk)
    client.force_login(alice)
    for left in (15, 14, 13):
        game.refresh_from_db()
        before, card = game.moves, hand_of(game, 0)[-1]
        response = client.post(f"/games/{game.pk}/play/", {"card": card})
        assert response["Location"] == game.get_absolute_url()
        game.refresh_from_db()
        plays = list(Play.objects.filter(game=game, sequence__gte=before).order_by("sequence"))
        assert len(plays) == game.moves - before and (plays[0].seat, plays[0].card) == (0, card)
        assert all(play.seat != 0 for play in plays[1:])  # only bots answered ...
        assert game.to_play == 0  # ... until alice's turn came again
        html = client.get(game.get_absolute_url()).content.decode()
        assert can_play(html) and card not in hand_cards(html) and len(hand_cards(html)) == left


def refused_play(client, game, user, card) -> str:
    before = snapshot(game)
    client.force_login(user)
    response = client.post(f"/games/{game.pk}/play/", {"card": card}, follow=True)
    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert snapshot(game) == before
    texts = [str(message) for message in response.context["messages"]]
    assert len(texts) == 1 and escape(texts[0]) in response.content.decode()
    return texts[0]


def test_refused_plays_show_a_message_and_change_nothing(client, alice, bob, carol, make_user):
    game = three_humans(alice, bob, carol)
    users = {seat.number: seat.user for seat in game.seats.select_related("user")}
    seat, other = game.to_play, (game.to_play + 1) % 3
    assert "not your turn" in refused_play(client, game, users[other], hand_of(game, other)[0])
    text = refused_play(client, game, users[seat], hand_of(game, other)[0])
    assert text == "That card is not in your hand."
    assert "not a card" in refused_play(client, game, users[seat], "13O")
    assert "not a card" in refused_play(client, game, users[seat], "")
    assert "not seated" in refused_play(client, game, make_user("dave"), hand_of(game, seat)[0])


# -- game records ---------------------------------------------------------------------------


def test_a_waiting_game_has_no_record_and_a_running_one_a_public_one(client, alice):
    waiting = create(alice, ["me", "open", "random"])
    assert client.get(f"/games/{waiting.pk}/record.json").status_code == 404
    game = create(alice, BOTS)
    serve_due(game.pk)
    flow.play_card(game_id=game.pk, user=alice, card=hand_of(game, 0)[0])
    game.refresh_from_db()
    response = client.get(f"/games/{game.pk}/record.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    text = response.content.decode()
    assert text == record_json(game_record(game))
    record = json.loads(text)
    assert record["status"] == "in_progress" and record["winner"] is None
    assert all("deck" not in hand for hand in record["hands"])
    assert '"deck"' not in text and game.seed not in text


def test_a_finished_game_record_is_complete_and_replays(client, alice):
    game = finish_against_bots(alice)
    response = client.get(f"/games/{game.pk}/record.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.content.decode() == record_json(game_record(game))
    record = json.loads(response.content)
    assert record["status"] == "finished" and all(len(h["deck"]) == 48 for h in record["hands"])
    assert state_from_record(record).winner == record["winner"] == game.winner_seat


def test_a_table_closed_before_the_start_shows_no_deal(client, alice):
    game = create(alice)
    services.seat_leave(game_id=game.pk, user=alice)
    html = client.get(game.get_absolute_url()).content.decode()
    assert "16 cards" not in html and "Hand 1" not in html
    assert client.get(f"/games/{game.pk}/record.json").status_code == 404


# -- player pages ---------------------------------------------------------------------------


def stats(html: str) -> dict:
    """Games played, won and win rate shown on a player page (the rating is tested apart)."""
    found = dict(re.findall(r'data-stat="([\w-]+)">([^<]*)<', html))
    found.pop("rating", None)
    return found


def test_a_player_page_counts_finished_games_and_lists_recent_ones(client, alice, bob):
    finished = [finish_against_bots(alice), finish_against_bots(alice)]
    running = services.game_quick_play(user=alice)
    create(alice, ["me", "open", "random"])  # waiting: neither counted nor listed
    finish_against_bots(bob)
    won = sum(game.winner_seat == 0 for game in finished)
    html = client.get("/players/alice/").content.decode()
    assert stats(html) == {"played": "2", "won": str(won), "win-rate": f"{won * 50}%"}
    assert listed(html) == {finished[0].pk, finished[1].pk, running.pk}


def test_a_player_without_finished_games_has_no_win_rate_and_strangers_no_page(client, alice):
    assert client.get("/players/nobody/").status_code == 404
    html = client.get("/players/alice/").content.decode()
    assert stats(html) == {"played": "0", "won": "0", "win-rate": "\N{EN DASH}"}
    assert "No games yet." in html


def test_the_result_shows_each_rating_change_and_links_to_the_replay(client, alice):
    from ratings.models import RatingEvent, display_rating
    from ratings.services import game_rate

    game = finish_against_bots(alice)
    game_rate(game_id=game.pk)  # on_commit does not run inside a test transaction
    client.force_login(alice)
    html = client.get(game.get_absolute_url()).content.decode()
    result = re.search(r'<section id="game-result".*?</section>', html, re.S)[0]
    assert f'href="/games/{game.pk}/replay/"' in result and 'data-action="replay"' in result
    for event in RatingEvent.objects.filter(game=game):
        after = display_rating(event.mu_after, event.sigma_after)
        delta = after - display_rating(event.mu_before, event.sigma_before)
        row = re.search(rf'data-standing-seat="{event.seat}"[^>]*>(.*?)</li>', result, re.S)[1]
        assert f"rating {after} ({delta:+d})" in row
    assert "data-rating-pending" not in result


def test_a_rated_game_not_yet_rated_says_the_ratings_are_coming(client, alice):
    from ratings.models import RatingEvent

    game = finish_against_bots(alice)
    RatingEvent.objects.filter(game=game).delete()  # as before a runner served its aftermath
    html = client.get(game.get_absolute_url()).content.decode()
    assert "data-rating-pending" in html and "data-rating-delta" not in html


def test_the_table_page_carries_the_players_turn_sound_choice(client, alice):
    game = services.game_quick_play(user=alice)
    client.force_login(alice)
    assert 'data-turn-sound="false"' in client.get(game.get_absolute_url()).content.decode()
    alice.profile.turn_sound = True
    alice.profile.save()
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'data-turn-sound="true"' in html and 'data-turn-title="Your turn · Coins"' in html
