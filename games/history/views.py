"""Pages looking back: a player's match history and the trick-by-trick replay of a game.

The replay follows the table's rules of secrecy: every hand is shown once the game is over;
while it runs, a seated player sees only their own hand and a spectator sees none, and only
completed tricks can be stepped through.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from common.paging import page_request
from games.board.card_names import trick_why
from games.board.presenters import card_info, hand_order, played_cards, seat_identity, seat_name
from games.history import games as history
from games.history.records import auto_plays
from games.history.replay import find, positions, score_sheet, steps, target_reached
from games.models import Game
from games.signals import asked, replay_page
from games.table.chat import messages_by_trick, room_of, shown_text
from games.table.invites import table_page_game
from games.table.loading import game_load


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


# -- replay ---------------------------------------------------------------------------------

STEP_LABELS = {
    "first": ("«", gettext_lazy("First trick")),
    "prev_hand": ("▲", gettext_lazy("Previous hand")),
    "prev": ("◀", gettext_lazy("Previous trick")),
    "next": ("▶", gettext_lazy("Next trick")),
    "next_hand": ("▼", gettext_lazy("Next hand")),
    "last": ("»", gettext_lazy("Last trick")),
}


class ReplayView(View):
    template_name = "games/replay.html"

    def get(self, request, game_id: int):
        game = table_page_game(request, game_id)
        if not game.was_dealt:
            raise Http404(_("This game has not started."))
        context = replay_context(
            game,
            request.user,
            hand=_int(request.GET.get("hand")),
            trick=_int(request.GET.get("trick")),
            invite=request.GET.get("invite", ""),
        )
        htmx = getattr(request, "htmx", None)
        partial = bool(htmx) and not htmx.history_restore_request
        template = f"{self.template_name}#board" if partial else self.template_name
        response = TemplateResponse(request, template, context)
        patch_vary_headers(response, ("HX-Request",))
        return response


def replay_context(game: Game, viewer, *, hand=None, trick=None, invite: str = "") -> dict:
    """Everything the replay page shows at the position ``hand``/``trick``, for ``viewer``."""
    loaded = game_load(game)
    seat = loaded.seat_of(viewer)
    if game.is_over:
        visible = (0, 1, 2)
    elif seat is not None:
        visible = (seat.number,)
    else:
        visible = ()
    log = loaded.state.hand_log
    all_positions = positions(log, visible)
    index = find(all_positions, hand, trick)
    names = [seat_name(s) for s in loaded.seats]
    base = reverse("game_replay", args=[game.pk])

    def url_at(hand: int, trick: int) -> str:
        query = {"hand": hand, "trick": trick}
        if invite and not game.is_public:
            query["invite"] = invite
        return f"{base}?{urlencode(query)}"

    def url(position) -> str:
        return url_at(position.hand, position.trick)

    reached = target_reached(all_positions, game.target) if game.winner_seat is not None else None
    context = {
        "game": game,
        "names": names,
        "players": [_player(s, names, seat) for s in loaded.seats],
        "viewer_seat": seat.number if seat else None,
        "all_visible": len(visible) == 3,
        "count": len(all_positions),
        "position": None,
        "sheet": _sheet(log, all_positions[index] if index >= 0 else None),
        "reached": (
            {
                "hand": reached.hand,
                "trick": reached.trick,
                "name": names[reached.winner],
                "url": url(reached),
            }
            if reached
            else None
        ),
        "record_url": reverse("game_record", args=[game.pk])
        + (f"?{urlencode({'invite': invite})}" if invite and not game.is_public else ""),
        "table_url": game.get_absolute_url()
        + (f"?{urlencode({'invite': invite})}" if invite and not game.is_public else ""),
    }
    current = all_positions[index] if index >= 0 else None
    extra = asked(
        replay_page,
        game=game,
        viewer=viewer,
        viewer_seat=context["viewer_seat"],
        names=names,
        hand=current.hand if current else None,
        trick=current.trick if current else None,
        url=url_at,
    )
    sheet_notes = extra.pop("sheet_notes", {})
    card_notes = extra.pop("card_notes", {})
    for row in context["sheet"]:
        row["cells"] = [
            {"points": points, "note": (sheet_notes.get(row["number"]) or [None] * 3)[seat]}
            for seat, points in enumerate(row["points"])
        ]
    context.update(extra)
    if current is None:
        return context
    targets = steps(all_positions, index)
    context["steps"] = [
        {
            "key": key.replace("_", "-"),
            "symbol": STEP_LABELS[key][0],
            "label": str(STEP_LABELS[key][1]),
            "url": url(targets[key]) if targets[key] else "",
        }
        for key in ("first", "prev_hand", "prev", "next", "next_hand", "last")
    ]
    context["position"] = _position(current, names, loaded.seats, seat, auto_plays(game))
    for i, card in enumerate(context["position"]["cards"]):
        card["note"] = card_notes.get(i)
    context["ordinal"] = index + 1
    # While the game runs, each person reads only their own room; afterwards, both.
    rooms = None if game.is_over else (room_of(game.pk, viewer),)
    said = messages_by_trick(game.pk, viewer, rooms).get(index, [])
    context["chat"] = [{**data, "shown": shown_text(data)} for data in said]
    return context


def _player(s, names, viewer_seat) -> dict:
    return {
        **seat_identity(s, names),
        "is_you": viewer_seat is not None and viewer_seat.number == s.number,
    }


def _position(position, names, seats, viewer_seat, auto: set[int]) -> dict:
    in_trick = set(position.cards)
    hands = []
    for s in seats:
        held = position.hands[s.number]
        hands.append(
            {
                "seat": s.number,
                "name": names[s.number],
                "is_you": viewer_seat is not None and viewer_seat.number == s.number,
                "is_dealer": position.dealer == s.number,
                "is_leader": position.leader == s.number,
                "is_winner": position.winner == s.number,
                "hidden": held is None,
                "size": 17 - position.trick,
                "cards": [
                    {**card_info(card), "in_trick": card in in_trick}
                    for card in hand_order(held or ())
                ],
                "score": position.scores[s.number],
            }
        )
    viewer = viewer_seat.number if viewer_seat is not None else 0
    cards = [
        {**card, "auto": position.index * 3 + i in auto}
        for i, card in enumerate(
            played_cards(position.leader, position.cards, position.winner, names, viewer)
        )
    ]
    return {
        "hand": position.hand,
        "trick": position.trick,
        "dealer_name": names[position.dealer],
        "leader": position.leader,
        "leader_name": names[position.leader],
        "winner": position.winner,
        "winner_name": names[position.winner],
        "points": position.points,
        "why": trick_why(position.cards),  # position.why is the engine's English
        "cards": cards,
        "hands": hands,
        "scores": [{"name": names[n], "score": position.scores[n]} for n in range(3)],
    }


def _sheet(log, current) -> list[dict]:
    return [
        {
            "number": row.number,
            "dealer": row.dealer,
            "tricks": row.tricks,
            "points": row.points,
            "totals": row.totals,
            "is_current": current is not None and current.hand == row.number,
        }
        for row in score_sheet(log)
    ]


# -- history --------------------------------------------------------------------------------


class PlayerGamesView(View):
    template_name = "games/history.html"

    def get(self, request, username: str):
        player = get_object_or_404(get_user_model(), username=username)
        result = request.GET.get("result", "")
        result = result if result in history.RESULTS else ""
        opponents = request.GET.get("opponents", "")
        opponents = opponents if opponents in history.OPPONENTS else ""
        target = _int(request.GET.get("target"))
        target = target if target is not None and 1 <= target <= 99 else None
        page = history.games_page(
            player,
            request.user,
            result=result,
            opponents=opponents,
            target=target,
            **page_request(request),
        )
        viewer_id = request.user.pk if request.user.is_authenticated else None
        filters = {
            key: value
            for key, value in (("result", result), ("opponents", opponents), ("target", target))
            if value not in ("", None)
        }
        context = {
            "player": player,
            "page": page,
            "rows": [_row(game, viewer_id) for game in page.rows],
            "filters": filters,
            "result": result,
            "opponents": opponents,
            "target": target,
            "results": history.RESULTS,
            "targets": (10, 15, 20),
            "query": urlencode(filters),
            "pager": _pager(page, filters, request.GET.get("page")),
            "profile_url": reverse("player_profile", args=[player.get_username()]),
        }
        return TemplateResponse(request, self.template_name, context)


def _pager(page, filters: dict, asked: str | None = None) -> dict:
    """The links between pages of a history, each keeping the filters. Pages are reached by
    cursors; any other ``?page=`` than 1 or "last" (an old link, a number past the end, a
    negative one) gives the newest games and says so."""

    def link(**paging) -> str:
        return "?" + urlencode({**filters, **paging})

    return {
        "shown": page.has_other_pages,
        "newest": link() if not page.is_first else "",
        "newer": link(before=page.before) if page.before else "",
        "older": link(after=page.after) if page.after else "",
        "oldest": link(page="last") if not page.is_last else "",
        "fell_back": page.fell_back or asked not in (None, "", "1", "last"),
    }


def _row(game: Game, viewer_id) -> dict:
    seats = list(game.seats.all())
    names = [seat_name(s) for s in seats]
    mine = game.player_seat
    outcome = history.result_of(game)
    return {
        "game": game,
        "date": game.started_at,
        "opponents": [seat_identity(s, names) for s in seats if s.number != mine],
        "scores": [
            {"name": names[s.number], "score": s.score, "is_player": s.number == mine}
            for s in seats
        ],
        "result": outcome,
        "place": history.place_of(game, seats),
        "hands": game.hand_count,
        "tricks": game.trick_count,
        "length": history.duration_text(history.length_of(game)),
        "is_yours_running": outcome == history.RUNNING
        and viewer_id is not None
        and any(s.user_id == viewer_id for s in seats),
        "replay_url": reverse("game_replay", args=[game.pk]),
    }
