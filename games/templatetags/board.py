"""Pieces of the table's board built in Python (``games/board/felt.py``)."""

from django import template
from django.utils.safestring import SafeString

from games.board.felt import felt_html

register = template.Library()


@register.simple_tag
def felt(seats: list[dict], trick: dict, last_trick: dict | None) -> SafeString:
    """The seats, the cards on the table and the last trick of a dealt table."""
    return felt_html(seats, trick, last_trick)
