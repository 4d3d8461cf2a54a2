"""The Bot API's fixtures (bot accounts, tokens, a client sending one) serve here too."""

from tests.botapi.conftest import api, make_token, robot  # noqa: F401
