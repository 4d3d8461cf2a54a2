"""``manage.py api_token USERNAME --scopes bot:play,challenge:write``: make a personal API
token for an account and print it (the only time it is shown)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from botapi.tokens import TokenRefused, token_create


class Command(BaseCommand):
    help = "Make an API token for USERNAME and print it (it is stored hashed: shown once)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--scopes", default="bot:play", help="comma-separated scopes")
        parser.add_argument("--name", default="manage.py api_token", help="the token's name")

    def handle(self, *args, username, scopes, name, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user {username!r}.")
        try:
            new = token_create(user=user, name=name, scopes=scopes)
        except TokenRefused as refusal:
            raise CommandError(str(refusal)) from None
        self.stdout.write(new.secret)
