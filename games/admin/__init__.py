"""Games in the admin: the games themselves (``games``) and the chat reports (``chat``)."""

from games.admin import chat, games  # noqa: F401  (each registers its pages)
