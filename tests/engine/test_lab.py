"""The lab's engine tools (simulation, ladder, the tables' generators) import no Django, as the
engine does not. (That the site never imports the lab: tests/test_architecture.py.)"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
def imported_roots(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


ENGINE_TOOLS = [p for p in sorted((ROOT / "lab").rglob("*.py")) if "benchmarks" not in p.parts]


@pytest.mark.parametrize("path", ENGINE_TOOLS, ids=lambda p: p.name)
def test_the_engines_tools_import_no_django(path):
    """The simulator, the ladder and the generators work on the engine alone (the
    benchmarks, which time the whole site, are the lab's only Django code)."""
    assert not imported_roots(path) & {"django", "channels", "accounts", "ratings", "coins_site"}


def test_the_scan_sees_the_lab_when_it_is_imported(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from lab.simulation import simulate\nimport games.engine\n")
    assert imported_roots(module) == {"lab", "games"}
    assert any(path.name == "simulation.py" for path in ENGINE_TOOLS)
