"""The schedule of a duplicate event, for 3 to 120 players and 1 to 12 deals: every deal at
n/3 full tables, nobody plays a deal twice, everyone holds every seat as evenly as can be
(deals/3 times each when deals are a multiple of three), tablemates as varied as the lines
allow, bots apart, and a deal's tables the same however many deals the event has."""

from collections import Counter
from itertools import combinations
from math import ceil

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from duplicate import events

TABLES = st.integers(min_value=1, max_value=40)  # 3 to 120 players
DEALS = st.integers(min_value=1, max_value=events.MAX_DEALS)


def meetings(rounds) -> Counter:
    return Counter(
        pair
        for round_ in rounds
        for table in round_
        for pair in combinations(sorted(table.seats), 2)
    )


@given(TABLES, DEALS)
@example(4, 12)
@example(6, 12)
def test_every_deal_is_played_at_n_over_3_full_tables_once_by_everyone(tables, deals):
    players = 3 * tables
    rounds = events.schedule(players, deals)
    assert [len(deal) for deal in rounds] == [tables] * deals
    for deal, round_ in enumerate(rounds):
        seated = [player for table in round_ for player in table.seats]
        assert sorted(seated) == list(range(players))  # nobody twice in a deal, nobody out
        assert all(table.deal == deal for table in round_)
        assert [table.number for table in round_] == list(range(tables))


@given(TABLES, DEALS)
def test_everyone_holds_every_seat_as_evenly_as_possible(tables, deals):
    held = {player: Counter() for player in range(3 * tables)}
    for round_ in events.schedule(3 * tables, deals):
        for table in round_:
            for seat, player in enumerate(table.seats):
                held[player][seat] += 1
                assert events.seat_of(player, table.deal) == seat
    for counts in held.values():
        times = [counts[seat] for seat in range(3)]
        assert sum(times) == deals and max(times) - min(times) <= 1
        if deals % 3 == 0:
            assert times == [deals // 3] * 3


@given(TABLES, DEALS)
@example(4, 12)  # Z_4 would repeat, GF(4) does not
@example(6, 6)
@example(8, 12)
def test_tablemates_vary_as_much_as_the_lines_allow(tables, deals):
    """Nobody meets anyone more than ceil(deals / tables) times (the least possible when
    everyone meets the 2m people of the two other lines) when the tables are odd or four,
    one more at the most otherwise, and never twice while the deals are fewer than the
    tables."""
    rounds = events.schedule(3 * tables, deals)
    most = max(meetings(rounds).values())
    bound = ceil(deals / tables)
    if tables % 2 or tables == 4:
        assert most == bound
    else:
        assert most <= bound + 1
    if deals < tables:
        assert most == 1
    mates = {player: set() for player in range(3 * tables)}
    for round_ in rounds:
        for table in round_:
            for player in table.seats:
                mates[player] |= set(table.seats) - {player}
    if tables % 2 or tables == 4:
        assert {len(m) for m in mates.values()} == {min(2 * deals, 2 * tables)}
    for player, others in mates.items():  # the players of a line never meet
        assert all(other % 3 != player % 3 for other in others)


@given(st.integers(min_value=3, max_value=40))
@example(4)  # 12 players: Z_4 would fail, GF(4) holds
def test_in_three_deals_from_nine_players_on_nobody_meets_anyone_twice(tables):
    met = meetings(events.schedule(3 * tables))
    assert max(met.values()) == 1
    assert len(met) == 3 * 3 * tables  # every pair at every table is new


@given(TABLES, DEALS)
def test_a_deals_tables_do_not_depend_on_how_many_deals_there_are(tables, deals):
    assert events.schedule(3 * tables, deals) == events.schedule(3 * tables, 12)[:deals]


def test_with_three_deals_the_tables_are_those_of_the_first_events():
    """``(d, 2d)`` in Z_m (GF(4) for 12 players): an event started before deals could be
    chosen goes on at the tables it would have had."""
    for tables in (1, 3, 4, 5, 7, 8, 10):
        for round_ in events.schedule(3 * tables):
            for table in round_:
                for player in table.seats:
                    group, index = divmod(player, 3)
                    if tables == 4:
                        assert table.number == group ^ events._GF4_MUL[index][table.deal]
                    else:
                        assert table.number == (group + index * table.deal) % tables


@given(st.integers(min_value=1, max_value=60), DEALS)
def test_bots_fill_to_a_multiple_of_three_and_never_share_a_table_when_they_need_not(people, deals):
    players = events.players_filled(people)
    assert players % 3 == 0 and people <= players < people + 3
    bots = set(events.bot_players(players, players - people))
    assert len(bots) == players - people and bots <= set(range(players))
    for round_ in events.schedule(players, deals):
        for table in round_:
            at_table = len(bots & set(table.seats))
            assert at_table <= (1 if players >= 6 else 2)  # always a person at the table


def test_a_schedule_refuses_what_it_cannot_seat():
    for bad in (0, 2, 7):
        with pytest.raises(ValueError):
            events.schedule(bad)
    for deals in (0, events.MAX_DEALS + 1):
        with pytest.raises(ValueError):
            events.schedule(9, deals)
    with pytest.raises(ValueError):
        events.players_filled(0)
