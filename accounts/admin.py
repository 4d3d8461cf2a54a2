"""Profiles in the admin, both on their own and inline on each user's page.

``UserAdmin`` here extends Django's; to add more to the user admin later, subclass this one
(``admin.site.unregister(User)`` then register the subclass) so the profile inline stays.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import Profile

User = get_user_model()


class ProfileInline(admin.StackedInline):
    model = Profile
    fields = ("display_name", "language", "created_at")
    readonly_fields = ("created_at",)
    can_delete = False
    max_num = 1


class UserAdmin(BaseUserAdmin):
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
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language", "created_at")
    list_filter = ("language",)
    search_fields = ("user__username", "display_name")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    readonly_fields = ("created_at",)
