"""NUL and other control characters in a request get a 400 and a short page, before any
view or database work (PostgreSQL refuses NUL in text: a 500 before)."""

from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

pytestmark = pytest.mark.django_db

REFUSED = b'data-refused="control-characters"'


@pytest.fixture
def client():
    return Client(HTTP_HOST="localhost")


@pytest.mark.parametrize(
    "url",
    [
        "/players/a%00b/",
        "/players/a%1bb/",
        "/?q=%00",
        "/games/?page=%07",
        "/games/?%00=1",
    ],
)
def test_a_control_character_in_the_address_is_refused_before_any_query(
    client, url, django_assert_num_queries
):
    with django_assert_num_queries(0):
        response = client.get(url)
    assert response.status_code == 400
    assert REFUSED in response.content and b"NUL" in response.content


def urlencoded(client, fields: dict):
    return client.post(
        "/accounts/login/", urlencode(fields), content_type="application/x-www-form-urlencoded"
    )


@pytest.mark.parametrize("value", ["a\x00b", "\x00", "line\x0bfeed", "bell\x07"])
def test_a_control_character_in_a_posted_field_is_refused(client, value, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = urlencoded(client, {"username": value, "password": "x"})
    assert response.status_code == 400 and REFUSED in response.content
    assert urlencoded(client, {value: "x"}).status_code == 400  # in a name too


def test_multipart_field_values_are_looked_at_and_file_contents_are_not(client):
    refused = client.post("/accounts/login/", {"username": "a\x00b", "note": "x"})  # multipart
    assert refused.status_code == 400
    upload = SimpleUploadedFile("data.bin", b"\x00\x01binary\x00", "application/octet-stream")
    response = client.post("/accounts/login/", {"username": "zoë", "password": "x", "f": upload})
    assert response.status_code == 200  # the form again: wrong password, nothing refused


def test_tab_and_line_breaks_are_text_in_a_value_and_unicode_passes(client):
    fields = {"username": "zoë\t€ 名前", "password": "two\r\nlines"}
    for response in (client.post("/accounts/login/", fields), urlencoded(client, fields)):
        assert response.status_code == 200 and REFUSED not in response.content
    assert client.get("/players/zo%C3%AB%E2%82%AC/").status_code == 404  # no such player
    assert client.get("/games/?q=%E2%82%AC%09").status_code == 200


def test_the_page_speaks_the_visitors_language(client):
    response = client.get("/players/a%00b/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert '<html lang="es">' in response.content.decode()
    assert "Solicitud incorrecta" in response.content.decode()
