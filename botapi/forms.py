from django import forms
from django.utils.translation import gettext_lazy as _

from games.bots import LEVEL_LABELS

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


class ChallengeForm(forms.Form):
    """A person challenges a bot account from its player page: the third seat is a site
    bot."""

    target = forms.IntegerField(label=_("Target score"), min_value=1, max_value=99, initial=10)
    level = forms.ChoiceField(
        label=_("Third seat"), choices=list(LEVEL_LABELS.items()), initial="medium"
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)

    def challenge_data(self) -> dict:
        data = self.cleaned_data
        return {
            "target": data["target"],
            "rated": data["rated"],
            "seats": ["challenged", data["level"]],
        }
