"""Template context for the table, built from one seat's view and never from the state.

Whatever a template can show comes from here, so the hidden-information boundary is this
module's input: a `SeatView`, the seat rows (names, bots, scores) and the game row.
"""

from __future__ import annotations

from django.utils import timezone

from accounts.selectors import is_bot_account, public_name
from common.urls import reverse_kept
from games.board.card_names import SUIT_NAMES, card_label, trick_why
from games.board.words import get_language
from games.board.words import gettext as _
from games.bots import LEVEL_BOTS, bot_label
from games.engine import (
    CARD_CODES,
    CARD_POINTS,
    SUIT_LETTERS,
    SeatView,
    rank_of,
    resolve_trick,
    suit_of,
)
from games.history.games import finishing_places
from games.models import Game, Seat


def card_info(card: int, language: str | None = None) -> dict:
    """What a template needs to draw one card (``language``: see ``card_label``)."""
    return {
        "code": CARD_CODES[card],
        "rank": rank_of(card),
        "suit": SUIT_LETTERS[suit_of(card)],
        "suit_name": SUIT_NAMES[suit_of(card)],
        "name": card_label(card, language),
        "points": CARD_POINTS[card] > 0,
    }


_hand_cards: dict[tuple, dict] = {}  # (card, verdict, language) -> a hand's card


def hand_card(card: int, verdict: str | None, language: str | None = None) -> dict:
    """A card of the viewer's hand as its button shows it (its verdict on the viewer's turn,
    else None): built once per card, verdict and language (a board is built every move)."""
    language = language or get_language()
    key = (card, verdict, language)
    kept = _hand_cards.get(key)
    if kept is None:
        label = _("Play the %(name)s") if verdict is not None else _("Play the %(name)s next")
        kept = _hand_cards[key] = {
            **card_info(card, language),
            "play_label": label % {"name": card_label(card, language)},
            "verdict": verdict,
        }
    return dict(kept)  # the caller's own


def hand_order(cards) -> list[int]:
    """Sort a hand by suit in cycle order, then from the highest card down (within a suit,
    a higher card is a higher int)."""
    return sorted(cards, key=lambda card: (suit_of(card), -card))


def seat_name(seat: Seat) -> str:
    if seat.is_bot:
        return seat.bot_name
    if seat.user_id is None:
        return _("Open seat")
    return public_name(seat.user)


def _position(number: int, viewer: int) -> str:
    return ("bottom", "left", "right")[(number - viewer) % 3]


def table_context(
    game: Game, seats: list[Seat], view: SeatView | None, waiting_seat: int | None = None
) -> dict:
    """Return the context of the table partials for the holder of ``view``.

    ``view`` is None while the game is waiting for players (nothing dealt yet); then
    ``waiting_seat`` is the viewer's seat, if they have taken one.
    """
    viewer = view.seat if view is not None else waiting_seat
    names = [seat_name(seat) for seat in seats]
    people = [seat for seat in seats if seat.user_id is not None]
    context = {
        "game": game,
        "viewer_seat": viewer,
        "seats": [_seat_info(seat, names, view, viewer, game.is_running) for seat in seats],
        "names": names,
        "moves": game.moves,
        "status_text": _status_text(game, view, names),
        # Leaving as the only person at a waiting table closes it: say so on the button.
        "leaving_closes": viewer is not None and len(people) == 1,
    }
    _add_clock(context, game, view)
    if game.from_queue and game.status == Game.Status.WAITING and game.queue_fill_at:
        context["queue_fill"] = int(game.queue_fill_at.timestamp() * 1000)
        left = (game.queue_fill_at - timezone.now()).total_seconds()
        context["queue_fill_seconds"] = max(0, int(left))
    if view is None:
        return context
    verdicts = _verdicts(view, game.is_running)
    language = get_language()  # once: each card's name and button is kept per language
    context.update(
        hand=[hand_card(card, verdict, language) for card, verdict in verdicts],
        play_url=reverse_kept("game_play", game.pk),
        can_play=view.my_turn and game.is_running and not seats[view.seat].stand_in,
        stood_in=view.seat is not None and bool(seats[view.seat].stand_in),
        hints_allowed=not game.is_rated and game.is_running,
        trick=_trick_cards(view, names, language),
        last_trick=_last_trick(view, names, language),
        hand_summary=_hand_summary(view, names, game.is_running),
        hand_number=view.hand_number,
        trick_number=view.trick_number,
        dealer_name=names[view.dealer],
        result=_result(game, seats, view, names),
    )
    return context


