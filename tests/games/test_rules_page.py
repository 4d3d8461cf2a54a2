"""The rules page shows the cards as pictures (no internal codes) and works through each
example of the rules as a trick, its winner framed, in the reader's language."""

import re

import pytest

pytestmark = pytest.mark.django_db

# RULES.md's worked examples: leader first, and the card that wins.
EXAMPLES = [
    (("2C", "1O", "1E"), "2C"),
    (("12O", "3E", "5B"), "12O"),
    (("9E", "1B", "1C"), "9E"),
    (("2B", "12C", "1O"), "2B"),
    (("3O", "7O", "1C"), "7O"),
    (("10C", "11C", "2E"), "11C"),
    (("1B", "2B", "12B"), "1B"),
]


def test_the_rules_page_draws_every_card_and_each_worked_example(client):
    html = client.get("/rules/").content.decode()
    assert "<code>" not in html  # the suit letters are the site's, not the reader's
    faces = re.findall(r'<span class="card-face suit-([COEB])">', html)
    assert len(faces) == 48 + 3 * len(EXAMPLES)
    examples = re.findall(r'<li class="example".*?</li>', html, re.S)
    assert len(examples) == len(EXAMPLES)
    for shown, (cards, winner) in zip(examples, EXAMPLES, strict=True):
        assert re.findall(r'data-card="([^"]+)"', shown) == list(cards)
        assert re.findall(r'class="mini winner" data-card="([^"]+)"', shown) == [winner]
    assert "the odd card never wins" in examples[4]
    assert "Three suits, Clubs missing: Cups wins." in examples[0]


def test_the_rules_page_speaks_the_readers_language(client):
    client.cookies["django_language"] = "es"
    html = client.get("/rules/").content.decode()
    assert "Ejemplos resueltos" in html and "Tres palos, faltan Bastos: ganan Copas." in html
    assert "Worked examples" not in html
