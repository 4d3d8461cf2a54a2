from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/", views.ListView.as_view(), name="tournaments"),
    path("tournaments/<int:pk>/", views.DetailView.as_view(), name="tournament"),
    path("tournaments/<int:pk>/join/", views.JoinView.as_view(), name="tournament_join"),
    path("tournaments/<int:pk>/leave/", views.LeaveView.as_view(), name="tournament_leave"),
]
