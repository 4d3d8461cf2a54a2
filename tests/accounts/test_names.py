"""Names nobody can be mistaken by: lookalike usernames (NFKC, confusables, case) refused,
bots' names reserved, for usernames, display names and the admin alike; existing users get
their lookalike keys from a migration that survives old collisions."""

import html
import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse

from accounts.models import Profile
from accounts.names import lookalike_key, mixes_scripts_dangerously, passes_for_a_bot

PASSWORD = "tricky-coins-42"
CYRILLIC_A = "\u0430"
FULLWIDTH_CAROL = "".join(chr(ord(char) + 0xFEE0) for char in "carol")  # NFKC: "carol"


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize(
    "name",
    ["carol", "Carol", "CAROL", "caroI", "caro1", "car0l", f"c{CYRILLIC_A}rol", FULLWIDTH_CAROL],
)
def test_lookalikes_share_one_key(name):
    assert lookalike_key(name) == "carol"


@pytest.mark.parametrize("name", ["carla", "caro", "carols", "cárol"])
def test_different_names_keep_different_keys(name):
    assert lookalike_key(name) != "carol"


def test_a_name_mixing_latin_with_a_cyrillic_lookalike_is_dangerous():
    assert mixes_scripts_dangerously(f"c{CYRILLIC_A}rol")
    assert not mixes_scripts_dangerously("carol")
    assert not mixes_scripts_dangerously("Алиса")  # all Cyrillic: fine


@pytest.mark.parametrize(
    "name",
    [
        "Alba",
        "bruno",
        "CARMEN",
        "Alba_bot",
        "AlbaBot",
        "bot",
        "b0t",
        "bot2",
        "Bruno (bot)",
        "expert-v4",
        "expert_v4",
        "careful",
        "heuristic",
        "random",
        "Hard",
        "Difícil",  # "Hard" in Spanish
        "Easy",
    ],
)
def test_names_that_pass_for_a_bot(name):
    assert passes_for_a_bot(name)


@pytest.mark.parametrize("name", ["robot", "abbot", "Cabot", "Albanese", "Bruna", "ana"])
def test_names_that_do_not(name):
    assert not passes_for_a_bot(name)


def sign_up(client, username):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("signup"), data)


@pytest.mark.django_db
@pytest.mark.parametrize("lookalike", ["Carol", "caroI", "car0l", FULLWIDTH_CAROL])
def test_a_lookalike_of_an_existing_username_is_refused(client, django_user_model, lookalike):
    django_user_model.objects.create_user("carol", password=PASSWORD)
    response = sign_up(client, lookalike)
    assert response.status_code == 200
    assert django_user_model.objects.count() == 1
    errors = " ".join(response.context["form"].errors["username"])
    assert "looks too much like another player's username" in errors or "already exists" in errors


@pytest.mark.django_db
def test_a_mixed_script_username_is_refused_with_the_reason(client, django_user_model):
    response = sign_up(client, f"c{CYRILLIC_A}rol")
    assert response.status_code == 200 and not django_user_model.objects.exists()
    assert "mixes letters of different alphabets" in text(response)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Alba", "Alba_bot", "bot", "expert-v4", "careful"])
def test_a_username_that_passes_for_a_bot_is_refused(client, django_user_model, name):
    response = sign_up(client, name)
    assert response.status_code == 200 and not django_user_model.objects.exists()
    assert "could be taken for one of the site's bots" in text(response)


@pytest.mark.django_db
def test_new_users_get_their_key_and_a_rename_follows(django_user_model):
    user = django_user_model.objects.create_user("Dave", password=PASSWORD)
    assert Profile.objects.get(user=user).username_skeleton == "dave"
    user.username = "Davina"
    user.save()
    assert Profile.objects.get(user=user).username_skeleton == "davina"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("display_name", "message"),
    [
        ("Bruno (bot)", "could be taken for one of the site's bots"),
        ("Carmen", "could be taken for one of the site's bots"),
        ("caroI", "looks too much like another player's username"),
        (f"C{CYRILLIC_A}rol", "mixes letters of different alphabets"),
    ],
)
def test_a_display_name_may_not_pass_for_a_bot_or_another_player(
    client, django_user_model, display_name, message
):
    django_user_model.objects.create_user("carol", password=PASSWORD)
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    client.force_login(ana)
    response = client.post(reverse("profile_edit"), {"display_name": display_name, "language": ""})
    assert response.status_code == 200 and message in text(response)
    assert Profile.objects.get(user=ana).display_name == ""


@pytest.mark.django_db
def test_a_display_name_may_look_like_ones_own_username(client, django_user_model):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    client.force_login(ana)
    response = client.post(reverse("profile_edit"), {"display_name": "Ana", "language": ""})
    assert response.status_code == 302
    assert Profile.objects.get(user=ana).display_name == "Ana"


@pytest.mark.django_db
def test_the_admin_refuses_lookalike_and_bot_names_too(client, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    carol = django_user_model.objects.create_user("carol", password=PASSWORD)
    client.force_login(boss)
    for name in ("caroI", "Alba_bot"):
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        assert client.post(reverse("admin:auth_user_add"), data).status_code == 200
    assert django_user_model.objects.count() == 2
    change = client.get(reverse("admin:auth_user_change", args=[boss.pk]))
    assert change.status_code == 200
    response = client.post(
        reverse("admin:auth_user_change", args=[boss.pk]),
        {
            "username": "Car0l",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "profile-TOTAL_FORMS": "1",
            "profile-INITIAL_FORMS": "1",
            "profile-0-id": boss.profile.pk,
            "profile-0-user": boss.pk,
        },
    )
    assert response.status_code == 200
    assert "looks too much like another player" in text(response)
    boss.refresh_from_db()
    assert boss.username == "boss" and carol.profile.username_skeleton == "carol"


@pytest.mark.django_db
def test_the_migration_gives_existing_users_keys_and_survives_old_collisions(django_user_model):
    older = django_user_model.objects.create_user("carol", password=PASSWORD)
    younger = django_user_model.objects.create_user("someone", password=PASSWORD)
    other = django_user_model.objects.create_user("zoe", password=PASSWORD)
    django_user_model.objects.filter(pk=younger.pk).update(username="caroI")  # made long ago
    Profile.objects.update(username_skeleton=None)  # as before the migration
    migration = importlib.import_module("accounts.migrations.0006_username_skeleton")

    migration.fill_keys(apps, SimpleNamespace(connection=connection))

    keys = dict(Profile.objects.values_list("user_id", "username_skeleton"))
    assert keys == {older.pk: "carol", younger.pk: None, other.pk: "zoe"}
    assert get_user_model().objects.get(pk=younger.pk).check_password(PASSWORD)
