"""``{{ user|public_name }}``: the name other players see."""

from django import template

from .. import selectors

register = template.Library()


@register.filter
def public_name(user) -> str:
    return selectors.public_name(user)
