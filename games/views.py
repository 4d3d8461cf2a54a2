"""Pages: thin views that call selectors to read and services to write."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from accounts.selectors import wants_turn_sound
from games.board.refusals import refusal_text
from games.board.render import viewer_context
from games.board.rules_page import rules_context
from games.engine import IllegalPlay, record_json
from games.forms import FindGameForm, GameCreateForm, QuickPlayForm
from games.history import games as history
from games.history import queries as selectors
from games.history.records import game_record
from games.models import Game
from games.realtime.push import announce_chat
from games.signals import asked, leaving_cost_of, player_page
from games.table import chat, flow, matchmaking, rematch
from games.table import seats as services
from games.table.chat import chat_context
from games.table.errors import TableMovedOn
from games.table.invites import invite_of, table_page_game
from games.table.loading import game_load
from games.table.reactions import reaction_choices


class HomeView(TemplateView):
    template_name = "games/home.html"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "find_form": FindGameForm()}


class RulesView(TemplateView):
    template_name = "games/rules.html"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), **rules_context()}


class LobbyView(TemplateView):
    template_name = "games/lobby.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["find_form"] = FindGameForm()
        context["quick_form"] = QuickPlayForm()
        context["open_tables"] = selectors.open_tables()[:50]
        context["watchable"] = selectors.watchable_games()[:50]
        user = self.request.user
        context["my_games"] = selectors.running_games_of(user)[:50] if user.is_authenticated else []
        return context


class GameCreateView(LoginRequiredMixin, FormView):
    template_name = "games/new.html"
    form_class = GameCreateForm

    def form_valid(self, form):
        try:
            game = services.game_create(
                creator=self.request.user,
                target=form.cleaned_data["target"],
                seat_kinds=form.seat_kinds(),
                is_public=form.cleaned_data["is_public"],
                is_rated=form.cleaned_data["is_rated"],
                clock=form.cleaned_data["clock"],
            )
        except services.GameError as error:  # a per-person limit
            form.add_error(None, str(error))
            return self.form_invalid(form)
        return redirect(game)


class QuickPlayView(LoginRequiredMixin, View):
    def post(self, request):
        form = QuickPlayForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose a target and a level from the lists."))
            return redirect("lobby")
        try:
            game = services.game_quick_play(
                user=request.user, bot=form.bot(), target=form.cleaned_data["target"]
            )
        except services.GameError as error:
            messages.error(request, str(error))
            return redirect("lobby")
        return redirect(game)


class FindGameView(LoginRequiredMixin, View):
    """Join the find-a-game queue: a seat at a table with the same options, at once."""

    def post(self, request):
        form = FindGameForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose a target, a speed and a wait from the lists."))
            return redirect("lobby")
        try:
            game = matchmaking.find_game(user=request.user, **form.cleaned_data)
        except services.GameError as error:
            messages.error(request, str(error))
            return redirect("lobby")
        return redirect(game)


class TableView(View):
    template_name = "games/table.html"

    def get(self, request, game_id: int):
        from django.template.response import TemplateResponse

        game = table_page_game(request, game_id)  # reads only: the runner plays due bots
        # Read once for the board, the leave cost and the chat room: each of them read the
        # seats again, and the page of every new game is in a wave of games' ends.
        loaded = game_load(game) if game.was_dealt else None
        context = viewer_context(game, request, loaded=loaded)
        context["turn_sound"] = wants_turn_sound(request.user)  # the page's, not the board's
        context["leave_cost"] = leave_cost(game, context, loaded)
        room = chat.room_for(seated=context["viewer_is_seated"])
        context.update(chat_context(game.pk, request.user, room=room))
        context["reactions"] = reaction_choices()
        template = "games/table.html#board" if request.htmx else self.template_name
        return TemplateResponse(request, template, context)


def leave_cost(game, context: dict, loaded=None) -> int | None:
    """What leaving would cost the viewer's rating, said before they leave (None: nothing,
    or not a seated person in a running rated game). ``loaded``: the game and its seats as
    the page read them, so that the answer reads only the ratings."""
    seat = context.get("viewer_seat")
    if seat is None or not game.is_rated or not game.is_running or context.get("stood_in"):
        return None
    seats = loaded.seats if loaded is not None else None
    return asked(leaving_cost_of, game_id=game.pk, seat=seat, game=game, seats=seats).get("delta")


class SeatActionView(LoginRequiredMixin, View):
    """Join or leave a seat before the game starts."""

    action = "join"

    def post(self, request, game_id: int):
        game = table_page_game(request, game_id)
        try:
            if self.action == "join":
                seat = request.POST.get("seat")
                services.seat_join(
                    game_id=game.pk,
                    user=request.user,
                    seat_number=int(seat) if seat and seat.isdigit() else None,
                    invite_token=invite_of(request, game),
                )
            else:
                left = services.seat_leave(game_id=game.pk, user=request.user)
        except services.GameError as error:
            messages.error(request, str(error))
        else:
            if self.action == "leave":
                closed = left.status == Game.Status.ABANDONED
                messages.info(
                    request, _("You closed the table.") if closed else _("You left the table.")
                )
                return redirect("lobby")
        invite = invite_of(request, game)
        if invite:
            return redirect(f"{game.get_absolute_url()}?invite={invite}")
        return redirect(game)


class ResignView(LoginRequiredMixin, View):
    """Leave a running game for good (it ends for everyone; you are rated last)."""

    def post(self, request, game_id: int):
        game = table_page_game(request, game_id)
        try:
            flow.resign(game_id=game.pk, user=request.user)
        except services.GameError as error:
            messages.error(request, str(error))
        else:
            messages.info(request, _("You left the game."))
        return redirect(game)


class RematchView(LoginRequiredMixin, View):
    """Offer or accept a rematch ("accept"), or turn it down ("decline")."""

    def post(self, request, game_id: int):
        game = table_page_game(request, game_id)
        answer = rematch.rematch_decline if request.POST.get("answer") == "decline" else None
        try:
            offer = (answer or rematch.rematch_accept)(game_id=game.pk, user=request.user)
        except services.GameError as error:
            messages.error(request, str(error))
            return redirect(game)
        if offer.new_game_id is not None:
            return redirect(offer.new_game)
        return redirect(game)


class PlayCardView(LoginRequiredMixin, View):
    """Play a card over plain HTTP, for browsers without JavaScript. The bots answer on the
    table's schedule, as for everyone; the page reloads while others play."""

    def post(self, request, game_id: int):
        game = table_page_game(request, game_id)
        try:
            flow.play_card(
                game_id=game.pk,
                user=request.user,
                card=request.POST.get("card", ""),
                after_moves=request.POST.get("moves"),  # a form posted twice plays once
            )
        except TableMovedOn as moved_on:
            if not moved_on.already_played:
                messages.error(request, refusal_text(moved_on))
        except (services.GameError, IllegalPlay) as error:
            messages.error(request, refusal_text(error))
        return redirect(game)


