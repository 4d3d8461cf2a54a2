"""The replay: pure positions from the engine, the page at every trick, its steps and secrecy."""

import html as html_lib
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import CARD_CODES, GameState, deal, trick_case
from games.history.records import game_record
from games.history.replay import find, positions, score_sheet, steps, target_reached
from games.models import Game
from games.table import flow, state_cache
from games.table import seats as services
from games.table.loading import game_load

from .helpers import assert_no_hidden_cards, hidden_cards_for, section, serve_due

pytestmark = pytest.mark.django_db

TRICK = re.compile(r'<section[^>]*id="replay-trick"[^>]*>.*?</section>', re.S)


# -- helpers --------------------------------------------------------------------------------


def own_hand(game: Game, seat: int) -> list[str]:
    state = game_load(Game.objects.get(pk=game.pk)).state
    return [CARD_CODES[card] for card in state.hands[seat]]


def play_against_bots(user, target: int, bot: str = "random", moves: int | None = None) -> Game:
    """Play ``user``'s first card whenever due, until the game ends (or ``moves`` plays)."""
    game = services.game_create(creator=user, target=target, seat_kinds=["me", bot, bot])
    while True:
        serve_due(game.pk)
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS or (moves is not None and game.moves >= moves):
            return game
        flow.play_card(game_id=game.pk, user=user, card=own_hand(game, 0)[0])


def three_humans(alice, bob, carol, target: int = 10) -> Game:
    game = services.game_create(creator=alice, target=target, seat_kinds=["me", "open", "open"])
    services.seat_join(game_id=game.pk, user=bob)
    services.seat_join(game_id=game.pk, user=carol)
    game.refresh_from_db()
    return game


def play_moves(game: Game, users: dict, count: int) -> None:
    """Play ``count`` cards at a table of three people: each plays their first card."""
    for _ in range(count):
        game.refresh_from_db()
        seat = game.to_play
        flow.play_card(game_id=game.pk, user=users[seat], card=own_hand(game, seat)[0])
    game.refresh_from_db()


def trick_on(html: str) -> tuple[list[str], int, int]:
    """The cards of ``#replay-trick`` in play order, its winning seat and its leader."""
    block = TRICK.search(html).group(0)
    opening = re.match(r"<section[^>]*>", block).group(0)
    winner = int(re.search(r'data-winner-seat="(\d)"', opening).group(1))
    leader = int(re.search(r'data-leader-seat="(\d)"', opening).group(1))
    return re.findall(r'data-card="([^"]+)"', block), winner, leader


def step_urls(html: str) -> dict[str, str]:
    """The step controls that lead somewhere: data-replay -> href (hx-get must agree)."""
    urls = {}
    for tag in re.findall(r"<a[^>]*data-replay=[^>]*>", html):
        key = re.search(r'data-replay="([^"]+)"', tag).group(1)
        href = html_lib.unescape(re.search(r'href="([^"]+)"', tag).group(1))
        assert html_lib.unescape(re.search(r'hx-get="([^"]+)"', tag).group(1)) == href
        assert 'hx-target="#replay-board"' in tag and 'hx-push-url="true"' in tag
        urls[key] = href
    return urls


def replay_url(game: Game, hand=None, trick=None, **extra) -> str:
    query = {k: v for k, v in {"hand": hand, "trick": trick, **extra}.items() if v is not None}
    suffix = "&".join(f"{k}={v}" for k, v in query.items())
    return f"/games/{game.pk}/replay/" + (f"?{suffix}" if suffix else "")


def random_game(seed: int, target: int) -> GameState:
    rng = random.Random(seed)
    state = GameState(target, seed=f"replay-test-{seed}")
    while not state.is_over:
        state.play(state.to_play, rng.choice(state.legal_cards(state.to_play)))
    return state


# -- pure positions -------------------------------------------------------------------------


@pytest.mark.parametrize("seed,target", [(1, 10), (2, 20), (3, 35)])
def test_positions_follow_every_trick_and_hand_of_the_engine(seed, target):
    state = random_game(seed, target)
    log_before = [(h.number, len(h.tricks)) for h in state.hand_log]
    all_positions = positions(state.hand_log)
    tricks = [trick for hand in state.hand_log for trick in hand.tricks]
    assert len(all_positions) == len(tricks) and [p.index for p in all_positions] == list(
        range(len(tricks))
    )
    for position, trick in zip(all_positions, tricks, strict=True):
        assert (position.trick, position.leader, position.cards) == (
            trick.number,
            trick.leader,
            trick.cards,
        )
        assert (position.winner, position.points) == (trick.winner, trick.points)
        assert position.why == trick_case(trick.cards).explain(trick.cards)
        held = position.hands
        assert [len(cards) for cards in held] == [17 - position.trick] * 3
        for i, card in enumerate(position.cards):  # each card came from its player's hand
            assert card in held[(position.leader + i) % 3]
    assert all_positions[-1].scores == tuple(state.scores)
    assert max(all_positions[-1].scores) >= target
    first = all_positions[0]
    hand = state.hand_log[0]
    assert [list(cards) for cards in first.hands] == deal(hand.deck, hand.dealer)
    assert [(h.number, len(h.tricks)) for h in state.hand_log] == log_before  # untouched


