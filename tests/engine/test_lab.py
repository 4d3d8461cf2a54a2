"""The lab (simulation, ladder, the tables' generators) stays outside the runtime: nothing
the site runs imports it (only the management commands that drive it do), and the lab,
like the engine, imports no Django."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ("games", "accounts", "ratings", "coins_site")


def imported_roots(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def runtime_sources() -> list[Path]:
    return [
        path
        for folder in RUNTIME
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "management" not in path.parts
    ]


@pytest.mark.parametrize("path", runtime_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_runtime_never_imports_the_lab(path):
    assert "lab" not in imported_roots(path)


@pytest.mark.parametrize("path", sorted((ROOT / "lab").rglob("*.py")), ids=lambda p: p.name)
def test_the_lab_imports_no_django(path):
    assert not imported_roots(path) & {"django", "channels", "accounts", "ratings", "coins_site"}


def test_the_scan_sees_the_lab_when_it_is_imported(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from lab.simulation import simulate\nimport games.engine\n")
    assert imported_roots(module) == {"lab", "games"}
    assert any(path.parts[-3:] == ("engine", "bots", "registry.py") for path in runtime_sources())
