"""The house rules (docs/architecture.md) that code can check: layers import only downwards and
no module imports itself back through others, counting every import (function-local and
type-checking ones too); the flight model, the controllers and the world are pure (no esper, no
pyglet); engine and components never import pyglet; the headless Simulation never imports
pyglet; every built-in feature is one module holding its plugin and its systems."""

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def modules(package: str) -> list[str]:
    return sorted(".".join(p.relative_to(ROOT).with_suffix("").parts)
                  for p in (ROOT / package).rglob("*.py") if p.name != "__init__.py")


def imported_after(names: list[str]) -> set[str]:
    code = "import sys\n" + "".join(f"import {n}\n" for n in names) + \
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("package", ["flight", "world"])
def test_pure_packages_import_neither_esper_nor_pyglet(package):
    loaded = imported_after(modules(package))
    assert "esper" not in loaded and "pyglet" not in loaded


def test_engine_and_components_never_import_pyglet():
    assert "pyglet" not in imported_after(modules("engine") + modules("components"))


def test_the_headless_simulation_never_imports_pyglet():
    code = ("import sys\nfrom game.simulation import Simulation\nsim = Simulation()\nsim.run(1.0)\n"
            "sim.select('takeoff')\nsim.run(1.0)\nprint('pyglet' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_levels_hold_data_only():
    assert not list((ROOT / "levels").rglob("*.py"))


# -- layers and cycles, read from the source: every import statement counts -------------------------
#: bottom to top; a module may import its own layer and the layers below
LAYERS = {"engine": 0, "components": 1, "flight": 2, "world": 2, "systems": 3, "game": 4}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for package in LAYERS for p in (ROOT / package).rglob("*.py")}


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, int]]:
    """(imported project module, line) for every import statement anywhere in the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the module's package, up level - 1 packages
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                module = ".".join(package[:len(package) - node.level + 1] + ([module] if module else []))
            for alias in node.names:  # `from pkg import submodule` imports the submodule
                full = f"{module}.{alias.name}"
                found.append((full if full in known else module, node.lineno))
    return [(m, line) for m, line in found if m.split(".")[0] in LAYERS]


def import_graph() -> dict[str, list[tuple[str, int]]]:
    known = all_modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def test_no_module_imports_a_higher_layer():
    upward = [f"{name}:{line} imports {target}" for name, targets in import_graph().items()
              for target, line in targets if LAYERS[target.split(".")[0]] > LAYERS[name.split(".")[0]]]
    assert upward == []


def test_there_are_no_import_cycles():
    graph = {name: {t for t, _ in targets if t != name} for name, targets in import_graph().items()}
    # a package's __init__ is imported by its submodules' importers: count only edges to modules
    graph = {name: {t for t in targets if t in graph} for name, targets in graph.items()}
    cycles, index, low, stack, on_stack, counter = [], {}, {}, [], set(), [0]

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    assert cycles == []


def test_the_checker_sees_function_local_imports(tmp_path):
    """The rule's own check: an import hidden in a function body is still an import."""
    source = tmp_path / "probe.py"
    source.write_text("def f():\n    from game.simulation import Simulation\n    return Simulation\n")
    assert imports_of("engine.probe", source, all_modules()) == [("game.simulation", 2)]


def test_every_built_in_feature_is_one_module_with_its_systems():
    """As a mod is written: the plugin and the systems it adds live in one module of systems/."""
    from game.plugins import default_plugins
    from game.simulation import Simulation

    with Simulation() as sim:
        for record in sim.app.plugin_records:
            module = type(record.plugin).__module__
            assert module.startswith("systems."), f"{record.name}: built in {module}"
            for _stage, system in record.systems:
                assert type(system).__module__ == module, f"{type(system).__name__} is not in {module}"
    assert len({type(p).__module__ for p in default_plugins()}) == len(default_plugins())
