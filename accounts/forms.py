"""Forms for signing up and editing one's profile."""

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from .models import Profile


class SignUpForm(UserCreationForm):
    """Username, an optional e-mail address for password resets, and the password twice."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        email = self.fields["email"]
        email.required = False
        email.label = _("E-mail address (optional)")
        email.help_text = _("Only used to send you a link if you forget your password.")
        email.widget.attrs["autocomplete"] = "email"
        self.fields["username"].widget.attrs["autocomplete"] = "username"

    def clean_email(self) -> str:
        return get_user_model().objects.normalize_email(self.cleaned_data.get("email") or "")


def language_choices() -> list[tuple[str, str]]:
    """The site's languages, each named in itself ("Español") so everyone can find theirs."""
    choices = [("", _("Same as my browser"))]
    for code, _name in settings.LANGUAGES:
        choices.append((code, get_language_info(code)["name_local"]))
    return choices


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("display_name", "language", "show_hints", "turn_sound")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = language_choices()
        self.fields["display_name"].widget.attrs["autocomplete"] = "nickname"

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data.get("display_name", "").split())
        if not name:
            return ""
        if any(not char.isprintable() for char in name):
            raise forms.ValidationError(_("Use letters, digits, spaces and punctuation only."))
        user_model = get_user_model()
        users = user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__iexact": name})
        if self.instance.user_id is not None:
            users = users.exclude(pk=self.instance.user_id)
        if users.exists():
            raise forms.ValidationError(
                _("Another player's username is “%(name)s”; choose a different name."),
                params={"name": name},
            )
        return name
