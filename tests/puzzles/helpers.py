"""Helpers for the puzzle tests: a finished game and an analysis of it written by hand, so
which positions are puzzles (and their answers) is known in advance."""

from __future__ import annotations

from django.utils import timezone

from analysis.models import GameAnalysis
from analysis.services import job_for
from games.engine import CARD_CODES, GameState
from games.models import Game
from games.table import seats as table_seats
from tests.games.helpers import play_out

LOW, HIGH = 0.4, 0.9  # every card's chance, and the clearly best card's


def finished_game(user, **kwargs) -> Game:
    """A game to 4 (``user`` in seat 0, playing its first card each turn; bots elsewhere)."""
    game = table_seats.game_create(
        creator=user, target=4, seat_kinds=["me", "careful", "careful"], **kwargs
    )
    return play_out(game, user)


def analysed(game: Game, *, seat: int = 0, count: int = 3) -> list[int]:
    """Give ``game`` a done analysis where ``count`` of ``seat``'s early positions have one
    clearly best card: the seat's highest card in its sorted hand, never the first card (the
    one ``play_out`` plays), so each is a position the person missed. Send ``analysis_done``
    as the analysis service does; return the move indexes of those positions."""
    from analysis.signals import analysis_done

    analysis, _ = GameAnalysis.objects.get_or_create(game=game)
    job = job_for(analysis)
    state = GameState(job.target, decks=list(job.decks), first_dealer=job.first_dealer)
    plays, chosen = [], []
    for index, (who, card) in enumerate(job.moves):
        hand = list(state.hands[who])
        values = {CARD_CODES[held]: LOW for held in hand}
        best = CARD_CODES[hand[0]]
        if who == seat and len(hand) >= 3 and state.trick_number <= 13 and len(chosen) < count:
            best = CARD_CODES[hand[-1]]
            values[best] = HIGH
            chosen.append(index)
        plays.append(
            {
                "hand": state.hand_number,
                "trick": state.trick_number,
                "seat": who,
                "card": CARD_CODES[card],
                "best": best,
                "values": values,
                "loss": round(values[best] - values[CARD_CODES[card]], 4),
                "label": "good",
            }
        )
        state.play(who, card)
    analysis.plays = plays
    analysis.status = GameAnalysis.Status.DONE
    analysis.finished_at = timezone.now()
    analysis.save()
    analysis_done.send(sender=None, analysis=analysis)
    return chosen
