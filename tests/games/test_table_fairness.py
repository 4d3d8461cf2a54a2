"""What a table tells a player about where they stand: places as the ratings rank them, what
leaving costs before it happens, no glowing seat once a game is over, the clock and the
quick-play choices a newcomer expects, and the trick just won shown once, with its why."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.bots import LEVEL_BOTS
from games.engine import CARD_CODES
from games.models import Game
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load
from ratings.models import RatingEvent, display_rating
from ratings.services import game_rate

from .helpers import play_out, section, serve_due

pytestmark = pytest.mark.django_db


def page(client, game) -> str:
    return client.get(game.get_absolute_url()).content.decode()


def standings(html: str) -> list[tuple[int, int]]:
    """(place, seat) of each line of the result, in order."""
    return [
        (int(place), int(seat))
        for seat, place in re.findall(r'data-standing-seat="(\d)" data-place="(\d)"', html)
    ]


def test_a_leaver_is_listed_last_with_the_places_the_ratings_gave(client, alice, bob, carol):
    game = services.game_create(creator=alice, target=30, seat_kinds=["me", "open", "open"])
    for user in (bob, carol):
        services.seat_join(game_id=game.pk, user=user)
    game = Game.objects.get(pk=game.pk)
    users = {seat.number: seat.user for seat in game.seats.all()}
    while game.moves < 30:  # ten tricks, then Alice leaves
        seat = game.to_play
        card = game_load(game).state.hands[seat][0]
        flow.play_card(game_id=game.pk, user=users[seat], card=CARD_CODES[card])
        game = Game.objects.get(pk=game.pk)
    flow.resign(game_id=game.pk, user=alice)
    game_rate(game_id=game.pk)
    ranks = dict(RatingEvent.objects.filter(game=game).values_list("seat", "rank"))
    assert ranks[0] == 3

    client.force_login(alice)
    html = page(client, game)
    shown = standings(html)
    assert shown[-1] == (3, 0) and sorted(shown) == sorted((r, s) for s, r in ranks.items())
    assert "You finished 3rd." in html and "left the game" in section(html, "game-result")
    # Nobody is "to play" at an abandoned table: no glow, no badge.
    assert "is-turn" not in html and 'class="badge turn"' not in html
    client.force_login(bob)
    assert f"You finished {('1st', '2nd')[ranks[1] - 1]}." in page(client, game)


def test_a_finished_game_says_which_place_you_took(client, alice):
    game = play_out(
        services.game_create(creator=alice, target=3, seat_kinds=["me", "random", "random"]),
        alice,
    )
    game_rate(game_id=game.pk)
    client.force_login(alice)
    html = page(client, game)
    rank = RatingEvent.objects.get(game=game, seat=0).rank
    assert f"You finished {['1st', '2nd', '3rd'][rank - 1]}." in html
    assert [place for place, _ in standings(html)] == sorted(
        RatingEvent.objects.filter(game=game).values_list("rank", flat=True)
    )
    assert "is-turn" not in html


def test_what_leaving_costs_is_said_before_and_is_what_leaving_then_costs(client, alice):
    game = services.game_quick_play(user=alice)
    client.force_login(alice)
    html = page(client, game)
    said = int(re.search(r'data-leave-cost="(-?\d+)"', html)[1])
    assert said < 0 and f"changes by about {said:+d}." in html
    assert "you are rated last" in html  # the confirm question of "Leave the game"

    flow.resign(game_id=game.pk, user=alice)
    game_rate(game_id=game.pk)
    event = RatingEvent.objects.get(game=game, seat=0)
    cost = display_rating(event.mu_after, event.sigma_after) - display_rating(
        event.mu_before, event.sigma_before
    )
    assert cost == said
    assert "data-leave-cost" not in page(client, game)  # over: nothing more to lose


def test_what_leaving_costs_mid_game_counts_the_points_so_far(client, alice):
    """The page reads the seats once for the board and the leave cost: their points after
    a hand are those the rating then ranks by."""
    game = services.game_create(  # dealt from a fixed seed: the same game every run
        creator=alice, target=40, seat_kinds=["me", "random", "random"], seed="mid-game-cost"
    )
    client.force_login(alice)
    while True:
        serve_due(game.pk)
        game = Game.objects.get(pk=game.pk)
        assert game.status == Game.Status.IN_PROGRESS
        scores = list(game.seats.order_by("number").values_list("score", flat=True))
        if game.to_play == 0 and scores[1] != scores[2]:  # a hand over, its points uneven
            break
        if game.to_play == 0:
            flow.play_card(game_id=game.pk, user=alice, card=hand_of(page(client, game))[0])
    html = page(client, game)
    said = int(re.search(r'data-leave-cost="(-?\d+)"', html)[1])
    flow.resign(game_id=game.pk, user=alice)
    game_rate(game_id=game.pk)
    event = RatingEvent.objects.get(game=game, seat=0)
    assert said == display_rating(event.mu_after, event.sigma_after) - display_rating(
        event.mu_before, event.sigma_before
    )
    ranks = dict(RatingEvent.objects.filter(game=game).values_list("seat", "rank"))
    assert ranks[0] == 3 and (ranks[1] < ranks[2]) == (scores[1] > scores[2])


def test_a_new_game_s_page_reads_its_game_and_seats_once(client, alice):
    """Every "Play now" loads the new game's page; the board, the leave cost and the chat
    room each read the game and its seats again (13 statements where 10 do)."""
    game = services.game_quick_play(user=alice)
    client.force_login(alice)
    page(client, game)  # the session's first look, as any
    with CaptureQueriesContext(connection) as seen:
        html = page(client, game)
    assert "data-leave-cost" in html and 'data-room="players"' in html

    def reading(table: str) -> list[str]:
        found = re.compile(rf'FROM "?{table}"?\b')
        return [q["sql"] for q in seen.captured_queries if found.search(q["sql"])]

    assert len(reading("games_game")) == 1 and len(reading("games_seat")) <= 1  # or cached
    assert len(seen.captured_queries) <= 10


def test_casual_games_and_spectators_are_told_no_rating_cost(client, alice, bob):
    casual = services.game_create(
        creator=alice, target=10, seat_kinds=["me", "random", "random"], is_rated=False
    )
    client.force_login(alice)
    html = page(client, casual)
    assert "data-leave-cost" not in html and "you are rated last" not in html
    assert "It ends for everyone." in html
    rated = services.game_quick_play(user=alice)
    client.force_login(bob)
    assert "data-leave-cost" not in page(client, rated)


@pytest.mark.parametrize(
    ("right", "clock", "expected"),
    [
        ("careful", "auto", None),  # two bots: nobody to wait for
        ("open", "auto", 30),  # a person may sit there: the clock keeps the game moving
        ("careful", "10", 10),  # a clock chosen is a clock given
        ("open", "", None),
    ],
)
def test_the_new_table_clock_is_automatic_none_against_bots(client, alice, right, clock, expected):
    client.force_login(alice)
    form = client.get("/games/new/").content.decode()
    assert re.search(r'<option value="auto" selected>', form)
    client.post(
        "/games/new/",
        {
            "target": "10",
            "seat_left": "careful",
            "seat_right": right,
            "is_public": "public",
            "clock": clock,
        },
    )
    assert Game.objects.get().clock == expected


@pytest.mark.parametrize(
    ("fields", "target", "bot"),
    [
        ({}, 10, LEVEL_BOTS["medium"]),  # the home page's button: no choices sent
        ({"target": "20", "level": "hard"}, 20, LEVEL_BOTS["hard"]),
        ({"target": "15", "level": "easy"}, 15, LEVEL_BOTS["easy"]),
        ({"target": "7", "level": "medium"}, 7, LEVEL_BOTS["medium"]),  # "play again" at 7
    ],
)
def test_quick_play_honours_the_target_and_the_level_chosen(client, alice, fields, target, bot):
    client.force_login(alice)
    lobby = client.get("/games/").content.decode()
    quick = re.search(r'<form[^>]*class="quick-play.*?</form>', lobby, re.S)[0]
    assert 'name="target"' in quick and 'name="level"' in quick
    client.post("/games/quick-play/", fields)
    game = Game.objects.get()
    assert game.target == target
    assert sorted(game.seats.exclude(bot="").values_list("bot", flat=True)) == [bot, bot]


@pytest.mark.parametrize("fields", [{"level": "expert-v1"}, {"target": "0"}, {"target": "x"}])
def test_quick_play_refuses_what_the_lists_do_not_offer_and_makes_nothing(client, alice, fields):
    client.force_login(alice)
    response = client.post("/games/quick-play/", fields, follow=True)
    assert "Choose a target and a level from the lists." in response.content.decode()
    assert not Game.objects.exists()


def test_play_again_offers_the_same_target_and_level(client, alice):
    game = play_out(
        services.game_create(creator=alice, target=3, seat_kinds=["me", "heuristic", "heuristic"]),
        alice,
    )
    client.force_login(alice)
    again = re.search(
        r'<form[^>]*action="/games/quick-play/".*?</form>',
        section(page(client, game), "game-result"),
        re.S,
    )[0]
    assert 'name="target" value="3"' in again and 'name="level" value="easy"' in again


def test_the_trick_just_won_is_shown_once_with_why_it_was_won(client, alice):
    game = services.game_create(
        creator=alice, target=10, seat_kinds=["me", "random", "random"], is_rated=False
    )
    client.force_login(alice)
    for _ in range(60):  # until the trick on the table is a finished one (Alice to lead)
        serve_due(game.pk)
        html = page(client, game)
        if 'class="trick complete' in html and 'data-your-turn="true"' in html:
            break
        card = re.findall(r'data-card="([^"]+)"', section(html, "hand"))[0]
        flow.play_card(game_id=game.pk, user=alice, card=card)
    trick = section(html, "trick")
    assert 'class="trick-result"' in trick and 'class="why"' in trick
    assert re.search(r'<span class="why">[^<]{20,}</span>', trick)  # the trick case, in words
    assert 'id="last-trick"' not in html  # not a second time beside it


def hand_of(html: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', section(html, "hand"))


def test_between_hands_the_table_sums_up_the_hand_just_over(client, alice):
    game = services.game_create(
        creator=alice, target=40, seat_kinds=["me", "random", "random"], is_rated=False
    )
    client.force_login(alice)
    summaries = []
    while Game.objects.get(pk=game.pk).moves < 52:  # a whole hand and a trick of the next
        serve_due(game.pk)
        game = Game.objects.get(pk=game.pk)
        html = page(client, game)
        found = re.search(r'data-hand-summary="(\d+)"(.*?)</p>', html, re.S)
        summaries.append((game.moves, found and found[1], found and found[2]))
        if game.to_play == 0:
            flow.play_card(game_id=game.pk, user=alice, card=hand_of(html)[0])
    state = game_load(Game.objects.get(pk=game.pk)).state
    points = [0, 0, 0]
    for trick in state.hand_log[0].tricks:
        points[trick.winner] += trick.points
    shown = [(moves, text) for moves, number, text in summaries if number]
    assert shown and all(48 <= moves < 51 for moves, _ in shown)  # until hand 2's first trick
    for seat, value in enumerate(points):
        pattern = rf'data-hand-points-seat="{seat}">[^<]+<strong>\+{value}</strong>'
        assert re.search(pattern, shown[0][1])
    assert sum(points) == 12 and all(number in (None, "1") for _, number, _ in summaries)


def test_the_lobby_puts_the_tables_where_it_is_your_turn_first(client, alice, bob):
    waiting_on_bob = services.game_create(
        creator=bob, target=10, seat_kinds=["me", "open", "random"]
    )
    services.seat_join(game_id=waiting_on_bob.pk, user=alice)
    mine = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    serve_due(mine.pk)  # the bots play until it is Alice's turn
    serve_due(waiting_on_bob.pk)
    games = {game.pk: game for game in Game.objects.all()}
    client.force_login(alice)
    lobby = client.get("/games/").content.decode()
    yours = re.search(r"<h2>Your games</h2>(.*?)</ul>", lobby, re.S)[1]
    rows = re.findall(r'<li class="game-row( my-turn)?" data-game="(\d+)"', yours)
    turn = {int(pk): bool(flag) for flag, pk in rows}
    assert sorted(turn) == sorted(games)
    for pk, game in games.items():
        seat = game.seats.get(user=alice).number
        assert turn[pk] == (game.to_play == seat), pk
    assert [flag for flag, _ in rows] == sorted((flag for flag, _ in rows), reverse=True)


def test_the_history_says_which_place_a_lost_game_took(client, alice):
    game = play_out(
        services.game_create(creator=alice, target=3, seat_kinds=["me", "random", "random"]),
        alice,
    )
    game_rate(game_id=game.pk)
    rank = RatingEvent.objects.get(game=game, seat=0).rank
    html = client.get("/players/alice/games/").content.decode()
    cell = re.search(r'<td class="result-(\w+)" data-place="(\d)">(.*?)</td>', html, re.S)
    assert int(cell[2]) == rank
    if rank > 1:
        assert cell[1] == "lost" and ("2nd" if rank == 2 else "3rd") in cell[3]
    else:
        assert cell[1] == "won"
