"""Values: what the end of a hand nobody won is worth, by the lead or by the race."""

from .hand import hand_value
from .race import race_chances, race_index, race_value

__all__ = ["hand_value", "race_chances", "race_index", "race_value"]
