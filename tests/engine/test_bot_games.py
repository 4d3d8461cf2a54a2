"""The bots play exactly the cards they played before: a fixed set of bot games (every bot,
several deals and seatings, whole games to 10) hashed through their records.

The pinned digest was taken before the bots became a library of ideas (issue 25) and must
not move when code is only reorganised. If a change is meant to change how a bot plays,
say so in its commit and pin the new digest.
"""

import hashlib

from games.engine import GameState, bot_players, record_json, record_of
from games.engine.bots import BOT_NAMES, Budget, make_bot

SMALL = Budget(iterations=6)  # iterations only: the clock is never read
MIXED = (
    ("expert-v4", "expert-v1", "careful"),
    ("expert-v3", "heuristic", "random"),
    ("expert-v2", "careful", "expert-v4"),
)
PINNED = "f1e3f917a481d8690820d0dd6990269003d589ec84bd9c59057925a3f71a2b64"


def games():
    """Every bot against itself on three deals, and three mixed lineups in every rotation."""
    for name in BOT_NAMES:
        for deal in range(3):
            yield (name,) * 3, f"same-{deal}"
    for lineup in MIXED:
        for turn in range(3):
            yield lineup[turn:] + lineup[:turn], f"mixed-{turn}"


def record(seating: tuple[str, ...], seed: str, target: int = 10) -> str:
    """The canonical record of one whole game between bots thinking with ``SMALL``."""
    state = GameState(target, seed=f"{seed}/deal")
    bots = [
        make_bot(name, seed=f"{seed}/{seat}", budget=SMALL) for seat, name in enumerate(seating)
    ]
    while state.winner is None:
        seat = state.to_play
        state.play(seat, bots[seat].choose(state.view_for(seat)))
    return record_json(record_of(state, game_id=seed, players=bot_players(seating)))


def digest() -> str:
    total = hashlib.sha256()
    for seating, seed in games():
        total.update(record(seating, "/".join(seating) + "/" + seed).encode())
    return total.hexdigest()


def test_every_bot_plays_the_cards_it_played_before():
    assert set(BOT_NAMES) <= {name for seating, _ in games() for name in seating}
    assert digest() == PINNED


def test_the_digest_sees_a_single_card_played_differently(monkeypatch):
    """A careful bot that plays one other card once in a game changes the game's record."""
    from games.engine.bots.policies import careful

    before = record(("careful",) * 3, "once")
    real, calls = careful.careful_card, []

    def once_different(hand, trick, my_score, target):
        calls.append(1)
        card = real(hand, trick, my_score, target)
        others = [c for c in hand if c != card]
        return others[0] if len(calls) == 20 and others else card

    monkeypatch.setattr(careful, "careful_card", once_different)
    assert record(("careful",) * 3, "once") != before