VERDICTS = ("wins", "loses", "can-win", "cannot-win")


def trick_verdict(trick, card: int, unseen) -> str:
    """Rules help, from the cards on the table alone: would ``card`` take this trick?

    Played last, the trick is decided ("wins" or "loses"); played second, it depends on the
    card still to come ("can-win" if some card not yet seen would let it win, else
    "cannot-win"); a lead can always win (no verdict).
    """
    if len(trick) == 2:
        return "wins" if resolve_trick(*trick, card)[0] == 2 else "loses"
    if len(trick) == 1:
        others = [c for c in unseen if c != card]
        return (
            "can-win"
            if any(resolve_trick(trick[0], card, c)[0] == 1 for c in others)
            else ("cannot-win")
        )
    return ""


def _verdicts(view: SeatView, running: bool) -> list[tuple[int, str | None]]:
    """The viewer's hand in order, each card with its rules-help verdict on their turn."""
    cards = hand_order(view.hand)
    if not (running and view.my_turn):
        return [(card, None) for card in cards]  # None: not now (a card may be chosen next)
    unseen = view.unseen_cards() if len(view.trick) == 1 else ()
    return [(card, trick_verdict(view.trick, card, unseen)) for card in cards]


def _add_clock(context: dict, game: Game, view: SeatView | None) -> None:
    """The server's deadline for the person to play, on their seat (pages count down)."""
    context["clock"] = game.clock
    context["clock_label"] = clock_label(game.clock)
    if view is None or game.turn_deadline is None or not game.is_running:
        return
    for seat in context["seats"]:
        if seat["is_turn"]:
            left = (game.turn_deadline - timezone.now()).total_seconds()
            seat["deadline"] = int(game.turn_deadline.timestamp() * 1000)
            seat["seconds_left"] = max(0, int(left))


def clock_label(seconds: int | None) -> str:
    if not seconds:
        return _("no clock")
    if seconds >= 86400:
        return _("a day per card")
    return _("%(seconds)d s per card") % {"seconds": seconds}


def seat_identity(seat: Seat, names: list[str]) -> dict:
    """Who sits in ``seat``, as every page names a player: name, bot level (or the BOT mark
    of a bot account, a program playing through the Bot API), profile link."""
    program = seat.user_id is not None and is_bot_account(seat.user)
    return {
        "number": seat.number,
        "name": names[seat.number],
        "is_bot": seat.is_bot or program,
        "bot_label": bot_label(seat.bot) if seat.is_bot else _("BOT") if program else "",
        "username": seat.user.get_username() if seat.user_id else "",
    }


def _seat_info(
    seat: Seat, names: list[str], view: SeatView | None, viewer: int | None, running: bool
) -> dict:
    number = seat.number
    return {
        **seat_identity(seat, names),
        "is_you": number == viewer,
        "is_empty": seat.is_empty,
        "user_id": seat.user_id,
        "score": view.scores[number] if view else 0,
        "cards_left": view.hand_sizes[number] if view else 0,
        "is_turn": bool(view) and running and view.to_play == number,  # none once it ended
        "is_dealer": bool(view) and view.dealer == number,
        "is_winner": bool(view) and view.winner == number,
        "position": _position(number, viewer if viewer is not None else 0),
        "stand_in": bool(seat.stand_in),
    }


def played_cards(
    leader: int, cards, winner, names: list[str], viewer: int, language: str | None = None
) -> list[dict]:
    """The cards of a trick in play order, each with who played it and where they sit
    (``language``: see ``card_label``)."""
    played = []
    for i, card in enumerate(cards):
        seat = (leader + i) % 3
        played.append(
            {
                **card_info(card, language),
                "seat": seat,
                "player": names[seat],
                "is_lead": i == 0,
                "is_winner": seat == winner,
                "position": _position(seat, viewer),
            }
        )
    return played


