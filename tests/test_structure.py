"""The code's shape, where a regression would be silent: no module of ours imports,
however indirectly, a module that imports it back; the layers import one way; every game
has the kit's layout (engine/README.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "engine", "renders")


def _modules() -> dict[str, set[str]]:
    """Each module of ours and the modules of ours it imports (at any place in the file,
    TYPE_CHECKING blocks and function bodies included: a circle is a circle)."""
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    names = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for p in files
    }
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # ``from pkg import mod`` imports the module mod; ``from pkg import x``, pkg
                modules = {f"{node.module}.{a.name}" for a in node.names} & names.keys()
                imported |= modules or ({node.module} & names.keys())
            elif isinstance(node, ast.Import):
                imported |= {a.name for a in node.names if a.name in names}
        graph[name] = imported - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        for dep in sorted(graph[node]):
            found = visit(dep, [*path, node])
            if found:
                return found
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start, [])
        if found:
            return found
    return None


def test_no_module_imports_one_that_imports_it_back():
    graph = _modules()
    assert len(graph) > 50, "the modules were found"
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_layers_import_one_way():
    """bot -> engine and renders, renders -> engine, engine -> nothing of ours."""
    below = {"engine": set(), "renders": {"engine"}, "bot": {"engine", "renders"}}
    for name, imported in _modules().items():
        layer = name.split(".")[0]
        for other in imported:
            assert other.split(".")[0] in below[layer] | {layer}, f"{name} imports {other}"


KIT = ("__init__", "actions", "board", "state", "flow", "scoring", "view", "rules.__init__")


def test_every_game_has_the_kits_layout():
    """engine/README.md's modules, in every game package, and one file per rule; the
    ``view`` module's way back (``sample``); the optional ``ai`` module, where the kit
    names one, is the package's own ``ai.py`` and holds no more than an evaluation and
    search settings."""
    import engine

    for key, game in engine.GAMES.items():
        package = ROOT / "engine" / type(game).__module__.split(".")[1]
        for module in KIT:
            assert (package / module.replace(".", "/")).with_suffix(".py").exists(), (key, module)
        rule_files = {p.stem for p in (package / "rules").glob("*.py")} - {"__init__"}
        rule_files |= {p.name for p in (package / "rules").iterdir() if p.is_dir()} - {
            "__pycache__"
        }
        assert len(game.rules) == len({r.action for r in game.rules}), key
        for rule in game.rules:
            home = rule.effect.__module__.split(".")
            assert home[:3] == ["engine", package.name, "rules"], (key, rule.action)
        assert rule_files, key
        assert callable(game.kit.view.sample), key  # the view, back to a state
        if game.kit.ai is not None:  # optional: the computer players' evaluation, settings
            assert game.kit.ai.__name__ == f"engine.{package.name}.ai", key
            module = game.kit.ai
            own = {
                n
                for n, v in vars(module).items()
                if callable(v) and v.__module__ == module.__name__ and not n.startswith("_")
            }
            assert own <= {"evaluate"}, (key, own)
            assert own or hasattr(module, "SEARCH"), key
