"""Byes spread across Swiss rounds: the one or two people left over when the number is not
a multiple of three sit with bots, and nobody does twice before everyone present has once.
Properties over random standings, people leaving and earlier trios (hypothesis), and a
Swiss played through."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.models import Entry, TournamentGame
from tournaments.pairing import tournament_advance
from tournaments.services import entry_join
from tournaments.swiss import bye_takers, swiss_round

from .helpers import finish


def test_the_fewest_byes_go_first_then_the_lowest_in_the_standings():
    byes = {"a": 0, "b": 1, "c": 0, "d": 1, "e": 1}.__getitem__
    assert bye_takers(list("abcde"), byes=byes) == ["a", "c"]  # the only two without one
    assert bye_takers(list("abcd"), byes=byes) == ["c"]  # the lower of a and c
    assert bye_takers(list("abcdef"[:6]), byes=lambda p: 0) == []  # six: no bye


def test_the_bye_table_comes_last_and_keeps_out_of_the_swaps():
    points = dict.fromkeys("abcd", 5) | {"e": 0}
    byes = dict.fromkeys("abc", 1) | dict.fromkeys("de", 0)
    played = {frozenset("abc")}  # a, b, c again at the top: a swap is due
    tables = swiss_round(
        list("abcde"), played, person=str, points=points.__getitem__, byes=byes.__getitem__
    )
    # d and e take the bye (none yet); a, b, c may swap with nobody else: the repeat stays.
    assert tables == [["a", "b", "c"], ["d", "e"]]


rounds_of_people = st.tuples(
    st.integers(min_value=1, max_value=40),  # people
    st.integers(min_value=1, max_value=12),  # rounds
    st.integers(min_value=0, max_value=2**32),  # standings and who leaves
    st.floats(min_value=0, max_value=0.1),  # chance that someone leaves after a round
)


@settings(max_examples=300, deadline=None)
@given(rounds_of_people)
def test_nobody_has_a_second_bye_before_everyone_present_had_one(case):
    people, rounds, seed, leaving = case
    rng = random.Random(seed)
    present = list(range(people))
    byes = dict.fromkeys(present, 0)
    points = dict.fromkeys(present, 0)
    played: set[frozenset] = set()
    for _round in range(rounds):
        if not present:
            break
        standing = sorted(present, key=lambda p: (-points[p], rng.random()))
        tables = swiss_round(
            standing, played, person=int, points=points.__getitem__, byes=byes.__getitem__
        )
        seated = [p for table in tables for p in table]
        assert sorted(seated) == sorted(present)  # everyone, once
        full, last = tables[: len(present) // 3], tables[len(present) // 3 :]
        assert all(len(table) == 3 for table in full)
        takers = last[0] if last else []
        assert len(takers) == len(present) % 3
        others = [p for p in present if p not in takers]
        if takers and others:  # the fewest byes first
            assert max(byes[p] for p in takers) <= min(byes[p] for p in others)
        for p in takers:
            byes[p] += 1
        for table in full:
            played.add(frozenset(table))
            for p, gained in zip(table, rng.sample([4, 2, 1], 3), strict=True):
                points[p] += gained
        counts = [byes[p] for p in present]
        assert max(counts) - min(counts) <= 1  # a second only once everyone has one
        present = [p for p in present if rng.random() >= leaving]


@pytest.mark.django_db
def test_a_swiss_of_four_gives_each_one_bye_in_four_rounds(make_tournament, people):
    tournament = make_tournament("swiss", rounds=4)
    for person in people(4):
        entry_join(tournament_id=tournament.pk, user=person)
    for round_number in range(1, 5):
        assert tournament_advance(tournament_id=tournament.pk) == 2
        for tournament_game in TournamentGame.objects.filter(round=round_number):
            finish(tournament_game.game)
        byes = sorted(Entry.objects.values_list("byes", flat=True))
        assert byes == [0] * (4 - round_number) + [1] * round_number
    tournament_advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