def test_hidden_seats_get_no_cards_and_the_score_sheet_adds_up():
    state = random_game(4, 30)
    mine = positions(state.hand_log, visible_seats=(1,))
    assert all(p.hands[0] is None and p.hands[2] is None and p.hands[1] for p in mine)
    assert all(p.hands == (None, None, None) for p in positions(state.hand_log, ()))
    sheet = score_sheet(state.hand_log)
    assert len(sheet) == len(state.hand_log) >= 2
    assert sheet[-1].totals == tuple(state.scores)
    assert all(sum(row.points) == 12 for row in sheet[:-1])  # a full hand hands out 12 points
    all_positions = positions(state.hand_log)
    reached = target_reached(all_positions, 30)
    assert reached is all_positions[-1] and reached.winner == state.winner


def test_find_and_steps_move_by_trick_and_by_hand():
    all_positions = positions(random_game(5, 30).hand_log)
    assert find([], 1, 1) == -1
    assert find(all_positions, None, None) == 0
    assert find(all_positions, 2, 3) == 16 + 2
    assert find(all_positions, 99, 1) == len(all_positions) - 1
    assert find(all_positions, 0, 5) == 0
    assert find(all_positions, 1, 99) == 15
    at = steps(all_positions, 0)
    assert at["first"] is at["prev"] is at["prev_hand"] is None
    assert (at["next"].hand, at["next"].trick) == (1, 2)
    assert (at["next_hand"].hand, at["next_hand"].trick) == (2, 1)
    at = steps(all_positions, 16 + 4)  # hand 2, trick 5
    assert (at["prev_hand"].hand, at["prev_hand"].trick) == (2, 1)
    assert (at["prev"].hand, at["prev"].trick) == (2, 4)
    at = steps(all_positions, 16)  # hand 2, trick 1
    assert (at["prev_hand"].hand, at["prev_hand"].trick) == (1, 1)
    assert (at["prev"].hand, at["prev"].trick) == (1, 16)
    last = len(all_positions) - 1
    at = steps(all_positions, last)
    assert at["next"] is at["last"] is at["next_hand"] is None
    assert at["first"] is all_positions[0]


# -- the page -------------------------------------------------------------------------------


def test_every_trick_of_a_finished_game_replays_as_the_record_says(client, alice):
    game = play_against_bots(alice, target=12)
    record = game_record(game)
    expected = [(hand["number"], trick) for hand in record["hands"] for trick in hand["tricks"]]
    assert len(expected) > 16  # more than one hand
    scores = [0, 0, 0]
    url = replay_url(game)
    for number, trick in expected:
        response = client.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert f'data-hand="{number}" data-trick="{trick["number"]}"' in html
        cards, winner, leader = trick_on(html)
        assert (cards, winner, leader) == (trick["cards"], trick["winner"], trick["leader"])
        scores[winner] += trick["points"]
        shown = [int(s) for s in re.findall(r'data-replay-score="\d">[^<]*?(\d+)</span>', html)]
        assert shown == scores
        # every hand is shown once the game is over, and holds the card its seat played
        for i, code in enumerate(cards):
            seat = (leader + i) % 3
            block = re.search(
                rf'<div class="replay-hand[^"]*" data-seat="{seat}">(.*?)</div>\s*</div>',
                html,
                re.S,
            ).group(1)
            assert f'data-hand-card="{code}"' in block
        url = step_urls(html).get("next")
    assert url is None  # the last trick has no next step
    assert scores == record["scores"]
    assert f'href="/games/{game.pk}/record.json"' in html
    totals = [int(t) for t in re.findall(r'data-sheet-total="\d">(\d+)<', html)]
    assert totals == record["scores"]
    last_hand, last_trick = expected[-1][0], expected[-1][1]["number"]
    assert f"in hand {last_hand}, trick {last_trick}." in section(html, "score-sheet")


def test_positions_have_their_own_urls_and_htmx_gets_only_the_board(client, alice):
    while True:  # the deal is random: a game that reaches its fourth trick of hand 2
        game = play_against_bots(alice, target=12)
        record = game_record(game)
        if len(record["hands"]) > 1 and len(record["hands"][1]["tricks"]) >= 4:
            break
    second = record["hands"][1]["tricks"][2]
    response = client.get(replay_url(game, 2, 3))
    html = response.content.decode()
    assert trick_on(html)[0] == second["cards"]
    assert "<html" in html and 'src="/static/js/replay.js"' in html
    assert "HX-Request" in response["Vary"]
    urls = step_urls(html)
    assert urls["prev"] == replay_url(game, 2, 2) and urls["next"] == replay_url(game, 2, 4)
    assert urls["prev-hand"] == replay_url(game, 2, 1)
    assert urls["first"] == replay_url(game, 1, 1)
    partial = client.get(replay_url(game, 2, 3), headers={"HX-Request": "true"})
    board = partial.content.decode()
    assert "<html" not in board and board.lstrip().startswith('<div id="replay-board"')
    assert trick_on(board)[0] == second["cards"]
    restore = client.get(
        replay_url(game, 2, 3), headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    )
    assert "<html" in restore.content.decode()
    first = client.get(replay_url(game)).content.decode()
    assert trick_on(first)[0] == record["hands"][0]["tricks"][0]["cards"]
    for key in ("first", "prev", "prev-hand"):  # nowhere to go back to: shown, not linked
        assert re.search(rf'<span[^>]*data-replay="{key}"[^>]*aria-disabled="true"', first)
    for junk in ("?hand=x&trick=", "?hand=-3", "?trick=7"):
        assert client.get(f"/games/{game.pk}/replay/{junk}").status_code == 200


