"""Challenges on the site: a person sees the challenges made to them (``/challenges/``, and
the lobby's panel, refreshed with htmx) and accepts (to the table) or declines them; works
without JavaScript. The API's programs answer through ``botapi.views`` instead."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect, render
from django.views import View

from .challenges import challenge_accept, challenge_close, incoming_for
from .http import ApiError

TEMPLATE = "botapi/challenges.html"


class ChallengesView(LoginRequiredMixin, View):
    """The page, or (``?panel=1``, the lobby's refresh) its panel alone."""

    def get(self, request):
        context = {"challenges": incoming_for(request.user)}
        template = f"{TEMPLATE}#challenges-panel" if request.GET.get("panel") else TEMPLATE
        return render(request, template, context)


class ChallengeAnswerView(LoginRequiredMixin, View):
    accept = True

    def post(self, request, challenge_id: int):
        try:
            if self.accept:
                game = challenge_accept(user=request.user, challenge_id=challenge_id)
                return redirect(game)
            challenge_close(user=request.user, challenge_id=challenge_id, side="challenged")
        except ApiError as refusal:
            messages.error(request, str(refusal))
        return redirect("challenges")
