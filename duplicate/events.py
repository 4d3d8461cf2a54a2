"""The schedule of a duplicate event between people: who plays which deal, where and in
which seat. Pure functions, no Django.

``n = 3m`` players (bots fill the event to a multiple of three) play ``DEALS = 3`` deals, one
a round: every deal is played at ``m`` tables at once, all dealt from the deal's seed, so the
people who hold seat ``s`` of deal ``d`` at different tables hold the same cards and are
compared with each other.

Player ``p`` is ``(g, i) = divmod(p, 3)``: group ``g`` in ``0..m-1``, index ``i`` in
``0..2``. In deal ``d`` (``0..2``) they sit in seat ``(i + d) mod 3`` at table
``g + a_i * d``, where ``a_i = i`` and the arithmetic is that of ``Z_m``, or of the field
``GF(4)`` when ``m = 4``. Why it holds:

* one person a seat: at deal ``d``, table ``t`` and seat ``s`` sits the one ``i = s - d``
  and ``g = t - a_i * d``: exactly one person, so every table is full and every deal is
  played at ``m`` tables;
* every seat once: ``i + d`` runs through the three seats as ``d`` does; and nobody plays a
  deal twice (one table a deal);
* nobody meets anyone twice: ``(g, i)`` and ``(g', i')`` at one table in deals ``d`` and
  ``d'`` means ``(a_i - a_i')(d - d') = 0``. In ``Z_m`` that product is ``±1``, ``±2`` or
  ``±4``, never 0 unless ``m`` divides 1, 2 or 4; in ``GF(4)`` (a field) it is never 0. So
  every ``m`` but 1 and 2 (3 and 6 players, who cannot help meeting again) gives each person
  six different tablemates.
"""

from __future__ import annotations

from dataclasses import dataclass

DEALS = 3
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

    deal: int  # 0..DEALS-1
    number: int  # 0..m-1
    seats: tuple[int, int, int]


def players_filled(people: int) -> int:
    """How many players an event of ``people`` people has once bots fill it to a multiple
    of three."""
    if people < 1:
        raise ValueError("An event needs at least one person.")
    return -(-people // SEATS) * SEATS


def _table_of(group: int, index: int, deal: int, tables: int) -> int:
    if tables == 4:
        return group ^ _GF4_MUL[index][deal]
    return (group + index * deal) % tables


def seat_of(player: int, deal: int) -> int:
    """The seat ``player`` holds in ``deal``."""
    return (player % SEATS + deal) % SEATS


def schedule(players: int, deals: int = DEALS) -> list[list[Table]]:
    """The event's rounds, one a deal, each a list of its ``players / 3`` tables."""
    if players < SEATS or players % SEATS:
        raise ValueError("An event seats a multiple of three players.")
    if not 1 <= deals <= DEALS:
        raise ValueError("An event has one to three deals.")
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
