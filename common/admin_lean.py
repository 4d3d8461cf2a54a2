"""Admin lists that render lean: what Django's admin builds per row and per cell through
generic machinery, built here once per list with the same bytes.

* each row's action checkbox was a ``CheckboxInput`` rendered through the form renderer's
  templates (about a fifth of a list's server time): ``action_checkbox`` writes the same HTML;
* ``items_for_result`` (Django's, per row) looked up each column's field, class, empty value
  and link afresh, reversed the row's URL and merged the list's filters into it: here a
  column's plan is made once per list, the row's URL is the list's URL pattern with its pk;
* a boolean's icon is drawn once per value and process.

Lists with editable fields, popups or ``to_field`` keep Django's own rendering.
``tests/site/test_admin_lean.py`` holds every list of the admin, in two languages, byte for
byte to Django's rendering.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import cache

from django.contrib.admin import ModelAdmin, helpers
from django.contrib.admin.templatetags import admin_list
from django.contrib.admin.templatetags.admin_urls import add_preserved_filters
from django.contrib.admin.utils import (
    FieldIsAForeignKeyColumnName,
    _get_non_gfk_field,
    display_for_field,
    display_for_value,
    lookup_field,
    quote,
)
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist
from django.db import models
from django.urls import NoReverseMatch, reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

CHECKBOX = '<input type="checkbox" name="{}" value="{}" class="action-select" aria-label="{}">'
PK_MARK = "LEANPK0MARK"  # stands for the row's pk in the list's change URL


def action_checkbox(self, obj):
    """A list_display column containing a checkbox widget (as Django's, without a template)."""
    label = format_html(_("Select this object for an action - {}"), str(obj))
    return format_html(CHECKBOX, helpers.ACTION_CHECKBOX_NAME, str(obj.pk), label)


django_action_checkbox = ModelAdmin.action_checkbox
django_items_for_result = admin_list.items_for_result
django_boolean_icon = admin_list._boolean_icon


@dataclass(frozen=True)
class Column:
    name: object  # a field name, an admin or model attribute, or a callable
    css: str  # the class name Django gives the column ("field-<name>")
    link: bool
    field: models.Field | None  # a concrete field shown by ``display_for_field``


@dataclass(frozen=True)
class Plan:
    columns: tuple[Column, ...]
    empty: str
    url: str | None  # the change URL with ``PK_MARK`` for the pk, filters kept; None: no URL
    pk: str


def _plan(cl) -> Plan:
    """What every row of this list shares, worked out once."""
    plan = getattr(cl, "_lean_plan", None)
    if plan is not None:
        return plan
    links = cl.list_display_links
    columns = []
    for index, name in enumerate(cl.list_display):
        if links is None:
            link = False
        elif not links:
            link = index == 0  # Django links the first column
        else:
            link = name in links
        field = None
        if not callable(name):  # a field wins over an attribute, as in ``lookup_field``
            try:
                field = _get_non_gfk_field(cl.lookup_opts, name)
            except (FieldDoesNotExist, FieldIsAForeignKeyColumnName):
                field = None
            if field is not None and field.auto_created:
                field = None
        css = admin_list._coerce_field_name(name, index)
        columns.append(Column(name, css, link, field))
    try:
        url = reverse(
            f"admin:{cl.opts.app_label}_{cl.opts.model_name}_change",
            args=(PK_MARK,),
            current_app=cl.model_admin.admin_site.name,
        )
        url = add_preserved_filters(
            {"preserved_filters": cl.preserved_filters, "opts": cl.opts}, url
        )
    except NoReverseMatch:
        url = None
    empty = cl.model_admin.get_empty_value_display()
    plan = Plan(tuple(columns), empty, url, cl.lookup_opts.pk.attname)
    cl._lean_plan = plan
    return plan


def items_for_result(cl, result, form):
    """The cells of one row, as Django's ``items_for_result`` writes them."""
    if form is not None or cl.is_popup or cl.to_field:
        yield from django_items_for_result(cl, result, form)
        return
    plan = _plan(cl)
    first = True
    for column in plan.columns:
        classes = ["field-" + column.css]
        empty = plan.empty
        if column.field is not None:
            value = getattr(result, column.name)
            if isinstance(value, str) and value.strip() == "":
                value = ""
            shown = _field_cell(result, column.field, value, empty, column.link, classes)
        else:
            shown, classes, empty = _cell_of_attribute(cl, result, column, classes, empty)
        row_class = mark_safe(f' class="{" ".join(classes)}"')
        if column.link:
            tag = "th" if first else "td"
            first = False
            if plan.url is None:
                inner = shown
            else:
                url = plan.url.replace(PK_MARK, str(quote(getattr(result, plan.pk))), 1)
                inner = format_html('<a href="{}">{}</a>', url, shown)
            yield format_html("<{}{}>{}</{}>", tag, row_class, inner, tag)
        else:
            yield mark_safe(f"<td{row_class}>{conditional_escape(shown)}</td>")


def _cell_of_attribute(cl, result, column, classes, empty):
    """A column that is not a plain field: Django's own lookup, as it does it."""
    try:
        field, attr, value = lookup_field(column.name, result, cl.model_admin)
    except ObjectDoesNotExist:
        return empty, classes, empty
    empty = getattr(attr, "empty_value_display", empty)
    if isinstance(value, str) and value.strip() == "":
        value = ""
    if field is None or field.auto_created:
        if column.name == "action_checkbox":
            classes = ["action-checkbox"]
        boolean = getattr(attr, "boolean", False)
        if isinstance(attr, property) and hasattr(attr, "fget"):
            boolean = getattr(attr.fget, "boolean", False)
        shown = display_for_value(value, empty, boolean)
        if isinstance(value, (datetime.date, datetime.time)):
            classes.append("nowrap")
        return shown, classes, empty
    return _field_cell(result, field, value, empty, column.link, classes), classes, empty


def _field_cell(result, field, value, empty, link: bool, classes: list[str]):
    """A model field's cell, as Django shows it (a related row by its ``str``); adds the
    "nowrap" class Django gives dates, times and foreign keys."""
    if isinstance(field.remote_field, models.ManyToOneRel):
        related = getattr(result, field.name)
        shown = empty if related is None else related
    else:
        shown = display_for_field(value, field, empty, avoid_link=link)
    if isinstance(field, (models.DateField, models.TimeField, models.ForeignKey)):
        classes.append("nowrap")
    return shown


@cache
def boolean_icon(value):
    return django_boolean_icon(value)


def install() -> None:
    """Every ModelAdmin (ours, auth's, axes') renders its lists lean (the checkbox column's
    header, the select-all box, Django draws by the column's name)."""
    ModelAdmin.action_checkbox = action_checkbox
    admin_list.items_for_result = items_for_result
    admin_list._boolean_icon = boolean_icon
