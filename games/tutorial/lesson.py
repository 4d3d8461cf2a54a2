"""The lesson's steps, rebuilt with the engine from the learner's stored cards, and what each
trick teaches. Pure Python (no Django): the page turns these facts into sentences.

Only the cards the learner chose are stored (``Progress``); the bots' cards follow from the
script, so replaying those cards through ``GameState.play`` rebuilds the hand exactly, and a
card the engine refuses changes nothing. What leaves this module is the learner's
``SeatView`` and facts about completed tricks and the learner's own hand: never a bot's
unplayed card.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import (
    CARD_CODES,
    GameState,
    IllegalPlay,
    SeatView,
    TrickCase,
    TrickRecord,
    parse_card,
    resolve_trick,
    suit_of,
    trick_case,
)
from games.engine.cards import beats
from games.engine.tricks import PAIR, THREE_SUITS
from games.tutorial import script
from games.tutorial.script import LEARNER

INTRO, TURN, RESULT, END = "intro", "turn", "result", "end"
STEPS = script.TRICKS + 2  # the introduction, one step per trick, the end
LEAD, SECOND, LAST = 0, 1, 2  # the learner's place in a trick


class OutOfStep(Exception):
    """A request that does not fit the lesson's current step (a card while a trick's result
    is being read, "next" before the card): nothing changes."""


@dataclass(frozen=True)
class Progress:
    """How far the learner is: started or not, the cards they played (codes, one per trick)
    and how many tricks' results they have read."""

    started: bool = False
    cards: tuple[str, ...] = ()
    read: int = 0

    @property
    def phase(self) -> str:
        if not self.started:
            return INTRO
        if len(self.cards) > self.read:
            return RESULT
        return END if self.read == script.TRICKS else TURN

    @property
    def trick(self) -> int:
        """The trick being played or explained (1-based); 0 before the start."""
        if not self.started:
            return 0
        return len(self.cards) + (1 if self.phase == TURN else 0)

    @property
    def step(self) -> int:
        """Step 1 is the introduction, then one step per trick, then the end."""
        return STEPS if self.phase == END else self.trick + 1

    @property
    def version(self) -> int:
        """Grows by one with each action: a form posted from an older page is recognised."""
        return int(self.started) + len(self.cards) + self.read

    def to_data(self) -> dict:
        return {"started": self.started, "cards": list(self.cards), "read": self.read}


def progress_from(data: object) -> Progress:
    """The progress kept in a session, or the start if ``data`` is not one the lesson could
    have reached (checked by replaying it)."""
    if not isinstance(data, dict):
        return Progress()
    started, cards, read = data.get("started"), data.get("cards"), data.get("read")
    if not (isinstance(started, bool) and isinstance(cards, list) and type(read) is int):
        return Progress()
    if not all(isinstance(code, str) for code in cards):
        return Progress()
    progress = Progress(started, tuple(cards), read)
    valid = (started or not cards) and 0 <= read <= len(cards) <= min(read + 1, script.TRICKS)
    if not valid:
        return Progress()
    try:
        _replay(progress)
    except (IllegalPlay, ValueError, TypeError):
        return Progress()
    return progress


def advance(progress: Progress, action: str, card: object = None) -> Progress:
    """The progress after ``action`` ("start", "card", "next" or "restart").

    Raise OutOfStep for an action the step does not offer, and the engine's IllegalPlay
    (NotACard, NotInHand) for a card it refuses; ``progress`` itself never changes.
    """
    phase = progress.phase
    if action == "restart":
        return Progress()
    if action == "start" and phase == INTRO:
        return Progress(started=True)
    if action == "next" and phase == RESULT:
        return Progress(True, progress.cards, progress.read + 1)
    if action == "card" and phase == TURN:
        state, _hands = _replay(progress)
        played = parse_card(card)  # a forged value: NotACard
        state.play(LEARNER, played)  # not in the learner's hand: NotInHand
        return Progress(True, (*progress.cards, CARD_CODES[played]), progress.read)
    raise OutOfStep(f"{action!r} does not fit the {phase} step.")


@dataclass(frozen=True)
class TurnLesson:
    """The learner's turn: their place in the trick, the cards already on the table and
    what each suit would make of it, and the card the lesson suggests."""

    number: int
    position: int  # LEAD, SECOND or LAST
    suggested: int | None
    third_suits: tuple[tuple[int, TrickCase], ...]  # LAST with two suits down: per absent suit
    pair_with: tuple[int, ...]  # LAST with two suits down: the cards a same-suit card pairs
    same_suit_best: int | None  # LAST with one suit down twice: the card to beat


