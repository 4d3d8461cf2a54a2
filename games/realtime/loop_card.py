"""A person's card played on the socket's own event loop: the unlocked path
(``games/table/unlocked.py``) with no database thread.

The card (and the bots' answers) is played on this process's copy of the game, its one
statement sent on the loop's own connection (``games/realtime/loop_db.py``), and the
mover's board rendered while PostgreSQL runs the statement and flushes its commit. The board
goes out only once the statement has returned: a card shown is a card kept. Anything this
path cannot do (no copy, a seat's change, a row changed meanwhile, a database error) leaves
the card to the database threads' path, which decides it as before; nothing was written
then, or, if the statement's fate is unknown (a connection lost mid-way), that path finds
the card already played by its move count and sends the board.

Cards that arrive together take turns (``CardTurns``): a card whose statement is back is
finished before the next one starts, instead of waiting behind every card that arrived
after it (docs/benchmarks.md, issue 31).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from contextlib import asynccontextmanager
from functools import partial

from django.conf import settings

from common.metrics import Laps, statements_counted
from games.board.render import render_board, viewer_context
from games.engine import IllegalPlay, parse_card
from games.realtime.db_threads import in_db_thread
from games.realtime.loop_db import loop_connections, prepares
from games.realtime.push import notices_kept
from games.realtime.socket_calls import render_for, shown_presence
from games.table import flow
from games.table.errors import GameError, move_count
from games.table.move_rows import NeedsLock, StaleTable
from games.table.unlocked import prepare_on_copy

log = logging.getLogger(__name__)

TO_THE_LOCK = "to the lock"  # the card needs the lock: no second try on a copy elsewhere
LAPS_KIND = "card"  # the query log's lines of a card's laps (``lab/benchmarks/table_figures``)


class CardTurns:
    """At most ``size`` cards at once in the loop's part of a card (played on the copy,
    statement sent, board rendered, statement back). With every card in at once, each
    card's last step waited behind the first steps of all the cards that came after it; in
    turns, the cards that came first are finished first. A turn not given within ``wait``
    seconds is taken anyway, and a card whose statement is slow gives its turn back early
    (``Turn.give_back``): turns order the loop's work, they never hold a card back for
    long, nor leave the loop idle behind a slow PostgreSQL."""

    def __init__(self, size: int, wait: float):
        self.size, self.wait = size, wait
        self.slots = asyncio.Semaphore(size) if size > 0 else None
        self.waiting = 0  # cards waiting for their turn now

    @asynccontextmanager
    async def turn(self):
        held = False
        if self.slots is not None:
            self.waiting += 1
            try:
                async with asyncio.timeout(self.wait):
                    await self.slots.acquire()
                held = True
            except TimeoutError:
                pass  # taken without a turn
            finally:
                self.waiting -= 1
        turn = Turn(self.slots if held else None)
        try:
            yield turn
        finally:
            turn.give_back()


class Turn:
    """A card's turn on the loop, given back once (at the end of ``CardTurns.turn`` at the
    latest)."""

    __slots__ = ("_slots",)

    def __init__(self, slots: asyncio.Semaphore | None):
        self._slots = slots

    @property
    def held(self) -> bool:
        return self._slots is not None

    def give_back(self) -> None:
        if self._slots is not None:
            self._slots.release()
            self._slots = None


_turns_by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def card_turns() -> CardTurns:
    """The running loop's turns (``COINS_LOOP_CARDS_AT_ONCE``, 0: no turns)."""
    loop = asyncio.get_running_loop()
    size, wait = settings.COINS_LOOP_CARDS_AT_ONCE, settings.COINS_LOOP_TURN_WAIT
    turns = _turns_by_loop.get(loop)
    if turns is None or (turns.size, turns.wait) != (size, wait):  # the settings changed
        turns = _turns_by_loop[loop] = CardTurns(size, wait)
    return turns


async def _kept(connections, prepared) -> list:
    """Send the statement and, once it has committed, do what waited for that; return the
    notices for the table's other sockets."""
    row = await connections.fetch_one(*prepared.statement, prepare=prepares())
    with notices_kept() as notices:
        prepared.written(row)
    statements_counted("human", 1, 1, prepared.result.played)
    return notices


async def play_on_loop(socket, card: str, data: dict) -> tuple | str | None:
    """Play ``card`` for ``socket``'s person on the loop; return what ``play_and_render``
    returns (board, move count, status, presence shown, notices), or None: the card goes
    to the database threads' path, nothing having been written; ``TO_THE_LOCK``: it goes
    there straight to the lock (a seat's change, say: tried on a copy there too, it would
    be played once more, with both bots' answers, for nothing)."""
    connections = loop_connections()
    if connections is None or not socket.seed:
        return None
    laps = Laps(LAPS_KIND)
    try:
        after = move_count(data.get("moves"))
        chosen = parse_card(card)
    except (GameError, IllegalPlay):
        return None  # the threads' path gives the refusal
    moves = after if after is not None else socket.sent_moves
    user = socket.request.user
    change = partial(flow.person_card, user=user, card=chosen, after_moves=after)
    async with card_turns().turn() as turn:
        laps.mark()  # this card's turn on the loop
        try:
            prepared = prepare_on_copy(
                socket.game_id, socket.seed, moves, socket.channel_name, change
            )
        except NeedsLock:
            return TO_THE_LOCK
        if prepared is None:
            return None
        laps.mark()  # played on the copy, both bots' answers and the statement included
        sent = asyncio.ensure_future(_kept(connections, prepared))
        await asyncio.sleep(0)  # ``_kept`` writes the statement; the board is rendered meanwhile
        result = prepared.result
        board = _board_on_loop(socket, result.loaded)
        laps.mark()  # the board rendered, the statement sent before it
        hold = settings.COINS_LOOP_TURN_HOLD
        if turn.held and not (await asyncio.wait({sent}, timeout=hold))[0]:
            turn.give_back()  # a slow statement: the next card goes on meanwhile
        try:
            # shielded: a handler cancelled now (the server stopping) leaves the card's own
            # work done once it commits (the cache, the runner's alarm)
            notices = await asyncio.shield(sent)
        except StaleTable:
            return None  # a row changed since the copy: nothing was written
        except Exception as error:  # a lost connection, say: the threads' path decides
            log.warning("Card at table %s: the loop's statement failed: %s", socket.game_id, error)
            return None
        laps.mark()  # the statement back, committed: what the board waited for after its render
    laps.log()
    game = result.loaded.game
    if board is None:  # the card is kept: its board comes from a database thread
        html, moves, status, _seated, shown = await in_db_thread(render_for)(
            game.pk, socket.seed, socket.request, game.moves, socket.presence
        )
        return html, moves, status, shown, notices
    return board[0], game.moves, game.status, board[1], notices


def _board_on_loop(socket, loaded) -> tuple[str, tuple] | None:
    """The mover's board and the presence it shows, rendered on the loop; None: it comes
    from a database thread. So does a private table's result: how it is kept once over
    (other apps' answers) is read from the database."""
    game = loaded.game
    if game.is_over and not game.is_public:
        return None
    try:
        context = viewer_context(
            game,
            socket.request,
            loaded=loaded,
            presence=socket.presence,
            just_ended=game.is_over,  # over now: ended by this card (as ``play_and_render``)
        )
        return render_board(context, socket.request), shown_presence(context)
    except Exception:
        log.warning("Board of table %s not rendered on the loop", socket.game_id, exc_info=True)
        return None
