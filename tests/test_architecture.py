"""Which way the dependencies point: the engine knows no Django, and games knows no ratings
(ratings listens to games' signals and answers its questions)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def sources(folder: str, skip: str = "") -> list[Path]:
    return [
        path for path in sorted((ROOT / folder).rglob("*.py")) if not (skip and skip in path.parts)
    ]


@pytest.mark.parametrize("path", sources("games/engine"), ids=str)
def test_the_engine_imports_no_django_and_nothing_of_the_site(path):
    roots = {name.split(".")[0] for name in imported_modules(path)}
    assert not roots & {"django", "channels", "games", "accounts", "ratings", "coins_site"}


def games_sources() -> list[Path]:
    """Games' own code: not its migrations, nor the benchmarks, which fill and time the
    whole site (leaderboards included) and so may use any app."""
    return [path for path in sources("games", skip="migrations") if "benchmarks" not in path.parts]


@pytest.mark.parametrize("path", games_sources(), ids=str)
def test_games_does_not_import_ratings(path):
    assert not {name for name in imported_modules(path) if name.split(".")[0] == "ratings"}


def test_the_scan_sees_an_import_when_there_is_one(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from ratings.selectors import standings\nimport django.db\n")
    assert imported_modules(module) == {"ratings.selectors", "django.db"}
