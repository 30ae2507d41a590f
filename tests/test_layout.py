"""Dependencies point one way (docs/architecture.md, "Layers"): pure engines at the
bottom, then ``tournaments``, then ``standings``, then ``pairings``, then ``interchange``
(the file formats, which build events and read standings and pairings).

Reads every module of the apps with ``ast`` (no import is run) and fails on:

* an app importing an app of a higher layer (``standings`` importing ``pairings``, its
  engine included; anything importing ``interchange``), other than a lower app importing
  the pure engines of ``pairings`` or ``standings`` (``tournaments`` may use them);
* an engine (``pairings/engine``, ``standings/engine``, ``rulesets``) importing Django or
  any app module other than a pure engine;
* an import of an app module inside a function, in any app: it dodges a cycle or hides a
  dependency. ``AppConfig.ready`` is where Django wires apps at start-up and is the one
  place allowed.
No database.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tournaments", "standings", "pairings", "interchange", "rulesets")
ENGINES = ("pairings.engine", "standings.engine", "rulesets")
LAYER = {"tournaments": 1, "standings": 2, "pairings": 3, "interchange": 4}


@dataclass(frozen=True)
class Import:
    """One import statement's target, resolved to an absolute dotted name."""

    module: str  # the importing module, dotted
    target: str  # the imported module (``from x import y`` → ``x``)
    line: int
    in_function: bool
    in_ready: bool

    def __str__(self) -> str:
        where = "inside a function " if self.in_function else ""
        return f"{self.module}:{self.line} imports {self.target} {where}".strip()


def _top(name: str) -> str:
    return name.split(".")[0]


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def imports_of(source: str, module: str, is_package: bool = False) -> list[Import]:
    """Every import in ``source`` (the text of ``module``), relative ones resolved."""
    found: list[Import] = []
    package = module.split(".") if is_package else module.split(".")[:-1]

    def visit(node: ast.AST, in_function: bool, in_ready: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(module, alias.name, child.lineno, in_function, in_ready))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[: len(package) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                found.append(Import(module, target, child.lineno, in_function, in_ready))
            is_function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            visit(
                child,
                in_function or is_function,
                in_ready or (is_function and getattr(child, "name", "") == "ready"),
            )

    visit(ast.parse(source), False, False)
    return found


def violations(imports: list[Import]) -> list[str]:
    """Why each import breaks the layering (see the module notes), one line each."""
    out = []
    for imp in imports:
        source, target = _top(imp.module), _top(imp.target)
        engine = any(_within(imp.module, e) for e in ENGINES)
        to_engine = any(_within(imp.target, e) for e in ENGINES)
        if engine and (target == "django" or (target in APPS and not to_engine)):
            out.append(f"{imp}: an engine imports only the standard library and engines")
        elif source in LAYER and target in LAYER and LAYER[target] > LAYER[source]:
            if source == "standings" and target == "pairings":
                out.append(f"{imp}: standings never imports pairings")
            elif target == "interchange":
                out.append(f"{imp}: nothing below interchange imports it")
            elif not to_engine:
                out.append(f"{imp}: tournaments imports neither standings nor pairings")
        if imp.in_function and not imp.in_ready and target in APPS:
            out.append(f"{imp}: an import inside a function dodges a cycle")
    return out


def app_modules() -> list[tuple[str, Path]]:
    modules = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules.append((".".join(parts), path))
    return modules


def test_dependencies_point_one_way() -> None:
    found = []
    for module, path in app_modules():
        is_package = path.name == "__init__.py"
        name = module.removesuffix(".__init__")
        found += violations(imports_of(path.read_text(), name, is_package))
    assert found == []


def test_every_app_is_read() -> None:
    names = {module for module, _ in app_modules()}
    assert {"standings.services", "pairings.services", "tournaments.procedures"} <= names
    assert {"interchange.services.imports", "interchange.formats.tdf"} <= names
    assert "pairings.procedures.top_cut" in names


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        (
            "standings.services",
            "from pairings.engine.elimination import THIRD_PLACE_WHY\n",
            ["standings never imports pairings"],
        ),
        (
            "standings.day2_standings",
            "def f():\n    from pairings.services import round_pair\n",
            ["standings never imports pairings", "an import inside a function dodges a cycle"],
        ),
        (
            "tournaments.services.rounds",
            "def f():\n    from pairings import procedures\n",
            [
                "tournaments imports neither standings nor pairings",
                "an import inside a function dodges a cycle",
            ],
        ),
        ("interchange.formats.tdf_event", "from standings.engine.day2 import day2_cut\n", []),
        ("interchange.services.imports", "from pairings.procedures import event_done\n", []),
        (
            "tournaments.services.rounds",
            "from interchange.services.imports import event_import\n",
            ["nothing below interchange imports it"],
        ),
        (
            "standings.services",
            "from interchange.formats.tdf import parse_tdf\n",
            ["nothing below interchange imports it"],
        ),
        (
            "pairings.engine.swiss",
            "from django.db import models\n",
            ["an engine imports only the standard library and engines"],
        ),
        (
            "standings.engine.day2",
            "from ..services import group_standings\n",
            ["an engine imports only the standard library and engines"],
        ),
        ("pairings.engine.elimination", "from standings.engine.placement import X\n", []),
        (
            "pairings.procedures.pods",
            "def f():\n    from ..services import check_previous_complete\n",
            ["an import inside a function dodges a cycle"],
        ),
        ("pairings.services", "from standings.services import division_swiss_order\n", []),
        (
            "tournaments.services.pod_results",
            "def f():\n    from .corrections import x\n",
            ["an import inside a function dodges a cycle"],
        ),
        (
            "pairings.apps",
            "class C:\n    def ready(self):\n        from tournaments import x\n",
            [],
        ),
    ],
)
def test_the_checker_names_each_broken_rule(module: str, source: str, expected: list[str]) -> None:
    reasons = [v.split(": ", 1)[1] for v in violations(imports_of(source, module))]
    assert reasons == expected


def test_relative_imports_resolve_from_the_module_or_package() -> None:
    (imp,) = imports_of("from ..engine import swiss\n", "pairings.procedures.swiss")
    assert imp.target == "pairings.engine"
    (imp,) = imports_of("from .base import Step\n", "pairings.procedures", is_package=True)
    assert imp.target == "pairings.procedures.base"
