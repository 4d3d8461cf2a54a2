"""Friends' pages: the people you follow and where they are, following from a player's
page, and inviting a friend to a table (thin: ``services`` does the work)."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import View
from django.views.generic import FormView

from games.table.errors import GameError

from . import services
from .forms import TableInviteForm


def panel_context(user) -> dict:
    return {
        "friends": services.following_of(user),
        "invitations": services.invitations_for(user),
    }


class FriendsView(LoginRequiredMixin, View):
    """The whole page, or (``?panel=1``, the lobby's refresh) its panel alone."""

    def get(self, request):
        context = panel_context(request.user)
        if request.GET.get("panel"):
            return render(request, "friends/friends.html#panel", context)
        return render(request, "friends/friends.html", context)


def _back(request, fallback: str) -> HttpResponseRedirect:
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return redirect(target if target and safe else fallback)


class FollowView(LoginRequiredMixin, View):
    follow = True

    def post(self, request):
        username = request.POST.get("username", "")
        try:
            if self.follow:
                services.follow(user=request.user, username=username)
            else:
                services.unfollow(user=request.user, username=username)
        except services.FriendRefused as refusal:
            messages.error(request, str(refusal))
            return _back(request, reverse("friends"))
        return _back(request, reverse("player_profile", args=[username]))


class InviteView(LoginRequiredMixin, FormView):
    template_name = "friends/invite.html"
    form_class = TableInviteForm

    def dispatch(self, request, *args, username: str, **kwargs):
        self.username = username
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["invited"] = self.username
        context["friends"] = [f for f in services.following_of(self.request.user) if f.mutual]
        context["friend"] = next(
            (f for f in context["friends"] if f.user.get_username() == self.username), None
        )
        return context

    def form_valid(self, form):
        try:
            game = services.invite_to_new_table(
                sender=self.request.user,
                username=self.username,
                target=form.cleaned_data["target"],
                clock=form.cleaned_data["clock"],
                third_seat=form.cleaned_data["seat_right"],
                rated=form.cleaned_data["is_rated"],
            )
        except (services.FriendRefused, GameError) as refusal:
            form.add_error(None, str(refusal))
            return self.form_invalid(form)
        return redirect(game)


class DeclineView(LoginRequiredMixin, View):
    def post(self, request, invite_id: int):
        try:
            services.decline(user=request.user, invite_id=invite_id)
        except services.FriendRefused as refusal:
            messages.error(request, str(refusal))
        return _back(request, reverse("friends"))
