"""Editing the profile, the preferred language and the header's user menu."""

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after_each_test():
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password="tricky-coins-42")


def test_anonymous_users_are_sent_to_login(client):
    response = client.get(reverse("profile_edit"))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse('profile_edit')}"


def test_editing_the_profile_saves_and_confirms(client, ana):
    client.force_login(ana)
    page = client.get(reverse("profile_edit"))
    assert page.status_code == 200
    assert 'name="display_name"' in page.content.decode()

    response = client.post(
        reverse("profile_edit"), {"display_name": "  Ana   la Grande ", "language": ""}, follow=True
    )

    assert response.redirect_chain == [(reverse("profile_edit"), 302)]
    ana.profile.refresh_from_db()
    assert ana.profile.display_name == "Ana la Grande"
    assert ana.profile.language == ""
    assert "Your profile has been saved." in [str(m) for m in response.context["messages"]]


def test_choosing_spanish_applies_to_the_following_requests(client, ana):
    client.force_login(ana)
    response = client.post(reverse("profile_edit"), {"display_name": "", "language": "es"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME)  # the profile alone must be enough

    response = client.get(reverse("home"), headers={"accept-language": "en"})

    assert response.wsgi_request.LANGUAGE_CODE == "es"
    assert response["Content-Language"] == "es"
    assert '<html lang="es">' in response.content.decode()


def test_the_preference_does_not_follow_the_user_after_logout(client, ana):
    Profile.objects.filter(user=ana).update(language="es")
    client.force_login(ana)
    assert client.get(reverse("home"))["Content-Language"] == "es"

    client.post(reverse("logout"))
    response = client.get(reverse("home"), headers={"accept-language": "en"})
    assert response["Content-Language"] == "en"


def test_a_blank_preference_follows_the_browser(client, ana):
    client.force_login(ana)
    response = client.get(reverse("home"), headers={"accept-language": "es"})
    assert response["Content-Language"] == "es"
    response = client.get(reverse("home"), headers={"accept-language": "en"})
    assert response["Content-Language"] == "en"


def test_an_unknown_language_is_refused(client, ana):
    client.force_login(ana)
    response = client.post(reverse("profile_edit"), {"display_name": "", "language": "xx"})
    assert response.status_code == 200
    assert "id_language_error" in response.content.decode()


def test_a_display_name_may_not_be_another_players_username(client, ana, django_user_model):
    django_user_model.objects.create_user("bea", password="tricky-coins-42")
    client.force_login(ana)

    response = client.post(reverse("profile_edit"), {"display_name": "BEA", "language": ""})
    assert response.status_code == 200
    assert "id_display_name_error" in response.content.decode()

    response = client.post(reverse("profile_edit"), {"display_name": "ANA", "language": ""})
    assert response.status_code == 302


def test_a_logged_in_page_reads_the_profile_with_the_person(
    client, ana, django_assert_num_queries
):
    Profile.objects.filter(user=ana).update(display_name="Ana G.", language="es")
    client.force_login(ana)
    client.get(reverse("profile_edit"))  # notes when she was here (once a minute at most)
    # The session, then the person with their profile (accounts.backends): the middleware,
    # the view and the header share the one profile.
    with django_assert_num_queries(2):
        response = client.get(reverse("profile_edit"))
    assert response["Content-Language"] == "es"
    assert "Ana G." in response.content.decode()


def test_a_person_is_noted_as_seen_once_a_minute_at_most(client, ana):
    from datetime import timedelta

    from django.utils import timezone

    client.force_login(ana)
    client.get(reverse("home"))
    seen = Profile.objects.get(user=ana).last_seen_at
    assert seen is not None and timezone.now() - seen < timedelta(seconds=10)
    client.get(reverse("home"))
    assert Profile.objects.get(user=ana).last_seen_at == seen  # no write a second time
    Profile.objects.filter(user=ana).update(last_seen_at=seen - timedelta(minutes=2))
    client.get(reverse("home"))
    assert Profile.objects.get(user=ana).last_seen_at > seen


def test_the_profile_page_creates_a_missing_profile(client, ana):
    Profile.objects.filter(user=ana).delete()
    client.force_login(ana)

    assert client.get(reverse("home")).status_code == 200  # tolerated everywhere
    assert client.get(reverse("profile_edit")).status_code == 200
    assert Profile.objects.filter(user=ana).exists()


def test_the_header_shows_the_public_name_and_the_account_links(client, ana):
    Profile.objects.filter(user=ana).update(display_name="Ana la Grande")
    client.force_login(ana)

    html = client.get(reverse("home")).content.decode()

    assert '<a class="signed-in" href="/players/ana/"' in html
    assert "Ana la Grande" in html
    assert f'href="{reverse("profile_edit")}" data-action="settings">Settings</a>' in html
    # The password is changed from the settings page (the header keeps to what people use).
    assert f'href="{reverse("password_change")}"' not in html
    settings_page = client.get(reverse("profile_edit")).content.decode()
    assert f'href="{reverse("password_change")}"' in settings_page
    assert f'action="{reverse("logout")}"' in html and 'name="csrfmiddlewaretoken"' in html
    assert f'href="{reverse("signup")}"' not in html


def test_the_header_falls_back_to_the_username_and_encodes_it(client, django_user_model):
    user = django_user_model.objects.create_user("ana+1@x", password="tricky-coins-42")
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert 'href="/players/ana%2B1%40x/"' in html
    assert ">ana+1@x</a>" in html


def test_the_header_offers_login_and_signup_to_visitors(client):
    """Both come back to the page they were offered on (but never to an account page)."""
    html = client.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("login")}?next=%2Fgames%2F"' in html
    assert f'href="{reverse("signup")}?next=%2Fgames%2F"' in html
    assert f'action="{reverse("logout")}"' not in html
    html = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("signup")}"' in html


async def test_the_preference_applies_under_asgi_too(
    async_client, django_user_model, transactional_db
):
    from asgiref.sync import sync_to_async

    @sync_to_async
    def make_user():
        user = django_user_model.objects.create_user("ana", password="tricky-coins-42")
        Profile.objects.filter(user=user).update(language="es")
        return user

    await async_client.aforce_login(await make_user())
    response = await async_client.get(reverse("home"), headers={"accept-language": "en"})
    assert response["Content-Language"] == "es"


def test_a_refused_edit_leaves_the_header_alone(client, ana):
    Profile.objects.filter(user=ana).update(display_name="Ana G.")
    client.force_login(ana)

    response = client.post(reverse("profile_edit"), {"display_name": "Zorro", "language": "xx"})

    assert response.status_code == 200
    header = response.content.decode().split("</header>")[0]
    assert "Ana G." in header and "Zorro" not in header
    assert 'value="Zorro"' in response.content.decode()  # the form keeps what was typed
