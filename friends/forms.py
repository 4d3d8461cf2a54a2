"""The invitation form: the create-a-table form with the friend in the seat on your left."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import GameCreateForm
from games.table.seats import OPEN


class TableInviteForm(GameCreateForm):
    """A private table with the friend on your left; the right seat open or a bot."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["is_public"]  # a friend's table is private: the invitation is its key
        self.fields["seat_left"] = forms.CharField(widget=forms.HiddenInput, required=False)
        self.fields["seat_right"].label = _("Third seat")
        self.fields["seat_right"].initial = OPEN

    def clean_seat_left(self) -> str:
        return OPEN  # kept for the friend, whatever was posted
