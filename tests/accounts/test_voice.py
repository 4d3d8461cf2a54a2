"""One voice on every page: where Django's own translators chose the formal "you" (usted,
vós, Anda), our account pages still speak as the rest of the site does (tú, tu, kamu)."""

import re

import pytest

from tests.browser.actions import PASSWORD

pytestmark = pytest.mark.django_db

FORMAL = {  # words of the formal voice, and Django's phrasings of it
    "es": re.compile(r"\b(Su|su|sus|usted|Introduzca|Asegúrese|vuelva)\b"),
    "ca": re.compile(r"\b(vostra|vostre|Introduïu|Assegureu|Observeu)\b"),
    "id": re.compile(r"\b(Anda|anda)\b"),
}
INFORMAL = {"es": "Tu contraseña", "ca": "La teva contrasenya", "id": "Sandimu"}


def text_of(html: str) -> str:
    main = re.search(r"<main.*?</main>", html, re.S)[0]
    return re.sub(r"<[^>]+>", " ", main)


@pytest.mark.parametrize("language", sorted(FORMAL))
def test_sign_up_login_and_password_change_speak_informally(client, django_user_model, language):
    client.cookies["django_language"] = language
    page = text_of(client.get("/accounts/signup/").content.decode())
    assert INFORMAL[language] in page and not FORMAL[language].search(page), page
    refused = client.post(
        "/accounts/signup/",
        {"username": "ana", "password1": "123", "password2": "124"},
    ).content.decode()
    assert not FORMAL[language].search(text_of(refused))
    wrong = client.post("/accounts/login/", {"username": "nobody", "password": "x"})
    assert not FORMAL[language].search(text_of(wrong.content.decode()))
    user = django_user_model.objects.create_user("bea", password=PASSWORD)
    user.profile.language = language
    user.profile.save()
    client.force_login(user)
    change = client.post(
        "/accounts/password/change/",
        {"old_password": "wrong", "new_password1": "1234", "new_password2": "1234"},
    ).content.decode()
    assert not FORMAL[language].search(text_of(change)), text_of(change)
