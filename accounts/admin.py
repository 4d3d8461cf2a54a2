"""Profiles in the admin, both on their own and inline on each user's page.

``UserAdmin`` here extends Django's; to add more to the user admin later, subclass this one
(``admin.site.unregister(User)`` then register the subclass) so the profile inline stays.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from common.admin_paging import CappedListMixin
from common.admin_search import ScaledSearchMixin

from .forms import check_name
from .models import Profile

User = get_user_model()


class ProfileInline(admin.StackedInline):
    model = Profile
    fields = ("display_name", "language", "created_at")
    readonly_fields = ("created_at",)
    can_delete = False
    max_num = 1


class CheckedUserCreationForm(AdminUserCreationForm):
    """The admin's new users follow the sign-up's rules on names (no lookalikes, no bots)."""

    def clean_username(self):
        username = super().clean_username()
        if username:
            check_name(username)
        return username


class CheckedUserChangeForm(UserChangeForm):
    """A renamed user may not take a lookalike of another's name or a bot's."""

    def clean_username(self):
        username = self.cleaned_data.get("username")
        if username and username != self.initial.get("username"):
            check_name(username, owner_id=self.instance.pk)
        return username


class UserAdmin(ScaledSearchMixin, CappedListMixin, BaseUserAdmin):
    people_search = ("",)  # the users themselves, found by the trigram indexes (accounts 0008)
    people_fields = ("username", "email")
    form = CheckedUserChangeForm
    add_form = CheckedUserCreationForm
    inlines = (*BaseUserAdmin.inlines, ProfileInline)
    # Ids with a lookup popup, not a select of every permission drawn option by option:
    # that drawing was most of the page's time (bench_pages, "admin user heavy").
    raw_id_fields = ("groups", "user_permissions")

    def get_inlines(self, request, obj):
        # On the add page the post_save signal creates the profile; an inline would clash.
        if obj is None:
            return [inline for inline in self.inlines if inline is not ProfileInline]
        return super().get_inlines(request, obj)


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, UserAdmin)


@admin.register(Profile)
class ProfileAdmin(ScaledSearchMixin, CappedListMixin, admin.ModelAdmin):
    list_display = ("user", "display_name", "language", "created_at")
    list_filter = ("language",)
    people_search = ("user",)
    search_text = ("display_name",)
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    readonly_fields = ("created_at",)
