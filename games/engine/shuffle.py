"""Deal material drawn from a game's secret seed.

The seed (128 random bits from `secrets`) keys SHAKE-256, an extendable-output hash, so every
deck and the first dealer are unpredictable without the seed yet reproducible from it. The
Fisher-Yates draws take 64 bits each, so the modulo bias is below 2**-58.
"""

import hashlib
import secrets


def new_seed() -> str:
    """Return fresh seed material from the operating system's secure random source."""
    return secrets.token_hex(16)


def _stream(label: str, seed: str, size: int) -> bytes:
    return hashlib.shake_256(f"coins/{label}:{seed}".encode()).digest(size)


def first_dealer_from_seed(seed: str) -> int:
    """Return the seat (0..2) that deals the first hand."""
    return int.from_bytes(_stream("dealer", seed, 8), "big") % 3


def deck_from_seed(seed: str, hand_number: int) -> tuple[int, ...]:
    """Return the shuffled deck, in dealing order, for hand ``hand_number`` (1-based)."""
    stream = _stream(f"deck/{hand_number}", seed, 8 * 47)
    deck = list(range(48))
    for draw, i in enumerate(range(47, 0, -1)):
        j = int.from_bytes(stream[8 * draw : 8 * draw + 8], "big") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)
