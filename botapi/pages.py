"""``/account/tokens/``: make, list and revoke personal API tokens (works without JavaScript;
with htmx, the form and the list are swapped in place)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from .forms import TokenForm
from .tokens import TokenRefused, token_create, token_revoke, tokens_of

TEMPLATE = "botapi/tokens.html"


class TokensView(LoginRequiredMixin, View):
    def get(self, request):
        return self.page(request, TokenForm())

    def post(self, request):
        if "revoke" in request.POST:
            if token_revoke(user=request.user, token_id=request.POST["revoke"]):
                messages.success(request, _("The token is revoked: it no longer works."))
            if request.htmx:
                return self.page(request, TokenForm())
            return redirect("api_tokens")
        form = TokenForm(request.POST)
        new = None
        if form.is_valid():
            try:
                new = token_create(
                    user=request.user,
                    name=form.cleaned_data["name"],
                    scopes=form.cleaned_data["scopes"],
                )
            except TokenRefused as refusal:
                form.add_error(None, str(refusal))
            else:
                form = TokenForm()
        return self.page(request, form, new_secret=new.secret if new else "")

    def page(self, request, form, new_secret: str = ""):
        context = {"form": form, "tokens": tokens_of(request.user), "new_secret": new_secret}
        template = f"{TEMPLATE}#tokens-panel" if request.htmx else TEMPLATE
        response = render(request, template, context)
        response["Cache-Control"] = "no-store"  # a new token is on this page once
        return response
