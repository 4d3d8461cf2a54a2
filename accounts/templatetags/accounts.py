"""``{{ user|public_name }}``: the name other players see."""

from urllib.parse import urlencode

from django import template

from .. import selectors

register = template.Library()


@register.filter
def public_name(user) -> str:
    return selectors.public_name(user)


@register.filter
def come_back_here(request) -> str:
    """``?next=`` for a log-in or sign-up link: back to this page afterwards (with its query
    string, such as a table's invite), unless this page is itself an account page."""
    if request is None or request.path.startswith("/accounts/"):
        return ""
    return "?" + urlencode({"next": request.get_full_path()})
