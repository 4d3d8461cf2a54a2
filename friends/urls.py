from django.urls import path

from . import views

urlpatterns = [
    path("friends/", views.FriendsView.as_view(), name="friends"),
    path("friends/follow/", views.FollowView.as_view(follow=True), name="friend_follow"),
    path("friends/unfollow/", views.FollowView.as_view(follow=False), name="friend_unfollow"),
    path("friends/invite/<str:username>/", views.InviteView.as_view(), name="friend_invite"),
    path(
        "friends/invitations/<int:invite_id>/decline/",
        views.DeclineView.as_view(),
        name="friend_decline",
    ),
]
