"""The parts of the table's board built in Python (``games/board/board_html.py`` and
``games/board/felt.py``), each read from the board's context."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.board import board_html
from games.board.felt import felt_html
from games.board.result_html import result_html

register = template.Library()


@register.simple_tag
def felt(seats: list[dict], trick: dict, last_trick: dict | None) -> SafeString:
    """The seats, the cards on the table and the last trick of a dealt table."""
    return felt_html(seats, trick, last_trick)


@register.simple_tag(takes_context=True)
def board_top(context) -> SafeString:
    return mark_safe(board_html.board_top(context))


@register.simple_tag(takes_context=True)
def board_play(context) -> SafeString:
    played = felt_html(context["seats"], context["trick"], context.get("last_trick"))
    return mark_safe(board_html.board_play(context, played))


@register.simple_tag(takes_context=True)
def board_hand(context) -> SafeString:
    return mark_safe(board_html.board_hand(context))


@register.simple_tag(takes_context=True)
def board_bottom(context) -> SafeString:
    return mark_safe(board_html.board_bottom(context))


@register.simple_tag(takes_context=True)
def board_result(context) -> SafeString:
    """A finished game's result panel (the page's; a socket's board is built whole)."""
    user = context.get("user")
    signed_in = bool(user and user.is_authenticated)
    return mark_safe(result_html(context, signed_in))