def test_the_query_count_does_not_grow_with_the_game(client, alice, bob):
    short = play_against_bots(alice, target=3)
    long = play_against_bots(bob, target=20)
    assert len(game_record(long)["hands"]) > len(game_record(short)["hands"])
    counts = []
    for game, hand, trick in ((short, 1, 1), (short, 1, 2), (long, 1, 3), (long, 2, 9)):
        state_cache.drop((game.pk, game.seed))  # the worst case: rebuilt from the rows
        with CaptureQueriesContext(connection) as queries:
            assert client.get(replay_url(game, hand, trick)).status_code == 200
        counts.append(len(queries))
    assert len(set(counts)) == 1 and counts[0] <= 7, counts  # 7th: the analysis (one row)


def test_waiting_and_closed_tables_have_no_replay(client, alice, bob):
    waiting = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "random"])
    assert client.get(replay_url(waiting)).status_code == 404
    services.seat_leave(game_id=waiting.pk, user=alice)  # closed before the deal
    assert client.get(replay_url(waiting)).status_code == 404
    assert client.get("/games/999999/replay/").status_code == 404


def test_private_games_follow_the_tables_rule(client, alice, bob):
    game = services.game_create(
        creator=alice, target=1, seat_kinds=["me", "random", "random"], is_public=False
    )
    serve_due(game.pk)
    assert client.get(replay_url(game)).status_code == 404
    client.force_login(bob)
    assert client.get(replay_url(game)).status_code == 404
    html = client.get(replay_url(game, invite=game.invite_token)).content.decode()
    assert f"invite={game.invite_token}" in html  # the links keep the invitation
    client.force_login(alice)
    assert client.get(replay_url(game)).status_code == 200


def test_a_running_game_shows_only_completed_tricks_and_no_hidden_card(
    client, alice, bob, carol, make_user
):
    game = three_humans(alice, bob, carol)
    users = {seat.number: seat.user for seat in game.seats.select_related("user")}
    play_moves(game, users, 3 * 5 + 2)  # five tricks done, two cards of the sixth on the table
    state = game_load(Game.objects.get(pk=game.pk)).state
    done = state.current_hand.tricks
    assert len(done) == 5 and len(state.trick) == 2
    for viewer in (None, make_user("dora"), *users.values()):
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        seat = next((n for n, u in users.items() if viewer == u), None)
        for trick in range(1, 7):
            html = client.get(replay_url(game, 1, trick)).content.decode()
            cards, winner, _leader = trick_on(html)
            shown = done[min(trick, 5) - 1]  # the unfinished sixth trick is never shown
            assert cards == [CARD_CODES[c] for c in shown.cards] and winner == shown.winner
            assert_no_hidden_cards(html, game, seat, moves=game.moves)
            for code in state.trick:  # nor the trick being played (but one's own cards)
                assert f'"{CARD_CODES[code]}"' not in TRICK.search(html).group(0)
                assert seat is not None or f'"{CARD_CODES[code]}"' not in html
            in_hands = set(re.findall(r'data-hand-card="([^"]+)"', html))
            if seat is None:
                assert not in_hands and "cards, hidden" in html
            else:
                assert in_hands and in_hands <= set(
                    CARD_CODES[c] for c in positions(state.hand_log)[min(trick, 5) - 1].hands[seat]
                )
                assert not {CARD_CODES[c] for c in hidden_cards_for(state, seat)} & in_hands
        assert 'data-replay="next"' in html and not re.search(r'<a[^>]*data-replay="next"', html)


def test_a_game_with_no_completed_trick_says_so(client, alice, bob, carol):
    game = three_humans(alice, bob, carol)
    response = client.get(replay_url(game))
    assert response.status_code == 200
    html = response.content.decode()
    assert "No trick has been completed yet." in html and 'id="replay-trick"' not in html


def test_an_abandoned_game_shows_every_hand(client, alice, bob, carol):
    game = three_humans(alice, bob, carol)
    users = {seat.number: seat.user for seat in game.seats.select_related("user")}
    play_moves(game, users, 6)
    flow.abandon(game_id=game.pk)
    html = client.get(replay_url(game, 1, 2)).content.decode()
    assert len(re.findall(r'data-hand-card="', html)) == 3 * 15
    assert "cards, hidden" not in html
