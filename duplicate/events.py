"""The schedule of a duplicate event between people: who plays which deal, where and in
which seat. Pure functions, no Django.

``n = 3m`` players (bots fill the event to a multiple of three) play ``D`` deals (staff
choose ``MIN_DEALS`` to ``MAX_DEALS``), one a round: every deal is played at ``m`` tables at
once, all dealt from the deal's seed, so the people who hold seat ``s`` of deal ``d`` at
different tables hold the same cards and are compared with each other.

Player ``p`` is ``(g, i) = divmod(p, 3)``: group ``g`` in ``0..m-1``, index ``i`` in
``0..2``. In deal ``d`` they sit in seat ``(i + d) mod 3`` at table ``g + t_i(d)``, where
``t_0 = 0`` and ``(t_1, t_2)`` are the deal's two shifts (``_shifts``), added in ``Z_m``, or
in the field ``GF(4)`` when ``m = 4``. Why it holds:

* one person a seat: at deal ``d``, table ``t`` and seat ``s`` sits the one ``i = s - d``
  and ``g = t - t_i(d)``: exactly one person, so every table is full and every deal is
  played at ``m`` tables; nobody plays a deal twice (one table a deal);
* every seat as evenly as can be: ``i + d`` runs through the three seats in turn, so in
  ``D`` deals everyone holds each seat ``D // 3`` or ``D // 3 + 1`` times, exactly ``D / 3``
  when ``D`` is a multiple of three;
* the players of one index (a "line", as the directions of bridge's Mitchell movement) hold
  the same seat in every deal: they are the ones compared with each other, and never share
  a table. Each person meets people of the two other lines, ``2m`` of them;
* how often two people meet: ``(g, 0)`` and ``(g', 1)`` share a table in deal ``d`` when
  ``t_1(d) = g - g'``; ``(g, 0)`` and ``(g', 2)`` when ``t_2(d) = g - g'``; ``(g, 1)`` and
  ``(g', 2)`` when ``t_2(d) - t_1(d) = g - g'``. So the most any two people meet is the
  most often a value comes back in the sequences ``t_1``, ``t_2`` and ``t_2 - t_1`` over
  the deals, and never less than ``ceil(D / m)`` (``D·m`` meetings of two lines share out
  over ``m²`` pairs). The shifts reach that bound when ``m`` is odd (``t = (d, 2d)``: all
  three run through ``Z_m``) and when ``m = 4`` (``(d, a·d)`` in ``GF(4)``, a field); so
  with ``m`` odd or 4 and ``D ≤ m`` nobody meets anyone twice. For other even ``m`` no
  group of order ``m`` has such shifts (the three differences cannot all be invertible
  mod 2); each block of ``m`` deals then uses a partial transversal of ``Z_m`` (``t_1 = d``,
  ``t_2 = 2d`` for ``d < m/2``, ``2d + 1`` up to ``m - 2``): nobody meets twice in the first
  ``m - 1`` deals, one value comes back in the ``m``-th, and the next block shifts ``t_1`` by
  ``m/2`` so that two blocks together are even again. The most two people meet is then at
  most ``ceil(D / m) + 1``. With 3 or 6 players meeting again cannot be helped.

With three deals or fewer these are the shifts ``(d, 2d)`` of the first events (but for six
players), so an event's tables do not depend on when it started.
"""

from __future__ import annotations

from dataclasses import dataclass

DEALS = 3  # an event's deals unless staff choose otherwise
MIN_DEALS = 3  # everyone holds every seat
MAX_DEALS = 12
SEATS = 3

# GF(4) = {0, 1, a, a + 1} written 0..3: addition is XOR, a * a = a + 1.
_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


@dataclass(frozen=True)
class Table:
    """One table of one deal: ``seats[s]`` is the player (0..n-1) in seat ``s``."""

    deal: int  # 0..D-1
    number: int  # 0..m-1
    seats: tuple[int, int, int]


def players_filled(people: int) -> int:
    """How many players an event of ``people`` people has once bots fill it to a multiple
    of three."""
    if people < 1:
        raise ValueError("An event needs at least one person.")
    return -(-people // SEATS) * SEATS


def _shifts(tables: int, deal: int) -> tuple[int, int]:
    """``(t_1, t_2)``: how far the players of index 1 and 2 move in ``deal`` (see above)."""
    if tables == 4:
        return _GF4_MUL[1][deal % 4], _GF4_MUL[2][deal % 4]
    if tables % 2:
        return deal % tables, 2 * deal % tables
    block, d = divmod(deal, tables)
    half = tables // 2
    second = 2 * d if d < half else 2 * d + 1 if d < tables - 1 else tables - 1
    return (d + half * (block % 2)) % tables, second % tables


def _table_of(group: int, index: int, deal: int, tables: int) -> int:
    shift = (0, *_shifts(tables, deal))[index]
    if tables == 4:
        return group ^ shift
    return (group + shift) % tables


def seat_of(player: int, deal: int) -> int:
    """The seat ``player`` holds in ``deal``."""
    return (player % SEATS + deal) % SEATS


def schedule(players: int, deals: int = DEALS) -> list[list[Table]]:
    """The event's rounds, one a deal, each a list of its ``players / 3`` tables."""
    if players < SEATS or players % SEATS:
        raise ValueError("An event seats a multiple of three players.")
    if not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"An event has one to {MAX_DEALS} deals.")
    tables = players // SEATS
    rounds = []
    for deal in range(deals):
        seats = [[0, 0, 0] for _ in range(tables)]
        for player in range(players):
            group, index = divmod(player, SEATS)
            seats[_table_of(group, index, deal, tables)][seat_of(player, deal)] = player
        rounds.append([Table(deal, number, tuple(row)) for number, row in enumerate(seats)])
    return rounds


def bot_players(players: int, bots: int) -> list[int]:
    """Which players (0..n-1) the ``bots`` (at most two) filling the event are: players of
    the same index ``i``, who always hold the same seat and so never share a table, as long
    as there are that many tables (one table: the person and two bots)."""
    if not 0 <= bots < SEATS:
        raise ValueError("Bots fill an event to a multiple of three: at most two.")
    tables = players // SEATS
    if tables >= bots:
        return [SEATS * (tables - 1 - k) + 2 for k in range(bots)]
    return list(range(players - bots, players))
