# ruff: noqa: RUF001  (Django spells "can't" with a typographic apostrophe, U+2019)
"""Django's own words that people meet on our account forms (validators, the login and
password forms), listed so that ``makemessages`` keeps them in our catalogs. Ours come
before Django's, so the site speaks in one voice: informal (tú, tu, kamu) where Django's
translators chose the formal one (usted, vós, Anda). French keeps "vous" on both sides.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

WORDS = [
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("Enter a valid email address."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ "
        "characters."
    ),
    gettext_noop("Enter a valid value."),
]

PLURAL_WORDS = [  # lazy, never rendered here: only their entries matter
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "count",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "count",
    ),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "count",
    ),
]
