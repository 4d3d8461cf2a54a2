"""Helpers for the games tests: reading boards and checking them for hidden cards."""

from __future__ import annotations

import re
from datetime import timedelta

from games.engine import CARD_CODES, GameState, card_name, parse_card
from games.models import Game, Hand, Play
from lab.benchmarks.bursts import at_once as burst

MOVES = re.compile(r'id="board"[^>]*data-moves="(\d+)"')


def section(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` up to its closing tag (sections only)."""
    match = re.search(rf'<(section|aside)[^>]*id="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    return match.group(2) if match else ""


def hand_cards(html: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', section(html, "hand"))


def can_play(html: str) -> bool:
    return 'data-your-turn="true"' in html


def board_moves(html: str) -> int | None:
    match = MOVES.search(html)
    return int(match.group(1)) if match else None


def state_after(game: Game, moves: int) -> GameState:
    """Rebuild the game as it was after ``moves`` plays, from its rows."""
    hands = list(Hand.objects.filter(game=game).order_by("number").values_list("deck", flat=True))
    state = GameState(
        game.target,
        seed=game.seed,
        first_dealer=game.first_dealer,
        decks=[tuple(parse_card(code) for code in deck) for deck in hands],
    )
    for seat, card in (
        Play.objects.filter(game=game, sequence__lt=moves)
        .order_by("sequence")
        .values_list("seat", "card")
    ):
        state.play(seat, card)
    return state


def hidden_cards_for(state: GameState, seat: int | None) -> set[int]:
    """Cards held by the seats other than ``seat`` that the viewer may not know of."""
    public = set(state.trick)
    if state.last_trick:
        public |= set(state.last_trick.cards)
    hidden = {c for other in range(3) if other != seat for c in state.hands[other]}
    return hidden - public


def assert_no_hidden_cards(text: str, game: Game, seat: int | None, moves: int | None = None):
    """Fail if ``text`` (sent to ``seat``) names any card another seat still held then."""
    game.refresh_from_db()
    if moves is None:
        moves = board_moves(text)
    state = state_after(game, game.moves if moves is None else moves)
    for card in hidden_cards_for(state, seat):
        code, name = CARD_CODES[card], card_name(card)
        assert f'"{code}"' not in text and f">{code}<" not in text, (code, seat, moves)
        assert name not in text, (name, seat, moves)


def serve_due(game_id: int, later: timedelta = timedelta(0)) -> int:
    """Do all the table's schedule says is due (``later`` from now), as a runner would:
    bots' cards, cards for people whose clock ran out, a finished game's aftermath.
    Return how many things were done."""
    from django.utils import timezone

    from games.table import flow
    from games.table.thinking import choose

    done = 0
    while True:
        outcome = flow.run_due(game_id, now=timezone.now() + later)
        if outcome is False:
            return done
        done += 1
        if isinstance(outcome, flow.Thinking):
            card = choose(outcome.level, outcome.seed, outcome.view)
            flow.play_thought(game_id=game_id, expected_moves=outcome.moves, card=card)


def play_out(game: Game, user) -> Game:
    """Finish ``game`` (``user`` in seat 0, bots elsewhere): bots answer, ``user`` plays its
    first card each turn. Return the game as it ended."""
    from games.engine import NotYourTurn
    from games.table import flow
    from games.table.loading import game_load

    while True:
        serve_due(game.pk)
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS:
            return game
        state = game_load(game).state
        if state.to_play != 0:  # a bot's pause: serve its card as if the pause were over
            serve_due(game.pk, later=timedelta(minutes=1))
            continue
        hand = state.hands[0]
        try:
            flow.play_card(game_id=game.pk, user=user, card=CARD_CODES[hand[0]])
        except NotYourTurn:  # a server's runner is serving this table too: it moved first
            continue


def at_once(*calls) -> list:
    """``lab.benchmarks.bursts.at_once`` for calls given one by one."""
    return burst(list(calls))
