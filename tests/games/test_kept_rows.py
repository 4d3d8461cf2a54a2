"""A game's seats and its decks and plays, read by statements written once
(``games/table/loading.py``, ``common/kept_rows.py``), are what the ORM reads: every field of
every seat, person and profile, the related rows cached as ``select_related`` caches them (no
statement to reach them, a missing profile missing the same way), and the same decks and plays
in the same order; a game loaded from nothing is the same game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ObjectDoesNotExist
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Profile
from games.engine import CARD_CODES
from games.models import Game, Hand, Play, Seat
from games.table import flow, state_cache
from games.table import seats as services
from games.table.loading import decks_and_plays, game_load, seats_of

from .helpers import serve_due


def fields_of(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


def seen(view) -> dict:
    return {name: getattr(view, name) for name in view.__slots__}


def orm_seats(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user__profile").order_by("number"))


def profile_or_none(user):
    try:
        return user.profile
    except ObjectDoesNotExist:
        return None


def assert_same_seats(kept: list[Seat], expected: list[Seat]) -> None:
    assert len(kept) == len(expected)
    with CaptureQueriesContext(connection) as reads:
        for seat, orm in zip(kept, expected, strict=True):
            assert fields_of(seat) == fields_of(orm)
            assert seat._state.adding is False and seat._state.db == orm._state.db
            assert (seat.user is None) == (orm.user is None)
            if orm.user is None:
                continue
            assert fields_of(seat.user) == fields_of(orm.user)
            profile, orm_profile = profile_or_none(seat.user), profile_or_none(orm.user)
            assert (profile is None) == (orm_profile is None)
            if orm_profile is not None:
                assert fields_of(profile) == fields_of(orm_profile)
                assert profile.user is seat.user
    assert not reads.captured_queries  # every related row came with the seats


@pytest.mark.django_db
def test_a_tables_seats_people_and_profiles_are_what_the_orm_reads(alice, bob, make_user):
    """A person with a display name, one whose profile is gone, a bot and an open seat."""
    Profile.objects.filter(user=alice).update(display_name="Alice <the> Bold", language="fr")
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "careful"])
    assert_same_seats(seats_of(game), orm_seats(game))  # one seat still open
    no_profile = make_user("dora")
    Profile.objects.filter(user=no_profile).delete()
    services.seat_join(game_id=game.pk, user=no_profile)
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as reads:
        kept = seats_of(game)
    assert len(reads.captured_queries) == 1
    assert_same_seats(kept, orm_seats(game))
    assert [seat.user_id for seat in kept] == [alice.pk, no_profile.pk, None]


@pytest.mark.django_db
def test_a_games_decks_and_plays_are_what_the_orm_reads_and_load_the_same_game(alice):
    """Along a whole game against bots, across its hands: the decks and plays of the one
    statement are the ORM's, and the game rebuilt from nothing is the one its moves made."""
    game = services.game_quick_play(user=alice, bot="careful", target=30)  # hands, not one
    while True:
        serve_due(game.pk, later=timedelta(minutes=1))  # bots' cards, as if they had paused
        game.refresh_from_db()
        decks, plays = decks_and_plays(game)
        assert decks == list(
            Hand.objects.filter(game=game).order_by("number").values_list("deck", flat=True)
        )
        assert plays == list(
            Play.objects.filter(game=game, sequence__lt=game.moves)
            .order_by("sequence")
            .values_list("seat", "card")
        )
        if game.status != Game.Status.IN_PROGRESS:
            break
        loaded = game_load(game)
        state_cache.clear()
        with CaptureQueriesContext(connection) as reads:
            rebuilt = game_load(game)
        assert len(reads.captured_queries) == 2  # the seats, the decks with the plays
        for seat in (0, 1, 2, None):
            assert seen(rebuilt.state.view_for(seat)) == seen(loaded.state.view_for(seat))
        view = rebuilt.state.view_for(0)
        if view.to_play == 0:
            flow.play_card(game_id=game.pk, user=alice, card=CARD_CODES[view.hand[0]])
    assert len(plays) == game.moves
    assert len(decks) == Hand.objects.filter(game=game).count()  # one hand or several


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", ["99999999999999999999999", "9223372036854775808", "0"])
def test_a_table_address_past_any_id_is_a_404(client, game_id):
    """The kept statement is given no number the database refuses (SQLite raised
    ``OverflowError``): no such game, as the ORM's lookup said."""
    assert client.get(f"/games/{game_id}/").status_code == 404


