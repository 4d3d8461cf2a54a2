"""``/duplicate/events/<id>/``: a duplicate event between people, to join while it is open,
with your table in the deal being played, its standings and each deal's results (page and
JSON)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views import View

from games.table.errors import GameError

from .event_selectors import event_board, my_table
from .event_services import event_join, event_leave
from .models import DuplicateEvent, EventEntry


class EventView(View):
    def get(self, request, event_id: int):
        event = get_object_or_404(DuplicateEvent, pk=event_id)
        results, standings = event_board(event)
        joined = (
            request.user.is_authenticated
            and EventEntry.objects.filter(event=event, user=request.user).exists()
        )
        context = {
            "event": event,
            "results": results,
            "standings": standings,
            "joined": joined,
            "people": event.entries.filter(user__isnull=False).count(),
            "my_game": my_table(event, request.user),
        }
        return TemplateResponse(request, "duplicate/event.html", context)


class EventJoinView(LoginRequiredMixin, View):
    """Join an open event (``action=join``) or leave it before it starts (``action=leave``)."""

    def post(self, request, event_id: int):
        event = get_object_or_404(DuplicateEvent, pk=event_id)
        try:
            if request.POST.get("action") == "leave":
                event_leave(user=request.user, event_id=event.pk)
            else:
                event_join(user=request.user, event_id=event.pk)
        except GameError as error:
            messages.error(request, str(error))
        return redirect(event)


class EventJsonView(View):
    def get(self, request, event_id: int):
        event = get_object_or_404(DuplicateEvent, pk=event_id)
        results, standings = event_board(event)
        return JsonResponse(
            {
                "id": event.pk,
                "name": event.name,
                "status": event.status,
                "round": event.round,
                "deal_count": event.deals,
                "clock": event.clock,
                "standings": [
                    {
                        "place": s.place,
                        "player": s.player,
                        "bot": s.is_bot,
                        "percent": round(s.percent, 2),
                        "deals": s.results,
                    }
                    for s in standings
                ],
                "deals": [
                    {
                        "deal": group.deal,
                        "seat": group.seat,
                        "results": [
                            {
                                "player": row.player,
                                "bot": row.is_bot,
                                "game_id": row.game_id,
                                "table": row.table + 1,
                                "points": row.points,
                                "won": row.won,
                                "matchpoints": row.matchpoints,
                                "percent": round(row.percent, 2),
                            }
                            for row in group.rows
                        ],
                    }
                    for group in results
                ],
            }
        )