def _trick_cards(view: SeatView, names: list[str], language: str | None) -> dict:
    """The cards on the table: the current trick, or the one just won until the next lead."""
    viewer = view.seat if view.seat is not None else 0
    if view.trick:
        return {
            "complete": False,
            "number": view.trick_number,
            "cards": played_cards(view.leader, view.trick, None, names, viewer, language),
        }
    last = view.last_trick
    if last is None:
        return {"complete": False, "cards": [], "number": view.trick_number}
    return {
        "complete": True,
        "number": last.number,
        "cards": played_cards(last.leader, last.cards, last.winner, names, viewer, language),
        "winner_name": names[last.winner],
        "points": last.points,
    }


def _hand_summary(view: SeatView, names: list[str], running: bool) -> dict | None:
    """Between hands (a new hand dealt, none of its tricks won yet): the points each player
    took in the hand just over."""
    if not running or view.previous_hand is None or view.tricks:
        return None
    return {
        "number": view.hand_number - 1,
        "rows": [
            {"seat": seat, "name": names[seat], "points": points}
            for seat, points in enumerate(view.previous_hand)
        ],
    }


def _last_trick(view: SeatView, names: list[str], language: str | None) -> dict | None:
    trick = view.last_trick
    if trick is None:
        return None
    viewer = view.seat if view.seat is not None else 0
    return {
        "number": trick.number,
        "cards": played_cards(trick.leader, trick.cards, trick.winner, names, viewer, language),
        "winner": trick.winner,
        "winner_name": names[trick.winner],
        "points": trick.points,
        "why": trick_why(trick.cards, language),
    }


def place_sentence(place: int) -> str:
    return {
        1: _("You finished 1st."),
        2: _("You finished 2nd."),
        3: _("You finished 3rd."),
    }[place]


def _result(game: Game, seats: list[Seat], view: SeatView, names: list[str]) -> dict | None:
    if view.winner is None and game.status != Game.Status.ABANDONED:
        return None
    places = finishing_places(game, seats, view.scores)
    order = sorted(range(3), key=lambda seat: (places[seat], seat))
    left = {seat.number for seat in seats if seat.stand_in} | {game.abandoned_by}
    return {
        "abandoned": game.status == Game.Status.ABANDONED,
        "leaver_name": names[game.abandoned_by] if game.abandoned_by is not None else "",
        "winner": view.winner,
        "winner_name": names[view.winner] if view.winner is not None else "",
        "you_won": view.winner is not None and view.winner == view.seat,
        "your_place": place_sentence(places[view.seat]) if view.seat is not None else "",
        "again_level": _same_level(seats),
        "standings": [
            {
                "seat": seat,
                "place": places[seat],
                "name": names[seat],
                "score": view.scores[seat],
                "left": seat in left,
            }
            for seat in order
        ],
    }


def _same_level(seats: list[Seat]) -> str:
    """The level both bots of a table of one person and two bots play at ("" otherwise):
    "Play again" offers the same."""
    bots = {seat.bot for seat in seats if seat.is_bot}
    if len(bots) != 1 or sum(seat.is_bot for seat in seats) != 2:
        return ""
    (bot,) = bots
    return next((key for key, level_bot in LEVEL_BOTS.items() if level_bot == bot), "")


def _status_text(game: Game, view: SeatView | None, names: list[str]) -> str:
    if game.status == Game.Status.WAITING:
        return _("Waiting for players to sit down.")
    if game.status == Game.Status.ABANDONED:
        if not game.was_dealt:
            return _("This table was closed before the game started.")
        return _("This game was abandoned.")
    if view is None:
        return ""
    if view.winner is not None:
        if view.winner == view.seat:
            return _("You won!")
        return _("%(name)s won the game.") % {"name": names[view.winner]}
    if view.my_turn:
        return _("Your turn: play any card.") if not view.trick else _("Your turn.")
    return _("Waiting for %(name)s.") % {"name": names[view.to_play]}
