"""Games' rows: a game, its seats, hands, tricks and plays (``games``), and the people at its
tables: presence, chat, the find-a-game queue and rematch offers (``social``). Import them
from here (``games.models``), as Django and the migrations do."""

from games.models.games import (  # noqa: F401
    BOT_PERSONAS,
    Game,
    Hand,
    Play,
    PlayerStats,
    Seat,
    Trick,
    new_invite_token,
)
from games.models.social import (  # noqa: F401
    ChatMessage,
    ChatMute,
    ChatReport,
    MatchQueue,
    Presence,
    Rematch,
)
