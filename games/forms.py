"""Forms for creating a table."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import OFFERED_BOTS, BotLevel
from games.table.seats import OPEN

TARGET_CHOICES = [(10, "10"), (15, "15"), (20, "20"), (0, _("Other"))]
CLOCK_CHOICES = [
    ("", _("No clock")),
    ("10", _("10 seconds per card")),
    ("20", _("20 seconds per card")),
    ("30", _("30 seconds per card")),
    ("60", _("1 minute per card")),
    ("86400", _("A day per card (slow play)")),
]
SEAT_CHOICES = [
    (OPEN, _("Open seat for a person")),
    *((bot, _("Bot: %(level)s") % {"level": BotLevel(bot).label}) for bot in OFFERED_BOTS),
]


class GameCreateForm(forms.Form):
    target = forms.TypedChoiceField(
        label=_("Target score"),
        choices=TARGET_CHOICES,
        coerce=int,
        initial=10,
        widget=forms.RadioSelect,
    )
    other_target = forms.IntegerField(
        label=_("Other target"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_("Any whole number from 1 to 99."),
    )
    seat_left = forms.ChoiceField(
        label=_("Seat on your left"), choices=SEAT_CHOICES, initial=BotLevel.CAREFUL
    )
    seat_right = forms.ChoiceField(
        label=_("Seat on your right"), choices=SEAT_CHOICES, initial=BotLevel.CAREFUL
    )
    is_public = forms.TypedChoiceField(
        label=_("Who can see the table"),
        coerce=lambda v: v == "public",
        initial="public",
        choices=[
            ("public", _("Public: listed in the lobby, anyone may watch")),
            ("private", _("Private: only people with the invite link")),
        ],
        widget=forms.RadioSelect,
    )

    clock = forms.TypedChoiceField(
        label=_("Clock"),
        choices=CLOCK_CHOICES,
        coerce=lambda value: int(value) if value else None,
        empty_value=None,
        initial="30",
        required=False,
        help_text=_(
            "Time each person has per card. When it runs out the server plays for them; "
            "after two such cards in a row a bot takes their seat."
        ),
    )
    is_rated = forms.BooleanField(
        label=_("Rated game"),
        required=False,
        initial=True,
        help_text=_("Rated games count for your rating; casual games offer hints."),
    )

    def clean(self):
        data = super().clean()
        if data.get("target") == 0:  # "Other": only then does the other box count
            other = data.get("other_target")
            if other is None or not 1 <= other <= 99:
                self.add_error("other_target", _("Enter a target from 1 to 99."))
            else:
                data["target"] = other
        return data

    def seat_kinds(self) -> list[str]:
        """Seats 0..2 for the service: the creator sits in seat 0."""
        return ["me", self.cleaned_data["seat_left"], self.cleaned_data["seat_right"]]


class FindGameForm(forms.Form):
    """The find-a-game queue's options: people are seated together by target and speed."""

    target = forms.TypedChoiceField(
        label=_("Target score"),
        choices=[(10, "10"), (15, "15"), (20, "20")],
        coerce=int,
        initial=10,
    )
    clock = forms.TypedChoiceField(
        label=_("Speed"),
        choices=[c for c in CLOCK_CHOICES if c[0] in ("10", "20", "30", "60")],
        coerce=int,
        initial="30",
    )
    wait = forms.TypedChoiceField(
        label=_("Bots fill the free seats after"),
        choices=[("30", _("30 seconds")), ("120", _("2 minutes")), ("", _("Never: people only"))],
        coerce=lambda value: int(value) if value else None,
        empty_value=None,
        required=False,
        initial="30",
    )
