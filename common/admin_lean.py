"""Admin lists that render lean: what Django's admin builds per row through the form and
template machinery, built here once per row with the same bytes.

Each list row's action checkbox was a ``CheckboxInput`` rendered through the form renderer's
templates (about a fifth of a list's server time); ``action_checkbox`` writes the same HTML.
``tests/admin/test_admin_lean.py`` holds both byte for byte on every list of the admin.
"""

from django.contrib.admin import ModelAdmin, helpers
from django.utils.html import format_html
from django.utils.translation import gettext as _

CHECKBOX = (
    '<input type="checkbox" name="{}" value="{}" class="action-select" aria-label="{}">'
)


def action_checkbox(self, obj):
    """A list_display column containing a checkbox widget (as Django's, without a template)."""
    label = format_html(_("Select this object for an action - {}"), str(obj))
    return format_html(CHECKBOX, helpers.ACTION_CHECKBOX_NAME, str(obj.pk), label)


django_action_checkbox = ModelAdmin.action_checkbox


def install() -> None:
    """Every ModelAdmin (ours, auth's, axes') renders its checkboxes lean (the column's
    header, the select-all box, Django draws by the column's name)."""
    ModelAdmin.action_checkbox = action_checkbox