@dataclass(frozen=True)
class TrickLesson:
    """A completed trick and what it teaches, from the engine's own verdict."""

    number: int
    leader: int
    cards: tuple[int, int, int]  # in play order
    winner: int  # seat, as the engine recorded it
    points: int
    case: TrickCase  # the rule that decided it (``case.winner`` is a position in ``cards``)
    chain: tuple[int, ...]  # THREE_SUITS: the three suits, the winning one first
    odd: int | None  # PAIR: position of the odd card
    odd_suit_beats_pair: bool  # PAIR: the odd card's suit beats the pair's, and still loses
    learner_card: int
    also_winning: tuple[int, ...]  # the learner's other cards that would have taken it

    @property
    def learner_won(self) -> bool:
        return self.winner == LEARNER

    def seat_at(self, position: int) -> int:
        return (self.leader + position) % 3


@dataclass(frozen=True)
class Lesson:
    """Everything the page may show at ``progress``."""

    progress: Progress
    view: SeatView  # the learner's view: their own hand and the public cards
    turn: TurnLesson | None  # on the learner's turn
    tricks: tuple[TrickLesson, ...]  # the tricks completed so far, explained


def lesson_at(progress: Progress) -> Lesson:
    state, hands_before = _replay(progress)
    view = state.view_for(LEARNER)
    tricks = tuple(
        trick_lesson(trick, hand)
        for trick, hand in zip(state.current_hand.tricks, hands_before, strict=False)
    )
    turn = turn_lesson(view) if progress.phase == TURN else None
    return Lesson(progress, view, turn, tricks)


def trick_lesson(trick: TrickRecord, hand_before: tuple[int, ...]) -> TrickLesson:
    """Explain ``trick`` for the learner, who held ``hand_before`` when it was their turn."""
    cards = trick.cards
    case = trick_case(cards)
    at = (LEARNER - trick.leader) % 3
    chain, odd, odd_beats = (), None, False
    if case.kind == THREE_SUITS:
        chain = tuple((case.suit + step) % 4 for step in range(3))  # each beats the next
    elif case.kind == PAIR:
        odd = next(i for i in range(3) if i not in (case.winner, case.beaten))
        odd_beats = beats(suit_of(cards[odd]), case.suit)

    def would_win(card: int) -> bool:
        other = list(cards)
        other[at] = card
        return resolve_trick(*other)[0] == at

    also = tuple(card for card in hand_before if card != cards[at] and would_win(card))
    return TrickLesson(
        trick.number,
        trick.leader,
        cards,
        trick.winner,
        trick.points,
        case,
        chain,
        odd,
        odd_beats,
        cards[at],
        also,
    )


def turn_lesson(view: SeatView) -> TurnLesson:
    """What the learner may know before their card: only their hand and the table."""
    table = view.trick
    suggested = parse_card(script.SUGGESTED[view.trick_number - 1])
    third, pair_with, best = (), (), None
    if len(table) == 2:
        suits = {suit_of(card) for card in table}
        if len(suits) == 2:
            absent = [suit for suit in range(4) if suit not in suits]
            third = tuple((suit, trick_case((*table, suit * 12))) for suit in absent)
            pair_with = tuple(table)
        else:
            best = max(table)
    return TurnLesson(
        view.trick_number,
        len(table),
        suggested if suggested in view.hand else None,
        third,
        pair_with,
        best,
    )


def _replay(progress: Progress) -> tuple[GameState, list[tuple[int, ...]]]:
    """The hand at ``progress``, and the learner's hand at each of their turns so far."""
    state = GameState(script.TARGET, decks=[script.DECK], first_dealer=script.DEALER)
    hands_before = []
    for card in progress.cards:
        _bots_lead(state)
        hands_before.append(tuple(state.hands[LEARNER]))
        state.play(LEARNER, card)
        _bots_finish(state)
    if progress.phase == TURN:
        _bots_lead(state)
        hands_before.append(tuple(state.hands[LEARNER]))
    return state, hands_before


def _bots_lead(state: GameState) -> None:
    """At the start of a trick, the bots before the learner play their scripted cards."""
    while state.to_play != LEARNER and not state.is_over:
        _bot_plays(state)


def _bots_finish(state: GameState) -> None:
    """After the learner's card, the bots after them complete the trick (one who takes it
    leads the next trick only when the lesson moves on)."""
    while state.trick and state.to_play != LEARNER:
        _bot_plays(state)


def _bot_plays(state: GameState) -> None:
    seat = state.to_play
    state.play(seat, script.BOT_CARDS[seat][len(state.current_hand.tricks)])