class ChatView(LoginRequiredMixin, View):
    """Chat without JavaScript: say something, mute, unmute or report, then back to the table.
    (With JavaScript the same forms go over the table's socket.)"""

    def post(self, request, game_id: int):
        game = table_page_game(request, game_id)
        user, data = request.user, request.POST
        try:
            if "chat" in data or "chat_preset" in data:
                said = chat.chat_post(
                    game_id=game.pk,
                    user=user,
                    text=data.get("chat"),
                    preset=data.get("chat_preset"),
                )
                announce_chat(game.pk, chat.message_data(said))
            elif "report" in data:
                chat.chat_report(user=user, message_id=data["report"], game_id=game.pk)
                messages.info(request, _("Thank you: staff will look at that message."))
            elif "mute" in data:
                chat.chat_mute(user=user, username=data["mute"])
            elif "unmute" in data:
                chat.chat_unmute(user=user, username=data["unmute"])
        except chat.ChatRefused as refusal:
            messages.error(request, str(refusal))
        invite = invite_of(request, game)
        return redirect(f"{game.get_absolute_url()}{f'?invite={invite}' if invite else ''}#chat")


class GameRecordView(View):
    """The game as a coins-record/1 document: complete once over, public while running."""

    def get(self, request, game_id: int):
        game = table_page_game(request, game_id)
        if not game.was_dealt:
            raise Http404(_("This game has not started."))
        response = HttpResponse(record_json(game_record(game)), content_type="application/json")
        response["Content-Disposition"] = f'inline; filename="coins-game-{game.pk}.json"'
        return response


class PlayerView(TemplateView):
    template_name = "games/player.html"

    def get_context_data(self, username: str, **kwargs):
        context = super().get_context_data(**kwargs)
        player = get_object_or_404(get_user_model(), username=username)
        context["player"] = player
        context["stats"] = selectors.player_stats(player)
        recent = selectors.recent_games_of(player, self.request.user, limit=10)
        # Each game as won, lost, abandoned or running, from this player's side.
        context["recent"] = [(game, history.result_of(game)) for game in recent]
        context["result_labels"] = history.RESULT_LABELS
        context["profile_url"] = reverse("player_profile", args=[player.get_username()])
        context.update(asked(player_page, player=player, viewer=self.request.user))
        return context
