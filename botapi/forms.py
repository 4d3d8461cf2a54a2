from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Scope


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        help_text=_("To tell your tokens apart, e.g. the bot's name."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=Scope.choices,
        initial=[Scope.BOT_PLAY],
        widget=forms.CheckboxSelectMultiple,
    )
