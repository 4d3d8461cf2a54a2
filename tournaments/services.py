"""Joining, leaving, staff decisions and scoring: each one transaction, the tournament (or
the game's tournament row) locked before anything it protects is read."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.kept_rows import row_exists
from games.models import Game, Seat
from games.table.errors import GameError

from .live import standings_changed
from .models import Entry, Tournament, TournamentExclusion, TournamentGame
from .scoring import SeatResult, places, points_for
from .selectors import active_entries


class TournamentError(GameError):
    """A request about a tournament that cannot be served; its message says why."""


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError(_("There is no such tournament."))
    return tournament


def entry_join(*, tournament_id: int, user) -> Entry:
    """Enter ``user`` (before the start, or during an arena), within the entry limit; a
    person who withdrew from an arena comes back with their points."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if not tournament.is_open:
            raise TournamentError(_("This tournament can no longer be joined."))
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        kept_out = TournamentExclusion.objects.filter(tournament=tournament, user=user).first()
        if kept_out is None and entry is not None and entry.removed:
            kept_out = entry
        if kept_out is not None:
            raise TournamentError(
                _("You were removed from this tournament: %(reason)s") % {"reason": kept_out.reason}
            )
        if entry is not None and not entry.withdrawn:
            return entry
        if active_entries(tournament).count() >= tournament.max_players:
            raise TournamentError(_("This tournament is full."))
        if entry is None:
            entry = Entry.objects.create(tournament=tournament, user=user)
        else:
            entry.withdrawn = False
            entry.save(update_fields=["withdrawn"])
        standings_changed(tournament.pk)
        return entry


def entry_leave(*, tournament_id: int, user) -> None:
    """Leave: before the start the entry goes; once it runs, you are paired no more (your
    points stay in the standings, and a game you are playing still counts)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = Entry.objects.filter(tournament=tournament, user=user, removed=False).first()
        if entry is None:
            raise TournamentError(_("You are not in this tournament."))
        standings_changed(tournament.pk)
        if tournament.status == Tournament.Status.UPCOMING:
            entry.delete()
            return
        entry.withdrawn, entry.waiting_since = True, None
        entry.save(update_fields=["withdrawn", "waiting_since"])


def _staff_reason(reason: str) -> str:
    if not reason.strip():
        raise TournamentError(_("Give the player a reason."))
    return reason.strip()


def _remove(entry: Entry, reason: str) -> None:
    """Removal itself (the tournament locked): no more pairing, no more points, the reason
    shown to the player; their standings row goes."""
    entry.removed, entry.reason, entry.waiting_since = True, reason, None
    entry.save(update_fields=["removed", "reason", "waiting_since"])
    standings_changed(entry.tournament_id)


def entry_remove(*, entry_id: int, reason: str) -> None:
    """Staff remove a player, with a reason shown to them: no more pairing, no more points."""
    reason = _staff_reason(reason)
    with transaction.atomic():
        tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True)
        _locked(tournament_id.get())  # the tournament first, as everywhere
        _remove(Entry.objects.select_for_update().get(pk=entry_id), reason)


def exclusion_add(*, tournament_id: int, user, reason: str) -> TournamentExclusion:
    """Staff exclude ``user`` from a tournament, with a reason shown to them: they are
    removed as by ``entry_remove`` (a game they are playing plays on and scores them
    nothing), or, if they never joined, given a removed entry, so the page shows them why
    and offers no Join. Adding it again changes the reason."""
    reason = _staff_reason(reason)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        exclusion, _created = TournamentExclusion.objects.update_or_create(
            tournament=tournament, user=user, defaults={"reason": reason}
        )
        entry, _created = Entry.objects.select_for_update().get_or_create(
            tournament=tournament, user=user
        )
        _remove(entry, reason)  # never joined: a removed entry all the same, with the reason
        return exclusion


def tournament_cancel(*, tournament_id: int, reason: str = "") -> None:
    """Staff cancel a tournament: no more pairing or scoring; games under way play on as
    ordinary games."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("This tournament is over already."))
        tournament.status, tournament.cancel_reason = Tournament.Status.CANCELLED, reason
        tournament.save(update_fields=["status", "cancel_reason"])
        standings_changed(tournament.pk)


def game_score(*, game_id: int) -> None:
    """Score a finished tournament game once (inside the game's aftermath): its people's
    points, games, wins, streaks and card points; in an arena they wait for a table again.
    Most games are no tournament's: a plain look first, then the locked read with its
    joins (building that query was 1.7% of a busy server's Python time, for every game)."""
    if not row_exists(TournamentGame, game_id=game_id, scored=False):  # a statement kept
        return
    unscored = TournamentGame.objects.filter(game_id=game_id, scored=False)
    tournament_game = unscored.select_for_update().select_related("tournament", "game").first()
    if tournament_game is None:
        return
    tournament, game = tournament_game.tournament, tournament_game.game
    tournament_game.scored = True
    tournament_game.save(update_fields=["scored"])
    if tournament.status == Tournament.Status.CANCELLED:
        return
    standings_changed(tournament.pk)
    seats = list(Seat.objects.filter(game=game))
    placed = places([SeatResult(seat.number, seat.score) for seat in seats], game.winner_seat)
    entries = {
        entry.user_id: entry
        for entry in Entry.objects.select_for_update().filter(
            tournament=tournament, user__in=[seat.user_id for seat in seats if seat.user_id]
        )
    }
    arena = tournament.kind == Tournament.Kind.ARENA
    now = timezone.now()
    for seat in seats:
        entry = entries.get(seat.user_id)
        if entry is None or entry.removed:
            continue
        left = game.status == Game.Status.ABANDONED and game.abandoned_by == seat.number
        points, entry.streak = points_for(
            placed[seat.number], streak_before=entry.streak, arena=arena, left=left
        )
        entry.points += points
        entry.games += 1
        entry.wins += placed[seat.number] == 1 and not left
        entry.game_points += seat.score
        entry.waiting_since = now if arena and entry.is_active else None
        entry.save(
            update_fields=["points", "games", "wins", "streak", "game_points", "waiting_since"]
        )
