from django.contrib import admin

from common.admin_search import ScaledSearchMixin

from .models import Follow, TableInvite


@admin.register(Follow)
class FollowAdmin(ScaledSearchMixin, admin.ModelAdmin):
    list_display = ("follower", "followed", "created_at")
    raw_id_fields = ("follower", "followed")
    people_search = ("follower", "followed")


@admin.register(TableInvite)
class TableInviteAdmin(admin.ModelAdmin):
    list_display = ("sender", "recipient", "game", "created_at")
    raw_id_fields = ("sender", "recipient", "game")
