from django.contrib import admin

from .models import Follow, TableInvite


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("follower", "followed", "created_at")
    raw_id_fields = ("follower", "followed")
    search_fields = ("^follower__username", "^followed__username")


@admin.register(TableInvite)
class TableInviteAdmin(admin.ModelAdmin):
    list_display = ("sender", "recipient", "game", "created_at")
    raw_id_fields = ("sender", "recipient", "game")
