"""The hot path's hand-written SQL (games/table/move_sql.py) against the migrated schema: a
migration that renames, adds or drops a column the moves write fails here, not mid-game."""

import pytest
from django.db import IntegrityError, connection, models, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Game, Hand, Play, PlayerStats, Seat, Trick
from games.table import move_rows, move_sql
from games.table import seats as services
from games.table.flow import play_and_record
from games.table.loading import game_load
from games.table.move_rows import MoveRows

pytestmark = pytest.mark.django_db

INSERTS = {
    Hand: move_sql.HAND_INSERT,
    Trick: move_sql.TRICK_INSERT,
    Play: move_sql.PLAY_INSERT,
    PlayerStats: move_sql.STATS_INSERT,
}
WRITTEN = {
    **INSERTS,
    Seat: (*move_sql.SEAT_UPDATE, "score", "number", "game", "outcome"),
    Game: move_sql.GAME_UPDATE,
}


def database_columns(model) -> set[str]:
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(cursor, model._meta.db_table)
    return {column.name for column in described}


def needs_a_value(field) -> bool:
    """A column an INSERT must name: not null, no default of the model or the database."""
    return (
        field.concrete
        and not field.primary_key
        and not field.null
        and not field.has_default()
        and getattr(field, "db_default", models.NOT_PROVIDED) is models.NOT_PROVIDED
        and not getattr(field, "auto_now_add", False)
    )


@pytest.mark.parametrize("model", list(WRITTEN), ids=lambda model: model.__name__)
def test_every_column_the_moves_write_exists_in_the_migrated_table(model):
    columns = database_columns(model)
    for name in WRITTEN[model]:
        assert model._meta.get_field(name).column in columns, (model.__name__, name)


@pytest.mark.parametrize("model", list(INSERTS), ids=lambda model: model.__name__)
def test_the_inserts_name_every_column_that_needs_a_value(model):
    required = {field.name for field in model._meta.fields if needs_a_value(field)}
    missing = required - set(INSERTS[model])
    assert not missing, f"move_sql.py's {model.__name__} insert leaves out {sorted(missing)}"


def test_every_statement_runs_on_the_real_tables(alice):
    """One batch ends a hand (hand insert, trick inserts, plays, scores) and the next
    finishes a trick begun in the first (trick finish) and changes a seat (seat update);
    the game row is written with each. Then the rows say what the engine says."""
    game = services.game_quick_play(user=alice, target=20)  # no one reaches 20 in a hand
    loaded = game_load(game)
    state = loaded.state
    rows = MoveRows(loaded)
    played = 0
    while state.hand_number == 1 or len(state.trick) < 2:
        play_and_record(rows, state.to_play, state.view_for(state.to_play).legal_cards[0])
        played += 1
    assert rows.hands and rows.plays and rows.scored
    rows.write()
    rows = MoveRows(loaded)
    play_and_record(rows, state.to_play, state.view_for(state.to_play).legal_cards[0])
    played += 1
    loaded.seats[0].auto_in_row = 1
    rows.seats_changed.add(0)
    assert rows.finished and not rows.new_tricks
    rows.write()

    game.refresh_from_db()
    assert game.moves == Play.objects.filter(game=game).count() == played == 16 * 3 + 3
    assert Hand.objects.filter(game=game).count() == 2
    last = Trick.objects.get(hand__game=game, hand__number=2, number=1)
    assert (last.winner, last.points) == (state.last_trick.winner, state.last_trick.points)
    assert [seat.score for seat in game.seats.order_by("number")] == state.scores
    assert game.seats.get(number=0).auto_in_row == 1


def test_a_new_required_column_is_noticed(monkeypatch):
    """The check above is not vacuous: a field the insert leaves out is reported."""
    extra = models.IntegerField(name="spin")
    extra.set_attributes_from_name("spin")
    extra.model = Play
    monkeypatch.setattr(Play._meta, "fields", (*Play._meta.fields, extra))
    required = {field.name for field in Play._meta.fields if needs_a_value(field)}
    assert "spin" in required - set(move_sql.PLAY_INSERT)


def a_batch_with_every_kind_of_row(alice):
    """Moves noted (not written) that begin a new deal, finish a trick begun earlier, begin
    tricks, score and change a seat: every part of the one statement. The target is out of
    reach in two deals (at 20, one deal in a few dozen ended the game in its second)."""
    game = services.game_quick_play(user=alice, target=99)
    loaded = game_load(game)
    state = loaded.state
    rows = MoveRows(loaded)
    while state.hand_number == 1 or len(state.trick) < 1:
        play_and_record(rows, state.to_play, state.view_for(state.to_play).legal_cards[0])
    rows.write()
    rows = MoveRows(loaded)
    while state.hand_number == 2:  # the rest of the second deal, into the third
        play_and_record(rows, state.to_play, state.view_for(state.to_play).legal_cards[0])
    loaded.seats[1].auto_in_row = 2
    rows.seats_changed.add(1)
    assert rows.hands and rows.new_tricks and rows.finished and rows.scored
    return game, rows, state


