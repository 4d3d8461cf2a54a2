"""``/learn/``: a thin view over the lesson. The learner's progress lives in their session
(signed in or not); each request replays it with the engine, so what the page shows is
always rebuilt from the cards the server stored."""

from __future__ import annotations

from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views import View

from games.board.refusals import refusal_text
from games.engine import IllegalPlay
from games.tutorial.lesson import OutOfStep, advance, lesson_at, progress_from
from games.tutorial.page import learn_context

SESSION_KEY = "learn"


class LearnView(View):
    template_name = "games/learn.html"

    def get(self, request):
        return self.page(request, progress_from(request.session.get(SESSION_KEY)))

    def post(self, request):
        progress = progress_from(request.session.get(SESSION_KEY))
        data = request.POST
        action = "card" if "card" in data else data.get("action", "")
        at = data.get("at")
        if action != "restart" and at is not None and at != str(progress.version):
            # A form from an earlier step (a double click, the back button): show where
            # the lesson is now, change nothing.
            return self.page(request, progress, moved=True)
        try:
            progress = advance(progress, action, data.get("card"))
        except IllegalPlay as error:
            return self.page(request, progress, error=refusal_text(error), status=400)
        except OutOfStep:
            error = _("That is not possible at this step of the lesson.")
            return self.page(request, progress, error=error, status=400)
        request.session[SESSION_KEY] = progress.to_data()
        if not request.htmx:
            return redirect("learn")  # without JavaScript: post, then get
        return self.page(request, progress, moved=True)

    def page(self, request, progress, *, moved=False, error="", status=200):
        """The whole page, or only the lesson for htmx (which swaps it in place; its
        refusals come with status 200, as htmx swaps no error responses)."""
        context = learn_context(lesson_at(progress))
        context.update(moved=moved, error=error)
        partial = bool(request.htmx) and not request.htmx.history_restore_request
        template = f"{self.template_name}#lesson" if partial else self.template_name
        response = TemplateResponse(request, template, context, status=200 if partial else status)
        patch_vary_headers(response, ("HX-Request",))
        return response
