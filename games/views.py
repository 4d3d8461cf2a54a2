"""Pages of the site; views stay thin and read through selectors and services."""

from django.views.generic import TemplateView

from .engine import SUIT_NAMES
from .engine.cards import SUIT_LETTERS


class HomeView(TemplateView):
    template_name = "games/home.html"


class RulesView(TemplateView):
    template_name = "games/rules.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["suits"] = list(zip(SUIT_LETTERS, SUIT_NAMES, strict=True))
        return context
