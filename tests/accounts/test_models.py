"""Profiles appear on their own; public_name and preferred_language read them cheaply."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import Profile
from accounts.selectors import preferred_language, public_name

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password="tricky-coins-42")


def test_every_new_user_gets_a_profile(ana):
    profile = Profile.objects.get(user=ana)
    assert profile.display_name == "" and profile.language == ""
    assert profile.created_at is not None
    ana.save()  # saving again does not make another
    assert Profile.objects.filter(user=ana).count() == 1


def test_public_name_is_the_display_name_or_the_username(ana):
    assert public_name(ana) == "ana"
    ana.profile.display_name = "Ana la Grande"
    assert public_name(ana) == "Ana la Grande"
    ana.profile.display_name = "   "
    assert public_name(ana) == "ana"


def test_public_name_tolerates_a_missing_profile(ana, django_user_model):
    Profile.objects.filter(user=ana).delete()
    user = django_user_model.objects.get(pk=ana.pk)
    assert public_name(user) == "ana"
    assert preferred_language(user) == ""
    assert public_name(AnonymousUser()) == ""
    assert preferred_language(AnonymousUser()) == ""


def test_public_name_costs_no_query_with_select_related(
    ana, django_user_model, django_assert_num_queries
):
    Profile.objects.filter(user=ana).update(display_name="Ana G.", language="es")
    user = django_user_model.objects.select_related("profile").get(pk=ana.pk)
    with django_assert_num_queries(0):
        assert public_name(user) == "Ana G."
        assert preferred_language(user) == "es"


def test_public_name_queries_once_then_uses_the_cache(
    ana, django_user_model, django_assert_num_queries
):
    user = django_user_model.objects.get(pk=ana.pk)
    with django_assert_num_queries(1):
        public_name(user)
        public_name(user)


def test_a_language_the_site_no_longer_offers_is_ignored(ana):
    ana.profile.language = "de"  # never offered here
    assert preferred_language(ana) == ""


def test_the_admin_shows_the_profile_inline_and_on_its_own(client, ana):
    staff = get_user_model().objects.create_superuser("boss", "boss@example.org", "x-boss-pw-9")
    client.force_login(staff)
    user_admin = admin.site.get_model_admin(get_user_model())
    assert "ProfileInline" in [inline.__name__ for inline in user_admin.inlines]

    html = client.get(reverse("admin:auth_user_change", args=[ana.pk])).content.decode()
    assert "profile-0-display_name" in html
    assert client.get(reverse("admin:auth_user_add")).status_code == 200
    response = client.post(
        reverse("admin:auth_user_add"),
        {"username": "cleo", "password1": "tricky-coins-42", "password2": "tricky-coins-42"},
    )
    assert response.status_code == 302
    assert Profile.objects.filter(user__username="cleo").count() == 1
    assert client.get(reverse("admin:accounts_profile_changelist")).status_code == 200


def test_the_profile_read_is_the_orms_field_by_field(ana, django_user_model):
    """The profile read by its written-once statement is what ``user.profile`` reads: every
    field, converted the same way (dates, booleans, text), and cached both ways."""
    Profile.objects.filter(user=ana).update(
        display_name="Ana G.", language="es", turn_sound=True, is_bot=True
    )
    from accounts.selectors import cached_profile

    user = django_user_model.objects.get(pk=ana.pk)
    kept = cached_profile(user)
    orm = Profile.objects.get(user=ana)
    for field in Profile._meta.concrete_fields:
        assert getattr(kept, field.attname) == getattr(orm, field.attname), field.name
        assert type(getattr(kept, field.attname)) is type(getattr(orm, field.attname))
    assert user.profile is kept and kept.user is user
    assert kept._state.adding is False and kept._state.db == "default"


def test_a_missing_profile_is_read_once_and_cached_as_the_orm_caches_it(
    ana, django_user_model, django_assert_num_queries
):
    from django.core.exceptions import ObjectDoesNotExist

    from accounts.selectors import cached_profile

    Profile.objects.filter(user=ana).delete()
    user = django_user_model.objects.get(pk=ana.pk)
    with django_assert_num_queries(1):
        assert cached_profile(user) is None
        assert cached_profile(user) is None
        with pytest.raises(ObjectDoesNotExist):
            user.profile  # noqa: B018 (the ORM's own answer for "none", from the cache)


def test_a_request_users_profile_is_read_through_the_lazy_user(client, ana):
    """Pages see their user through a lazy object: the cache lands on the user behind it."""
    Profile.objects.filter(user=ana).update(language="fr")
    client.force_login(ana)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert response.wsgi_request.user.profile.language == "fr"
    assert response.headers["Content-Language"] == "fr"
