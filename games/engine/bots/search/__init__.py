"""Search: determinized search with play-outs and inference, and the exact endgame (max-n).
One bot (`SearchBot`), configured by `SearchSettings`."""

from .bot import SearchBot
from .settings import SearchSettings

__all__ = ["SearchBot", "SearchSettings"]
