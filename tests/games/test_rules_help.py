"""Rules help at the table ("What would win?"): for each card of your hand, on your turn,
whether it would take the trick as it stands, worked out from your own view alone."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.board.presenters import trick_verdict
from games.engine import CARD_CODES, resolve_trick
from games.models import Game
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import section, serve_due

DECK = range(48)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=3, max_size=3, unique=True))
def test_played_last_a_card_wins_exactly_when_the_trick_rule_says_so(cards):
    first, second, mine = cards
    expected = "wins" if resolve_trick(first, second, mine)[0] == 2 else "loses"
    assert trick_verdict((first, second), mine, ()) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=2, max_size=2, unique=True),
    st.sets(st.sampled_from(DECK), max_size=20),
)
def test_played_second_a_card_can_win_when_some_unseen_card_lets_it(cards, unseen):
    lead, mine = cards
    unseen = unseen - {lead, mine}
    can = any(resolve_trick(lead, mine, third)[0] == 1 for third in unseen)
    assert trick_verdict((lead,), mine, tuple(unseen)) == ("can-win" if can else "cannot-win")
    assert trick_verdict((), mine, tuple(unseen)) == ""  # a lead can always win


def verdicts(html: str) -> dict[str, str]:
    hand = section(html, "hand")
    return dict(re.findall(r'data-card="([^"]+)" data-verdict="([^"]+)"', hand))


@pytest.mark.django_db
def test_the_hand_carries_a_verdict_on_your_turn_only(client, alice, bob):
    game = services.game_create(
        creator=alice, target=10, seat_kinds=["me", "random", "random"], is_rated=True
    )
    client.force_login(alice)
    seen_positions = set()
    for _ in range(30):
        serve_due(game.pk)
        game = Game.objects.get(pk=game.pk)
        view = game_load(game).state.view_for(0)
        html = client.get(game.get_absolute_url()).content.decode()
        marks = verdicts(html)
        if not game.is_running:
            break
        assert view.my_turn
        position = len(view.trick)
        seen_positions.add(position)
        hand = [CARD_CODES[card] for card in view.hand]
        if position == 0:
            assert marks == {} and "You lead: any card can win" in html
        else:
            assert sorted(marks) == sorted(hand)
            for code, verdict in marks.items():
                card = hand.index(code)
                assert verdict == trick_verdict(view.trick, view.hand[card], view.unseen_cards())
        flow.play_card(game_id=game.pk, user=alice, card=hand[0])
        after = client.get(game.get_absolute_url()).content.decode()
        if 'data-your-turn="false"' in after:
            assert verdicts(after) == {} and 'data-action="rules-help"' not in after
    assert len(seen_positions) >= 2  # she led, and followed (winning every trick: ~3**-30)
    client.force_login(bob)  # a spectator: no hand, no verdicts
    assert verdicts(client.get(game.get_absolute_url()).content.decode()) == {}
