"""Which way the dependencies point: the engine knows no Django, games knows no ratings
(ratings listens to games' signals and answers its questions), the site never imports the
lab; games' modules import each other without circles and without imports tucked inside
functions to dodge one; and games' top level stays a handful of modules, the rest in rooms."""

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
    """Games' own code, not its migrations (the benchmarks, which fill and time the whole
    site, leaderboards included, live in ``lab/``)."""
    return sources("games", skip="migrations")


RUNTIME = (
    "games", "accounts", "ratings", "friends", "notifications", "analysis", "puzzles", "duplicate",
    "tournaments",
    "coins_site", "common",
)


@pytest.mark.parametrize("path", games_sources(), ids=str)
def test_games_does_not_import_ratings(path):
    assert not {name for name in imported_modules(path) if name.split(".")[0] == "ratings"}


@pytest.mark.parametrize("path", games_sources(), ids=str)
def test_games_does_not_import_duplicate(path):
    assert not {name for name in imported_modules(path) if name.split(".")[0] == "duplicate"}


@pytest.mark.parametrize("path", games_sources(), ids=str)
def test_games_does_not_import_tournaments(path):
    assert not {name for name in imported_modules(path) if name.split(".")[0] == "tournaments"}


def test_the_scan_sees_an_import_when_there_is_one(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from ratings.selectors import standings\nimport django.db\n")
    assert imported_modules(module) == {"ratings.selectors", "django.db"}


@pytest.mark.parametrize(
    "path",
    [p for root in RUNTIME for p in sources(root, skip="management")],  # commands: the lab's doors
    ids=str,
)
def test_the_site_never_imports_the_lab(path):
    assert not {name for name in imported_modules(path) if name.split(".")[0] == "lab"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(path: Path) -> tuple[set[str], set[str]]:
    """(imported at module level, imported inside functions) among games' modules, as
    module names (``from games.table import flow`` names ``games.table.flow``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    top, inner = set(), set()
    known = {module_name(p) for p in games_sources()}

    def names(node) -> set[str]:
        if isinstance(node, ast.Import):
            return {a.name for a in node.names}
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found = {node.module}
            found |= {f"{node.module}.{a.name}" for a in node.names}
            return found
        return set()

    for node in tree.body:
        top |= names(node)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inside in ast.walk(node):
                inner |= names(inside)
    return top & known, inner & known


def test_games_modules_import_each_other_without_circles():
    graph = {module_name(p): module_imports(p)[0] for p in games_sources()}
    packages = {name for name in graph if (ROOT / name.replace(".", "/")).is_dir()}
    # A package's __init__ importing its own modules is how it is assembled, not a circle.
    edges = {
        name: {
            dep
            for dep in deps
            if dep != name and not (name in packages and dep.startswith(name + "."))
        }
        for name, deps in graph.items()
    }
    done, path = set(), []

    def visit(name):
        if name in path:
            cycle = [*path[path.index(name) :], name]
            raise AssertionError(" -> ".join(cycle))
        if name in done:
            return
        path.append(name)
        for dep in sorted(edges.get(name, ())):
            visit(dep)
        path.pop()
        done.add(name)

    for name in sorted(edges):
        visit(name)


@pytest.mark.parametrize("path", games_sources(), ids=str)
def test_no_games_import_hides_inside_a_function(path):
    """Apps load their signal receivers in ``ready``; anything else imports at the top."""
    inner = module_imports(path)[1]
    if path.name == "apps.py":
        return
    assert not inner, f"{path}: {sorted(inner)}"


def test_games_top_level_is_a_handful_of_modules():
    top = sorted(p.name for p in (ROOT / "games").glob("*.py"))
    assert len(top) <= 12, top
