"""Challenges on the site: a person sees the challenges made to them (``/challenges/``, and
the lobby's panel, refreshed with htmx) and accepts (to the table) or declines them; works
without JavaScript. The API's programs answer through ``botapi.views`` instead."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from .challenges import (
    challenge_accept,
    challenge_close,
    challenge_create,
    incoming_for,
    sent_by,
    status_of,
)
from .forms import ChallengeForm
from .http import ApiError

TEMPLATE = "botapi/challenges.html"


class ChallengesView(LoginRequiredMixin, View):
    """The page, or (``?panel=1``, the lobby's refresh) its panel alone."""

    def get(self, request):
        sent = sent_by(request.user)
        for challenge in sent:
            challenge.now_status = status_of(challenge)
        context = {"challenges": incoming_for(request.user), "sent": sent}
        template = f"{TEMPLATE}#challenges-panel" if request.GET.get("panel") else TEMPLATE
        return render(request, template, context)


class ChallengeSendView(LoginRequiredMixin, View):
    """A person challenges ``username`` (a bot account's player page has the form)."""

    def post(self, request, username: str):
        form = ChallengeForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Check the challenge's options."))
            return redirect("player_profile", username)
        try:
            challenge_create(challenger=request.user, username=username, data=form.challenge_data())
        except ApiError as refusal:
            messages.error(request, str(refusal))
            return redirect("player_profile", username)
        messages.success(
            request,
            _("Challenge sent to %(name)s: it is open for 10 minutes.") % {"name": username},
        )
        return redirect("challenges")


class ChallengeAnswerView(LoginRequiredMixin, View):
    """The challenged accepts (to the table) or declines; the challenger (``cancel``) takes
    it back."""

    accept = True
    cancel = False

    def post(self, request, challenge_id: int):
        try:
            if self.cancel:
                challenge_close(user=request.user, challenge_id=challenge_id, side="challenger")
            elif self.accept:
                game = challenge_accept(user=request.user, challenge_id=challenge_id)
                return redirect(game)
            challenge_close(user=request.user, challenge_id=challenge_id, side="challenged")
        except ApiError as refusal:
            messages.error(request, str(refusal))
        return redirect("challenges")