def test_a_batch_is_one_statement_on_postgresql_and_the_rows_match_the_engine(alice):
    """PostgreSQL: one statement; elsewhere one per kind of row (hand, 2 tricks inserted and
    finished, plays, scores, seat, game)."""
    game, rows, state = a_batch_with_every_kind_of_row(alice)
    with CaptureQueriesContext(connection) as queries:
        rows.write()
    if connection.vendor == "postgresql":
        assert len(queries) == 1 and queries[0]["sql"].count(";") == 0
    else:
        assert len(queries) > 1
    game.refresh_from_db()
    assert game.moves == Play.objects.filter(game=game).count()
    assert Hand.objects.filter(game=game).count() == 3
    assert [seat.score for seat in game.seats.order_by("number")] == state.scores
    assert [seat.auto_in_row for seat in game.seats.order_by("number")] == [0, 2, 0]
    written = Trick.objects.filter(hand__game=game, hand__number=2).order_by("number")
    engine = [(t.leader, t.winner, t.points) for t in state.hand_log[1].tricks]
    assert [(t.leader, t.winner, t.points) for t in written] == engine
    plays = Play.objects.filter(game=game).order_by("sequence")
    assert all(play.trick.hand_id == play.hand_id for play in plays.select_related("trick"))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared on PostgreSQL")
def test_the_batch_is_prepared_once_per_connection_with_a_generic_plan(alice):
    """PostgreSQL plans the batch once per connection: run again, its plan is reused, and
    the plan is generic (not made again for each run's values)."""

    def plans() -> dict[str, tuple[int, int]]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements"
                " WHERE statement LIKE 'WITH %%'"
            )
            return {name: (generic, custom) for name, generic, custom in cursor.fetchall()}

    _, rows, _ = a_batch_with_every_kind_of_row(alice)
    before = plans()  # this connection ran batches already (the setup's, earlier tests')
    rows.write()
    after = plans()
    changed = {name: plan for name, plan in after.items() if before.get(name) != plan}
    assert len(changed) == 1, changed  # one statement, run once
    ((name, (generic, custom)),) = changed.items()
    assert custom == 0 and generic == before.get(name, (0, 0))[0] + 1  # its plan, reused
    assert all(custom == 0 for _, custom in after.values())


def test_a_play_that_finds_no_trick_fails_the_batch_and_nothing_is_kept(alice):
    """PostgreSQL's one statement counts the plays it wrote; elsewhere the play's missing
    trick breaks its row's constraint. Either way the move fails whole."""
    game, rows, _ = a_batch_with_every_kind_of_row(alice)
    kept = Game.objects.get(pk=game.pk).moves
    before = (kept, Play.objects.filter(game=game).count(), Trick.objects.count())
    sequence, order, seat, code, hand, _, auto = rows.plays[-1]
    rows.plays[-1] = (sequence, order, seat, code, hand, 99, auto)  # no such trick
    with pytest.raises((move_rows.LostRows, IntegrityError)), transaction.atomic():
        rows.write()
    game = Game.objects.get(pk=game.pk)
    assert (game.moves, Play.objects.filter(game=game).count(), Trick.objects.count()) == before


ARRAY_VALUES = {
    "integer": st.lists(st.one_of(st.none(), st.integers(-(2**31), 2**31 - 1))),
    "boolean": st.lists(st.one_of(st.none(), st.booleans())),
    # PostgreSQL's text holds any character but NUL (and UTF-8 has no lone surrogates);
    # these are the ones arrays quote
    "text": st.lists(
        st.one_of(
            st.none(),
            st.text(st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"])),
            st.sampled_from(['"', "\\", "{}", "NULL", "a,b", " ", "", "12O"]),
        )
    ),
}


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_array_parameters_read_back_as_the_values_they_were_made_of(data):
    """The move statement's array parameters are written as text: whatever values a column
    holds (quotes, backslashes, commas, braces, the word NULL, None itself), PostgreSQL
    reads back exactly those values, in order."""
    kind = data.draw(st.sampled_from(sorted(ARRAY_VALUES)))
    values = data.draw(ARRAY_VALUES[kind])
    literal = move_sql.array_literal(values, kind)
    assert literal.startswith("{") and literal.endswith("}")
    if connection.vendor != "postgresql":
        return  # arrays are PostgreSQL's: SQLite writes a row per statement
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT %s::{kind}[]", [literal])
        assert cursor.fetchone()[0] == values


def test_an_array_of_an_unknown_type_is_refused():
    with pytest.raises(ValueError):
        move_sql.array_literal([1.5], "numeric")
