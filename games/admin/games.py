"""Games in the admin: filter and search them, read every row of one, stop a stuck one."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from common.admin_paging import CAP, CappedListMixin
from common.admin_search import ScaledSearchMixin
from games.models import Game, Hand, Seat, Trick
from games.table import flow
from games.table import seats as services

SEARCH_PEOPLE = 20  # people a search of the games looks at, the first by username


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = readonly_fields = ["number", "user", "bot", "score"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


HIDDEN_CARDS = "games.view_hidden_cards"


def may_see_hands(request, game: Game | None) -> bool:
    """A running game's dealt decks hold every player's unplayed cards: staff see them only
    with the explicit permission (a finished game's decks are in its public record)."""
    return game is None or game.is_over or request.user.has_perm(HIDDEN_CARDS)


class HandInline(ReadOnlyInline):
    model = Hand
    fields = readonly_fields = ["number", "dealer", "deck", "created_at"]

    def get_fields(self, request, obj=None):
        if may_see_hands(request, obj):
            return self.fields
        return [field for field in self.fields if field != "deck"]

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)


def games_of(people: list[int]) -> Q:
    """The games of some people: their latest dealt ones, at most as many as a list counts,
    read from the history's index on the seats (a heavy player costs what a new one does),
    and their tables not dealt yet."""
    if not people:
        return Q(pk__in=[])
    seats = Seat.objects.filter(user_id__in=people)
    waiting = seats.filter(started_at__isnull=True).values("game_id")
    if connection.vendor == "postgresql":
        # Each person's latest seats by their own index slice (LATERAL ... LIMIT), then the
        # latest of those: an IN over several heavy players would read all their seats.
        latest = RawSQL(LATEST_SEATS, [list(people), CAP, CAP])
        waiting_sql, params = waiting.query.sql_with_params()
        return Q(
            pk__in=RawSQL(f"({waiting_sql}) UNION ALL ({latest.sql})", [*params, *latest.params])
        )
    latest = (
        seats.filter(started_at__isnull=False)
        .order_by("-started_at", "-game_id")
        .values("game_id")[:CAP]
    )
    return Q(pk__in=latest) | Q(pk__in=waiting)


LATEST_SEATS = """
SELECT latest.game_id FROM (
    SELECT seat.game_id, seat.started_at
    FROM unnest(%s::integer[]) AS person(id)
    CROSS JOIN LATERAL (
        SELECT game_id, started_at FROM games_seat
        WHERE user_id = person.id AND started_at IS NOT NULL
        ORDER BY started_at DESC, game_id DESC
        LIMIT %s
    ) AS seat
    ORDER BY seat.started_at DESC, seat.game_id DESC
    LIMIT %s
) AS latest
"""


class OpponentsFilter(admin.SimpleListFilter):
    title = _("players")
    parameter_name = "players"

    def lookups(self, request, model_admin):
        return [("humans", _("People only")), ("bots", _("With bots"))]

    def queryset(self, request, queryset):
        # ``Game.with_bots`` is kept as games are dealt: one index, no look at any seat
        if self.value() == "humans":
            return queryset.filter(with_bots=False)
        if self.value() == "bots":
            return queryset.filter(with_bots=True)
        return queryset


class TargetFilter(admin.SimpleListFilter):
    """The usual targets (a field filter would read every game for its distinct values)."""

    title = _("target")
    parameter_name = "target"

    def lookups(self, request, model_admin):
        return [(str(t), str(t)) for t in (10, 15, 20)]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit() and len(value) <= 2:
            return queryset.filter(target=int(value))
        return queryset.none() if value else queryset


class PlayerFilter(admin.SimpleListFilter):
    """The dealt games of one person (``?player=<user id>``, linked from the user's page)."""

    title = _("player")
    parameter_name = "player"

    def lookups(self, request, model_admin):
        value = self.value()
        if not (value and value.isdigit() and len(value) <= 12):
            return []
        user = get_user_model().objects.filter(pk=int(value)).first()
        return [(value, user.get_username())] if user else []

    def has_output(self) -> bool:
        return True  # the filter applies even when the player is unknown (then: no games)

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        if not (value.isdigit() and len(value) <= 12):
            return queryset.none()
        return queryset.filter(games_of([int(value)]))


@admin.register(Game)
class GameAdmin(ScaledSearchMixin, CappedListMixin, admin.ModelAdmin):
    list_display = [
        "pk",
        "status",
        "target",
        "moves",
        "is_public",
        "created_by",
        "created_at",
        "finished_at",
    ]
    list_select_related = ["created_by"]
    list_per_page = 50
    list_filter = ["status", TargetFilter, "created_at", OpponentsFilter, PlayerFilter]
    people_search = ("seats__user",)
    people_max = SEARCH_PEOPLE
    people_match_semijoin = True  # games_of: pk__in the seats' subquery
    search_help_text = _("A player's username, or part of it (its beginning if under 3 letters).")
    readonly_fields = [f.name for f in Game._meta.fields if f.name != "seed"] + ["tricks"]
    exclude = ["seed"]  # the secret of the shuffles stays out of every page
    inlines = [SeatInline, HandInline]  # the plays: in the tricks table, by trick
    actions = ["mark_abandoned"]

    @admin.display(description=_("tricks"))
    def tricks(self, game: Game):
        """Every trick of the game, hand by hand (tricks belong to hands, so no inline)."""
        tricks = (
            Trick.objects.filter(hand__game=game)
            .select_related("hand")
            .prefetch_related("plays")
            .order_by("hand__number", "number")
        )
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    trick.hand.number,
                    trick.number,
                    trick.leader,
                    " ".join(
                        p.card + ("*" if p.auto else "")  # * played for an absent person
                        for p in sorted(trick.plays.all(), key=lambda p: p.order)
                    ),
                    "" if trick.winner is None else trick.winner,
                    "" if trick.points is None else trick.points,
                )
                for trick in tricks
            ),
        )
        return format_html(
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>"
            "{}</table>",
            _("hand"),
            _("trick"),
            _("leader"),
            _("cards"),
            _("winner"),
            _("points"),
            rows,
        )

    def people_match(self, people):
        """Their latest games (``games_of``): a search costs what a few names do."""
        return games_of(people)

    @admin.action(description=_("Mark as abandoned (stuck games) and rate them"))
    def mark_abandoned(self, request, queryset):
        done = 0
        for game in queryset:
            try:
                flow.abandon(game_id=game.pk)
            except services.GameError as error:
                self.message_user(request, f"Game {game.pk}: {error}", messages.WARNING)
            else:
                done += 1
                self.log_change(request, game, "Marked abandoned.")
        self.message_user(request, _("%(n)d game(s) marked abandoned.") % {"n": done})
