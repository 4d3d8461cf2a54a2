"""Forms for signing up and editing one's profile."""

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from coins_site.monitoring import throttled

from .models import Profile
from .names import lookalike_key, mixes_scripts_dangerously, passes_for_a_bot


def check_name(name: str, *, owner_id=None) -> None:
    """Refuse a username or display name that passes for a bot, mixes scripts with lookalike
    letters, or looks like another user's username (``owner_id``: the user it is for)."""
    if passes_for_a_bot(name):
        throttled("name")
        raise forms.ValidationError(
            _("“%(name)s” could be taken for one of the site's bots; choose another name."),
            code="bot_name",
            params={"name": name},
        )
    if mixes_scripts_dangerously(name):
        throttled("name")
        raise forms.ValidationError(
            _("“%(name)s” mixes letters of different alphabets that look alike; use one alphabet."),
            code="mixed_scripts",
            params={"name": name},
        )
    lookalikes = Profile.objects.filter(username_skeleton=lookalike_key(name))
    if owner_id is not None:
        lookalikes = lookalikes.exclude(user_id=owner_id)
    if lookalikes.exists():
        throttled("name")
        raise lookalike_error(name)


def lookalike_error(name: str) -> forms.ValidationError:
    return forms.ValidationError(
        _("“%(name)s” looks too much like another player's username; choose another name."),
        code="lookalike",
        params={"name": name},
    )


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

    def clean_username(self) -> str:
        username = super().clean_username()  # NFKC-normalized; None if taken in any case
        if username:
            check_name(username)
        return username

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
        fields = (
            "display_name",
            "language",
            "show_hints",
            "turn_sound",
            "trick_pause",
            "turn_email",
            "turn_push",
        )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = language_choices()
        self.fields["display_name"].widget.attrs["autocomplete"] = "nickname"
        self.fields["trick_pause"].required = False  # left out: the normal pace
        if not (settings.COINS_VAPID_PUBLIC_KEY and settings.COINS_VAPID_PRIVATE_KEY):
            del self.fields["turn_push"]  # Web Push is off unless the site has VAPID keys

    def clean_turn_email(self) -> bool:
        wanted = self.cleaned_data.get("turn_email", False)
        if wanted and not self.instance.user.email:
            raise forms.ValidationError(_("Your account has no e-mail address to write to."))
        return wanted

    def clean_trick_pause(self) -> str:
        return self.cleaned_data.get("trick_pause") or "normal"

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
        check_name(name, owner_id=self.instance.user_id)
        return name
