"""The felt built in Python (``games/board/felt.py``) is what the template it replaced drew:
every board of whole games (a clock, a seat taken over by a bot, the last trick, a finished
game), for the player and a watcher, in every language, with pieces kept across them all.
Runs of whitespace between tags count as one space, as the browser reads them; nothing else
may differ."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template
from django.utils import translation

from games.board import felt
from games.board.render import viewer_context
from games.engine import CARD_CODES
from games.models import Game, Seat
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import serve_due
from .test_kept_pieces import request_for

pytestmark = pytest.mark.django_db

# The felt as templates/games/table.html drew it before ``{% felt %}`` took its place (its
# ``{% memo %}`` tags dropped, its ``presence`` partial written in).
PRESENCE = (
    '<span id="presence-{{ seat.number }}" class="presence-slot"{% if oob %} hx-swap-oob="true"'
    '{% endif %}>{% if seat.presence == "here" or seat.presence == "away" %} <span class="presence'
    ' {{ seat.presence }}" data-presence-seat="{{ seat.number }}" data-presence="{{ seat.presence'
    ' }}">{% if seat.presence == "here" %}{% translate "connected" %}{% else %}{% translate'
    ' "disconnected" %}{% endif %}</span>{% endif %}</span>'
)
TEMPLATE_FELT = (
    """{% load i18n cards %}
      <div class="felt">
        {% for seat in seats %}
          <div class="seat pos-{{ seat.position }}{% if seat.is_turn %} is-turn{% endif %}{% if seat.is_winner %} is-winner{% endif %}" data-seat="{{ seat.number }}">
            <div class="seat-name">{% if seat.username %}<a href="{% url 'player_profile' seat.username %}">{{ seat.name }}</a>{% else %}{{ seat.name }}{% endif %}{% if seat.is_you %} <span class="badge">{% translate "you" %}</span>{% endif %}{% if seat.is_bot %} <span class="badge">{{ seat.bot_label }}</span>{% endif %}PRESENCE</div>
            <div class="seat-facts">
              <span class="score" title="{% translate 'Points' %}"><svg class="pip suit-O" aria-hidden="true"><use href="#pip-O"></use></svg> <span class="sr-only">{% translate "Points" %}:</span> <span data-score-seat="{{ seat.number }}">{{ seat.score }}</span></span>
              <span class="cards-left">{% blocktranslate count count=seat.cards_left %}{{ count }} card{% plural %}{{ count }} cards{% endblocktranslate %}</span>
              {% if seat.is_dealer %}<span class="badge" title="{% translate 'Dealer' %}">{% translate "dealer" %}</span>{% endif %}
              {% if seat.is_turn %}<span class="badge turn">{% translate "to play" %}</span>{% endif %}
              {% if seat.deadline %}<span class="clock" data-clock-seat="{{ seat.number }}" data-deadline="{{ seat.deadline }}" title="{% translate 'Time left for this card' %}">{{ seat.seconds_left }} s</span>{% endif %}
              {% if seat.stand_in %}<span class="badge stand-in" title="{% translate 'Away too long: a bot plays this seat for the rest of the game.' %}">{% translate "a bot plays for them" %}</span>{% endif %}
            </div>
          </div>
        {% endfor %}

        <section id="trick" class="trick{% if trick.complete %} complete{% for card in trick.cards %}{% if card.is_winner %} won-{{ card.position }}{% endif %}{% endfor %}{% endif %}" data-trick="{{ trick.number }}" aria-label="{% translate 'Cards on the table' %}">
          {% for card in trick.cards %}
            <div class="played pos-{{ card.position }}{% if card.is_winner %} winner{% endif %}{% if forloop.last %} newest{% endif %}" data-card="{{ card.code }}" data-seat="{{ card.seat }}" data-announce="{{ card.player }}: {{ card.name }}.">
              {% card_face card %}
              <span class="by">{{ card.player }}{% if card.is_lead %} · {% translate "led" %}{% endif %}</span>
            </div>
          {% empty %}
            <p class="hint">{% translate "No card played yet in this trick." %}</p>
          {% endfor %}
          {% if trick.complete %}<p class="trick-result">{% blocktranslate count points=trick.points with name=trick.winner_name %}{{ name }} takes the trick and {{ points }} point.{% plural %}{{ name }} takes the trick and {{ points }} points.{% endblocktranslate %} <span class="why">{{ last_trick.why }}</span></p>{% endif %}
        </section>
        {% if last_trick and not trick.complete %}
          <aside id="last-trick" class="last-trick" data-trick="{{ last_trick.number }}" aria-label="{% translate 'Last trick' %}">
            <h2>{% blocktranslate with number=last_trick.number %}Last trick ({{ number }}){% endblocktranslate %}</h2>
            <div class="mini-trick">
              {% for card in last_trick.cards %}<span class="mini{% if card.is_winner %} winner{% endif %}" data-card="{{ card.code }}" title="{{ card.player }}" data-announce="{{ card.player }}: {{ card.name }}.">{% card_face card %}<span class="by">{{ card.player }}</span></span>{% endfor %}
            </div>
            <p class="last-result">{% blocktranslate count points=last_trick.points with name=last_trick.winner_name %}{{ name }} won {{ points }} point.{% plural %}{{ name }} won {{ points }} points.{% endblocktranslate %} <span class="why">{{ last_trick.why }}</span></p>
          </aside>
        {% endif %}
      </div>"""  # noqa: E501 (the template's own lines)
).replace("PRESENCE", PRESENCE)
WHITESPACE = re.compile(r"\s+")


def spaced(html: str) -> str:
    return WHITESPACE.sub(" ", html).strip()


def compare_boards(game: Game, requests: list, template: Template) -> int:
    """Compare the felt of ``game`` as it stands for every viewer and language."""
    loaded = game_load(game)
    compared = 0
    for request in requests:
        for language, _ in settings.LANGUAGES:
            with translation.override(language):
                presence = {"users": [request.user.pk] if request.user.pk else [], "anonymous": 2}
                context = viewer_context(game, request, loaded=loaded, presence=presence)
                expected = template.render(Context(context))
                built = felt.felt_html(context["seats"], context["trick"], context["last_trick"])
                assert spaced(built) == spaced(expected)
                compared += 1
    return compared


def test_the_felt_is_the_template_s_along_whole_games(make_user):
    """Two games against bots (one with a clock), the person's seat taken over by a bot
    half way through the second: the felt of every board from the deal to the end."""
    ann = make_user("ann<&\"'>")  # a name the HTML must escape
    template = Template(TEMPLATE_FELT)
    compared = kinds = 0
    for clock in (None, 60):
        game = services.game_create(
            creator=ann, target=12, seat_kinds=["me", "careful", "careful"], clock=clock
        )
        requests = [request_for(game, ann), request_for(game, AnonymousUser())]
        while True:
            serve_due(game.pk)
            game.refresh_from_db()
            compared += compare_boards(game, requests, template)
            if not game.is_running:
                break
            state = game_load(game).state
            if clock and game.moves > 30:  # away too long: a bot plays the seat from here
                Seat.objects.filter(game=game, number=0).update(stand_in="careful")
                serve_due(game.pk, later=timedelta(minutes=1))
            elif state.to_play == 0:
                card = CARD_CODES[state.legal_cards(0)[-1]]
                flow.play_card(game_id=game.pk, user=ann, card=card)
            else:
                serve_due(game.pk, later=timedelta(minutes=1))
        kinds += 1
    assert kinds == 2 and compared > 200
    assert len(felt._kept) > 50  # the pieces were kept, and reused


def test_a_fresh_felt_and_one_from_kept_pieces_are_the_same(make_user, monkeypatch):
    ann = make_user("ann")
    game = services.game_quick_play(user=ann, bot="careful", target=12)
    serve_due(game.pk)
    request = request_for(game, ann)
    for _ in range(10):
        game.refresh_from_db()
        context = viewer_context(game, request, presence={"users": [], "anonymous": 0})
        parts = context["seats"], context["trick"], context["last_trick"]
        warm = felt.felt_html(*parts)
        monkeypatch.setattr(felt, "_kept", {})
        assert felt.felt_html(*parts) == warm
        state = game_load(game).state
        flow.play_card(game_id=game.pk, user=ann, card=CARD_CODES[state.legal_cards(0)[0]])
        serve_due(game.pk, later=timedelta(minutes=1))
