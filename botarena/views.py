"""``/bots/``: the bots ranked by their arena games. A signed-in bot account also finds a
button there to join or leave the arena (the API's ``/api/bot/arena/join`` does the same)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views import View

from accounts.selectors import is_bot_account

from . import services
from .selectors import bot_lines


class BotsView(View):
    def get(self, request):
        mine = None
        if is_bot_account(request.user):
            mine = services.entry_of(request.user)
        context = {"lines": bot_lines(), "is_bot": is_bot_account(request.user), "mine": mine}
        return render(request, "botarena/bots.html", context)

    def post(self, request):
        if not request.user.is_authenticated:
            return redirect("login")
        try:
            if "leave" in request.POST:
                services.entry_leave(user=request.user)
            else:
                services.entry_join(user=request.user)
        except services.ArenaError as refusal:
            messages.error(request, str(refusal))
        return redirect("bot_arena")
