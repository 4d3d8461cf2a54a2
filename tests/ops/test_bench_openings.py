"""``manage.py bench_openings``: what a table's socket costs the server as it opens."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from lab.benchmarks import openings


@pytest.mark.parametrize("args", [["--openings", "1"], ["--people", "0"], ["--rounds", "0"]])
def test_bad_arguments_are_refused_before_any_server_starts(args, monkeypatch):
    monkeypatch.setattr(openings, "DaphneServer", None)  # would raise if one were started
    with pytest.raises(CommandError, match="--openings at least 2"):
        call_command("bench_openings", *args)


def test_each_opening_comes_from_an_address_of_its_own():
    people, each = 40, 30
    addresses = {
        openings._address(number, each, opening)
        for number in range(people)
        for opening in range(each)
    }
    assert len(addresses) == people * each
    assert all(address.startswith("198.19.") for address in addresses)
    assert all(0 < int(address.rsplit(".", 1)[1]) < 255 for address in addresses)
