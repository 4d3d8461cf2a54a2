"""``/tournaments/``: the list, a tournament's page (its standings and your table, one
partial: pushed over its socket, polled by htmx while the socket is not open), joining and
leaving."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views import View

from .live import live_context
from .models import Tournament
from .services import TournamentError, entry_join, entry_leave

LIST_LENGTH = 50


class ListView(View):
    def get(self, request):
        live = Tournament.objects.filter(
            status__in=(Tournament.Status.UPCOMING, Tournament.Status.RUNNING)
        ).order_by("starts_at", "pk")
        past = Tournament.objects.filter(
            status__in=(Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
        )[:LIST_LENGTH]
        return TemplateResponse(request, "tournaments/list.html", {"live": live, "past": past})


class DetailView(View):
    def get(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        context = live_context(tournament, request.user)
        template = "tournaments/detail.html"
        if request.htmx:
            template += "#live"
        return TemplateResponse(request, template, context)


class JoinView(LoginRequiredMixin, View):
    def post(self, request, pk: int):
        try:
            entry_join(tournament_id=pk, user=request.user)
        except TournamentError as error:
            messages.error(request, str(error))
        return redirect("tournament", pk=pk)


class LeaveView(LoginRequiredMixin, View):
    def post(self, request, pk: int):
        try:
            entry_leave(tournament_id=pk, user=request.user)
        except TournamentError as error:
            messages.error(request, str(error))
        return redirect("tournament", pk=pk)
