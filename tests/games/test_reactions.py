"""Emoji reactions, the service: the fixed set, who may react, and the limits (counted
atomically in the shared cache, so a burst from threads passes no more than allowed)."""

import pytest

from games.table import reactions
from games.table import seats as services

from .helpers import burst, play_out

pytestmark = pytest.mark.django_db


def test_the_set_is_small_and_fixed_with_a_label_for_each():
    assert list(reactions.REACTIONS) == [
        "thumbs_up",
        "clap",
        "wow",
        "laugh",
        "thinking",
        "good_game",
    ]
    for reaction in reactions.reaction_choices():
        assert reaction.emoji and str(reaction.label)


def test_the_limits_are_one_every_two_seconds_and_six_a_minute(alice):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    sent = reactions.reaction_send(game_id=game.pk, user=alice, reaction="clap")
    assert sent == {"reaction": "clap", "seat": 0, "user_id": alice.pk, "name": "alice"}
    with pytest.raises(reactions.ReactionRefused, match="One reaction at a time"):
        reactions.reaction_send(game_id=game.pk, user=alice, reaction="clap")
    for _ in range(5):
        reactions.throttles.clear("reaction", (alice.pk, game.pk))  # 2 s later
        reactions.reaction_send(game_id=game.pk, user=alice, reaction="clap")
    reactions.throttles.clear("reaction", (alice.pk, game.pk))
    with pytest.raises(reactions.ReactionRefused, match="wait a minute"):
        reactions.reaction_send(game_id=game.pk, user=alice, reaction="clap")
    other = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    reactions.reaction_send(game_id=other.pk, user=alice, reaction="clap")  # per table


@pytest.mark.django_db(transaction=True)
def test_fifty_calls_at_once_from_threads_pass_one(alice, shared_cache):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    results = burst(
        [
            lambda: reactions.reaction_send(game_id=game.pk, user=alice, reaction="wow")
            for _ in range(50)
        ]
    )
    assert sum(isinstance(result, dict) for result in results) == 1
    assert all(isinstance(result, dict | reactions.ReactionRefused) for result in results), results


def test_players_may_still_react_once_the_game_is_over(alice):
    """A finished table is where "good game" belongs: its players may react there."""
    game = play_out(
        services.game_create(creator=alice, target=3, seat_kinds=["me", "random", "random"]),
        alice,
    )
    assert not game.is_running
    sent = reactions.reaction_send(game_id=game.pk, user=alice, reaction="good_game")
    assert sent["seat"] == 0


def test_a_cache_that_is_down_refuses_reactions_clearly(alice, monkeypatch):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    monkeypatch.setattr(reactions.throttles, "take", lambda *args: None)
    with pytest.raises(reactions.ReactionRefused, match="unavailable for a moment"):
        reactions.reaction_send(game_id=game.pk, user=alice, reaction="clap")
