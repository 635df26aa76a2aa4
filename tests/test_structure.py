"""The code's shape, where a regression would be silent: no module of ours imports,
however indirectly, a module that imports it back."""

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
