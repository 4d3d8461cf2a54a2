"""Finding puzzles in an analysed game.

A position makes a puzzle when one card is *clearly* best: every other card the seat could
play has a win chance at least ``COINS_PUZZLE_MARGIN`` (0.15 by default, fifteen
win-chance points) below the best card's, the seat holds at least ``MIN_CHOICES`` cards, and
the trick is not one of a hand's last ``SKIPPED_LAST_TRICKS`` (with two or three cards left
the answer is too often forced or obvious).

The position is stored as the seat's own view at that moment, rebuilt with the engine from the
game's decks and moves (``GameState.view_for(seat)``): the seat's hand, the trick so far, the
hand's earlier tricks, the scores, target, leader and dealer. Never another seat's cards.
"""

from __future__ import annotations

from django.conf import settings

from analysis.models import GameAnalysis
from analysis.services import job_for
from games.engine import CARD_CODES, TRICKS_PER_HAND, GameState
from games.models import Seat

from .models import Puzzle

MARGIN = 0.15  # the default of settings.COINS_PUZZLE_MARGIN
MIN_CHOICES = 3
SKIPPED_LAST_TRICKS = 3


def margin() -> float:
    return getattr(settings, "COINS_PUZZLE_MARGIN", MARGIN)


def clear_best(play: dict, threshold: float) -> str | None:
    """The card of ``play`` (an analysis entry) that is clearly best, or None."""
    values = play.get("values") or {}
    if len(values) < MIN_CHOICES or play["trick"] > TRICKS_PER_HAND - SKIPPED_LAST_TRICKS:
        return None
    top = max(values.values())
    best = play.get("best")  # the analysis's own pick breaks a tie (only with no margin)
    if values.get(best) != top:
        best = min(code for code, chance in values.items() if chance == top)
    others = [chance for card, chance in values.items() if card != best]
    if all(values[best] - chance >= threshold for chance in others):
        return best
    return None


def puzzles_from_analysis(analysis: GameAnalysis) -> list[Puzzle]:
    """Make (once) the puzzles of ``analysis``'s game; return the new ones."""
    threshold = margin()
    found = {
        index: best
        for index, play in enumerate(analysis.plays)
        if (best := clear_best(play, threshold)) is not None
    }
    if not found:
        return []
    job = job_for(analysis)
    users = dict(Seat.objects.filter(game_id=analysis.game_id).values_list("number", "user_id"))
    state = GameState(job.target, decks=list(job.decks), first_dealer=job.first_dealer)
    puzzles = []
    last = max(found)
    for index, (seat, card) in enumerate(job.moves[: last + 1]):
        if index in found:
            play = analysis.plays[index]
            view = state.view_for(seat)
            hand = {CARD_CODES[held] for held in view.hand}
            if set(play["values"]) == hand and view.to_play == seat:
                data = view.to_dict()
                data["played"] = [CARD_CODES[done] for done in view.played]
                puzzles.append(
                    Puzzle(
                        game_id=analysis.game_id,
                        move=index,
                        seat=seat,
                        user_id=users.get(seat),
                        hand_number=view.hand_number,
                        trick_number=view.trick_number,
                        solution=found[index],
                        played=CARD_CODES[card],
                        values=play["values"],
                        view=data,
                    )
                )
        state.play(seat, card)
    return Puzzle.objects.bulk_create(puzzles, ignore_conflicts=True)