@pytest.mark.django_db
def test_a_row_inserted_ignoring_conflicts_is_the_one_bulk_create_inserts(alice, bob):
    """``row_insert_ignoring`` writes what ``bulk_create(ignore_conflicts=True)`` writes, field
    for field (defaults, ``auto_now_add`` and JSON included), and leaves a row that is there
    already as it was, with no error."""
    from analysis.models import GameAnalysis
    from common.kept_rows import row_insert_ignoring
    from ratings.models import RatingQueue

    kept, orm = (
        services.game_create(creator=user, target=10, seat_kinds=["me", "random", "random"])
        for user in (alice, bob)
    )
    moment = timezone.now() - timedelta(minutes=3)
    for model, values in [
        (RatingQueue, {"finished_at": moment}),
        (GameAnalysis, {"queued_at": moment}),
    ]:
        row_insert_ignoring(model(game_id=kept.pk, **values))
        model.objects.bulk_create([model(game_id=orm.pk, **values)], ignore_conflicts=True)
        ours, theirs = (fields_of(model.objects.get(game_id=g.pk)) for g in (kept, orm))
        stamped = {"queued_at"} - set(values)  # stamped as each was written
        for row in (ours, theirs):
            row.pop("game_id"), row.pop(model._meta.pk.attname, None)  # each game's, each key
            for name in stamped & set(row):
                assert abs(row.pop(name) - timezone.now()) < timedelta(minutes=1)
        assert ours == theirs
        before = fields_of(model.objects.get(game_id=kept.pk))
        row_insert_ignoring(model(game_id=kept.pk, attempts=4))  # there already: left alone
        assert fields_of(model.objects.get(game_id=kept.pk)) == before


@pytest.mark.django_db
def test_row_exists_answers_as_the_orms_exists(alice):
    from common.kept_rows import row_exists
    from tournaments.models import TournamentGame

    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    assert row_exists(Game, pk=game.pk) and not row_exists(Game, pk=game.pk + 1)
    for where in [{"game_id": game.pk}, {"game_id": game.pk, "scored": False}]:
        orm = TournamentGame.objects.filter(**where).exists()
        assert row_exists(TournamentGame, **where) == orm
    assert row_exists(Seat, game_id=game.pk, number=2, bot="random")
    assert not row_exists(Seat, game_id=game.pk, number=2, bot="careful")
    # None asks for an empty column, as the ORM's filter does (IS NULL, never "= NULL")
    for where in [{"user": None}, {"user": None, "number": 0}, {"user_id": alice.pk}]:
        orm = Seat.objects.filter(game=game, **where).exists()
        assert row_exists(Seat, game_id=game.pk, **where) == orm


@pytest.mark.django_db
def test_a_quick_play_s_rows_are_written_as_the_orm_writes_them(alice):
    """A new game's three inserts (``rows_insert``, statements written once): each row gets
    its id, and what is stored is what the instances hold, defaults and stamps included; the
    game, seats and hand read back are the same game dealt."""
    game = services.game_quick_play(user=alice)
    assert game.pk and not game._state.adding
    stored = Game.objects.get(pk=game.pk)
    assert fields_of(stored) == fields_of(game) and stored.with_bots is True  # bots seated
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    assert [seat.user_id for seat in seats] == [alice.pk, None, None]
    assert all(seat.started_at == game.started_at for seat in seats)
    hand = Hand.objects.get(game=game)
    assert hand.number == 1 and len(hand.deck) == 48 and hand.created_at is not None
    loaded = game_load(stored)
    assert loaded.state.to_play == stored.to_play and len(loaded.state.hands[0]) == 16


@pytest.mark.django_db
def test_rows_inserted_together_get_their_own_ids_in_order(alice):
    from common.kept_rows import rows_insert

    game = services.game_quick_play(user=alice)
    made = [Hand(game=game, number=n, dealer=n % 3, deck=["1O"] * n) for n in (2, 3, 4)]
    rows_insert(made)
    assert [hand.pk for hand in made] == sorted(hand.pk for hand in made)
    for hand in made:
        stored = Hand.objects.get(pk=hand.pk)
        assert fields_of(stored) == fields_of(hand) and not hand._state.adding
    rows_insert([])  # nothing to write: no statement fails
