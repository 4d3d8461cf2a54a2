from django.urls import path

from . import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("notifications/push/", views.PushSubscriptionView.as_view(), name="push_subscription"),
]
