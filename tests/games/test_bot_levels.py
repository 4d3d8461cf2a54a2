"""Levels people pick map to bots; games of the first expert keep naming the bot that
played them; records say which bot played."""

import importlib

import pytest
from django.apps import apps

from games.bots import SEAT_BOTS, bot_label
from games.engine.bots import BOT_CLASSES, LEVELS
from games.history.records import game_record
from games.models import Seat
from games.table import seats as services
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db


def test_every_level_is_a_bot_with_its_own_budget_and_a_translated_label():
    assert [level.key for level in LEVELS] == ["easy", "medium", "hard"]
    for level in LEVELS:
        assert level.bot in SEAT_BOTS
        assert bot_label(level.bot) == level.key.capitalize()
    assert BOT_CLASSES["expert-v2"].budget.iterations and BOT_CLASSES["expert-v2"].searches
    assert not BOT_CLASSES["careful"].searches


def test_the_migration_names_the_first_experts_games_expert_v1(alice):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "careful", "random"])
    Seat.objects.filter(game=game, number=1).update(bot="expert")  # as stored before
    PlayerRating.objects.create(bot="expert")
    migration = importlib.import_module("games.migrations.0011_bot_levels")
    migration.name_the_first_expert(apps, None)
    importlib.import_module("ratings.migrations.0004_bot_levels").name_the_first_expert(apps, None)
    assert Seat.objects.get(game=game, number=1).bot == "expert-v1"
    assert PlayerRating.objects.filter(bot="expert-v1").exists()
    assert game_record(game)["players"][1]["bot"] == "expert-v1"
    migration.name_it_back(apps, None)
    assert Seat.objects.get(game=game, number=1).bot == "expert"


def test_a_retired_bot_is_named_and_a_bot_is_no_database_choice():
    """Moving a level to another bot needs no migration: the fields hold any engine bot."""
    assert bot_label("expert-v3") == "Expert v3 (retired)"
    assert bot_label("lookahead") == "lookahead (retired)"
    assert not Seat._meta.get_field("bot").choices
    assert not PlayerRating._meta.get_field("bot").choices
