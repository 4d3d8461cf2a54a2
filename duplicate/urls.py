from datetime import date

from django.urls import path, register_converter

from . import event_views, views


class DateConverter:
    """A day as ``YYYY-MM-DD``."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)  # a ValueError is a 404: no such day

    def to_url(self, value: date) -> str:
        return value.isoformat()


register_converter(DateConverter, "day")

urlpatterns = [
    path("duplicate/", views.DayView.as_view(), name="duplicate"),
    path("duplicate/play/", views.PlayView.as_view(), name="duplicate_play"),
    path("duplicate/ratings/", views.RatingsView.as_view(), name="duplicate_ratings"),
    path(
        "duplicate/events/<int:event_id>/", event_views.EventView.as_view(), name="duplicate_event"
    ),
    path(
        "duplicate/events/<int:event_id>/join/",
        event_views.EventJoinView.as_view(),
        name="duplicate_event_join",
    ),
    path(
        "duplicate/events/<int:event_id>.json",
        event_views.EventJsonView.as_view(),
        name="duplicate_event_json",
    ),
    path("duplicate/<day:day>/", views.DayView.as_view(), name="duplicate_day"),
    path("duplicate/<day:day>.json", views.DayJsonView.as_view(), name="duplicate_day_json"),
]
