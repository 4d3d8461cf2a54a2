"""Forms for creating a table."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.bots import LEVEL_BOTS, LEVEL_LABELS, MEDIUM, OFFERED_BOTS, bot_label
from games.table.options import (
    COMMON_TARGETS,
    DEFAULT_CLOCK,
    QUEUE_CLOCKS,
    TARGETS,
    WAITS,
    clock_choices,
)
from games.table.seats import OPEN

TARGET_CHOICES = [*((t, str(t)) for t in COMMON_TARGETS), (0, _("Other"))]
SEAT_CHOICES = [
    (OPEN, _("Open seat for a person")),
    *((bot, _("Bot: %(level)s") % {"level": bot_label(bot)}) for bot in OFFERED_BOTS),
]


AUTO_CLOCK = "auto"


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
        min_value=TARGETS[0],
        max_value=TARGETS[-1],
        required=False,
        help_text=_("Any whole number from 1 to 99."),
    )
    seat_left = forms.ChoiceField(
        label=_("Seat on your left"), choices=SEAT_CHOICES, initial=MEDIUM
    )
    seat_right = forms.ChoiceField(
        label=_("Seat on your right"), choices=SEAT_CHOICES, initial=MEDIUM
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
        choices=[
            (AUTO_CLOCK, _("Automatic: none against two bots, 30 seconds per card with people")),
            *clock_choices(),
        ],
        coerce=lambda value: value if value == AUTO_CLOCK else int(value) if value else None,
        empty_value=None,
        initial=AUTO_CLOCK,
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
            if other is None or other not in TARGETS:
                self.add_error("other_target", _("Enter a target from 1 to 99."))
            else:
                data["target"] = other
        if data.get("clock") == AUTO_CLOCK:  # no one to wait for at a table of bots
            bots_only = OPEN not in (data.get("seat_left"), data.get("seat_right"))
            data["clock"] = None if bots_only else DEFAULT_CLOCK
        return data

    def seat_kinds(self) -> list[str]:
        """Seats 0..2 for the service: the creator sits in seat 0."""
        return ["me", self.cleaned_data["seat_left"], self.cleaned_data["seat_right"]]


class FindGameForm(forms.Form):
    """The find-a-game queue's options: people are seated together by target and speed."""

    target = forms.TypedChoiceField(
        label=_("Target score"),
        choices=[(t, str(t)) for t in COMMON_TARGETS],
        coerce=int,
        initial=10,
    )
    clock = forms.TypedChoiceField(
        label=_("Speed"),
        choices=clock_choices(QUEUE_CLOCKS),
        coerce=int,
        initial=str(DEFAULT_CLOCK),
    )
    wait = forms.TypedChoiceField(
        label=_("Bots fill the free seats after"),
        choices=[("" if s is None else str(s), label) for s, label in WAITS.items()],
        coerce=lambda value: int(value) if value else None,
        empty_value=None,
        required=False,
        initial="30",
    )


class QuickPlayForm(forms.Form):
    """ "Play now against two bots": the target and the bots' level (10 points and medium
    when the button comes without them, as on the home page)."""

    target = forms.IntegerField(  # the lobby offers the common targets; "play again" any
        label=_("Target score"),
        min_value=TARGETS[0],
        max_value=TARGETS[-1],
        initial=COMMON_TARGETS[0],
        required=False,
        widget=forms.Select(choices=[(t, str(t)) for t in COMMON_TARGETS]),
    )
    level = forms.ChoiceField(
        label=_("Bots"),
        choices=[(key, label) for key, label in LEVEL_LABELS.items()],
        initial="medium",
        required=False,
    )

    def clean_target(self) -> int:
        target = self.cleaned_data["target"]
        return COMMON_TARGETS[0] if target is None else target

    def clean_level(self) -> str:
        return self.cleaned_data["level"] or "medium"

    def bot(self) -> str:
        return LEVEL_BOTS[self.cleaned_data["level"]]
