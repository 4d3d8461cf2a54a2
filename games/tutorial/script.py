"""The tutorial's fixed deal: the same for everyone, so every learner (and every test) meets
the same tricks.

The learner sits in seat 0 and deals; Ana (seat 1, on the learner's left) leads the first
trick, then Leo (seat 2). Each bot plays a fixed card in each trick, whoever leads it, so
the tricks are the same whatever the learner does, and "which of your cards would have
won" can be answered exactly. Following the suggested cards, the five tricks show, in
order: three different suits (a low Coin beats a King), a pair (the odd card never wins,
though its suit beats the pair's), one suit (all Coins, three points), three suits again
(an Ace loses to a 7) and a pair in which an Ace is the odd card.
"""

from games.engine import parse_card

LEARNER, ANA, LEO = 0, 1, 2
DEALER = LEARNER  # so Ana, on the learner's left, leads the first trick
TARGET = 10  # never reached in the lesson: at most 3 + 5 Coins cards are played (a test says so)
TRICKS = 5  # the lesson plays the first five tricks of the hand

# The bots' card in each trick, first trick first.
BOT_CARDS = {
    ANA: ("12E", "12C", "5O", "3O", "1C"),
    LEO: ("4B", "1B", "11O", "7C", "6E"),
}
# The card the lesson suggests to the learner in each trick (any card may be played).
SUGGESTED = ("2O", "9C", "12O", "1E", "11E")
LEARNER_HAND = (
    *("10C", "9C", "4C", "3C"),
    *("12O", "8O", "2O"),
    *("1E", "11E", "5E", "3E"),
    *("12B", "10B", "9B", "6B", "2B"),
)


def hands() -> list[list[int]]:
    """The three hands: the learner's, then each bot's scripted cards followed by the rest of
    the deck, shared out in turn (those are never played in the lesson)."""
    learner = [parse_card(code) for code in LEARNER_HAND]
    bots = {seat: [parse_card(code) for code in codes] for seat, codes in BOT_CARDS.items()}
    taken = set(learner) | {card for cards in bots.values() for card in cards}
    rest = [card for card in range(48) if card not in taken]
    bots[ANA] += rest[0::2]
    bots[LEO] += rest[1::2]
    return [learner, bots[ANA], bots[LEO]]


def deck() -> tuple[int, ...]:
    """The deck in dealing order: card ``i`` goes to seat ``(DEALER + 1 + i) % 3``, so the
    engine's own deal gives back ``hands()``."""
    held = hands()
    return tuple(held[(DEALER + 1 + i) % 3][i // 3] for i in range(48))


DECK = deck()
