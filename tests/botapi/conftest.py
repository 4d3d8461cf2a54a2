"""Fixtures of the Bot API's tests: tokens, bot accounts, a client that sends a token."""

import pytest
from django.test import Client

from accounts.models import Profile
from botapi.tokens import token_create


@pytest.fixture
def make_token():
    def make(user, scopes=("bot:play",), name="my bot") -> str:
        return token_create(user=user, name=name, scopes=list(scopes)).secret

    return make


def make_bot_account(user):
    Profile.objects.update_or_create(user=user, defaults={"is_bot": True})
    user.refresh_from_db()
    return user


@pytest.fixture
def robot(make_user):
    """A bot account."""
    return make_bot_account(make_user("robot"))


@pytest.fixture
def api(robot, make_token):
    """A client sending the bot account's token (``bot:play``)."""
    return Client(headers={"Authorization": f"Bearer {make_token(robot)}"})
