"""Every language of the site is complete and compiled: a test fails on an empty or fuzzy
entry, a placeholder that differs from the English, and a .mo that does not match its .po
(CI has no gettext tools, so the .mo files are committed)."""

import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
PLURAL_FORMS = {
    "es": "nplurals=2; plural=(n != 1);",
    "ca": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "id": "nplurals=1; plural=0;",
}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")
FIELD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])? "(.*)"$')
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def catalog_dir(language: str) -> Path:
    return Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES"


def _unquote(parts: list[str]) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES[m[1]], "".join(parts))


def po_entries(language: str) -> list[dict]:
    """The active entries of a language's .po file (obsolete ``#~`` entries are skipped).

    Each entry has ``flags`` (a set), ``msgid``, maybe ``msgctxt`` and ``msgid_plural``, and
    ``msgstr``: a dict from plural form (0 for singular entries) to the translation.
    """
    text = (catalog_dir(language) / "django.po").read_text(encoding="utf-8")
    entries = []
    for block in re.split(r"\n\s*\n", text.strip()):
        flags, parts, current = set(), {}, None
        for line in block.splitlines():
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue  # comments, references and obsolete (#~) entries
            elif field := FIELD.match(line):
                name, form, value = field.groups()
                current = ("msgstr", int(form or 0)) if name == "msgstr" else (name, None)
                parts[current] = [value]
            else:
                assert line.startswith('"') and current, f"unexpected line: {line!r}"
                parts[current].append(line[1:-1])
        if ("msgid", None) not in parts:
            continue
        entry = {"flags": flags, "msgstr": {}}
        for (name, form), value in parts.items():
            if name == "msgstr":
                entry["msgstr"][form] = _unquote(value)
            else:
                entry[name] = _unquote(value)
        entries.append(entry)
    return entries


def test_the_site_speaks_the_languages_the_rules_circulate_in():
    assert {"en", "es", "ca", "fr", "id"} == {code for code, _name in settings.LANGUAGES}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_po_file_is_complete_and_has_nothing_fuzzy(language):
    entries = po_entries(language)
    header, messages = entries[0], entries[1:]
    assert header["msgid"] == ""
    assert "fuzzy" not in header["flags"]
    assert f"Language: {language}\n" in header["msgstr"][0]
    assert f"Plural-Forms: {PLURAL_FORMS[language]}\n" in header["msgstr"][0]
    forms = int(re.search(r"nplurals=(\d)", PLURAL_FORMS[language])[1])
    assert len(messages) > 300
    for entry in messages:
        msgid = entry["msgid"]
        assert "fuzzy" not in entry["flags"], msgid
        expected_forms = list(range(forms)) if "msgid_plural" in entry else [0]
        assert sorted(entry["msgstr"]) == expected_forms, msgid
        for translated in entry["msgstr"].values():
            assert translated.strip(), f"empty translation for {msgid!r}"
            assert sorted(PLACEHOLDER.findall(translated)) == sorted(PLACEHOLDER.findall(msgid))


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_the_same_messages(language):
    """makemessages was run for every language: none lags behind the others."""

    def keys(code):
        return {(e.get("msgctxt"), e["msgid"]) for e in po_entries(code)[1:]}

    assert keys(language) == keys("es")


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_matches_the_po_file(language):
    with (catalog_dir(language) / "django.mo").open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)
    forms = int(re.search(r"nplurals=(\d)", PLURAL_FORMS[language])[1])
    for entry in po_entries(language)[1:]:
        msgid = entry["msgid"]
        if "msgctxt" in entry:
            assert catalog.pgettext(entry["msgctxt"], msgid) == entry["msgstr"][0], msgid
        elif "msgid_plural" in entry:
            for n, form in ((1, 0), (2, 1)) if forms == 2 else ((1, 0), (2, 0)):
                got = catalog.ngettext(msgid, entry["msgid_plural"], n)
                assert got == entry["msgstr"][form], msgid
        else:
            assert catalog.gettext(msgid) == entry["msgstr"][0], msgid
