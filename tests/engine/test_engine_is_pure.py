"""The engines are pure Python (docs/style.md principle 1): no module under pairings/engine or
standings/engine imports django, and the pairing engine draws randomness only from the
``random.Random`` passed in (I-1)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE_DIRS = (ROOT / "pairings" / "engine", ROOT / "standings" / "engine")
SOURCES = sorted(path for folder in ENGINE_DIRS for path in folder.rglob("*.py"))
PAIRING_SOURCES = [path for path in SOURCES if path.is_relative_to(ENGINE_DIRS[0])]
# Module-level functions of ``random`` share one hidden generator: a round could not be
# replayed from its stored seed.
GLOBAL_RANDOM = {"random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "seed"}


def _is_django(name: str) -> bool:
    return name == "django" or name.startswith("django.")


def django_imports(source: str) -> list[str]:
    """Every way ``source`` pulls in django: import statements, ``__import__`` and
    ``importlib.import_module`` with a literal name."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if _is_django(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found += [node.module] if _is_django(node.module) else []
        elif isinstance(node, ast.Call) and node.args:
            name = ast.unparse(node.func)
            arg = node.args[0]
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                continue
            if name in ("__import__", "importlib.import_module"):
                found += [arg.value] if _is_django(arg.value) else []
    return found


def global_random_calls(source: str) -> list[str]:
    """Calls like ``random.shuffle(...)`` that use the module-level generator."""
    return [
        ast.unparse(node.func)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "random"
        and node.func.attr in GLOBAL_RANDOM
    ]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_both_engines_are_scanned():
    names = {_name(path) for path in SOURCES}
    assert "pairings/engine/swiss.py" in names
    assert "pairings/engine/elimination.py" in names
    assert any(name.startswith("standings/engine/") for name in names)


@pytest.mark.parametrize("path", SOURCES, ids=_name)
def test_engine_module_imports_no_django(path):
    assert django_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", PAIRING_SOURCES, ids=_name)
def test_I_1_pairing_engine_uses_only_the_random_generator_passed_in(path):
    assert global_random_calls(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "import os, django.db",
        "from django.db import models",
        "from django import forms",
        "def f():\n    from django.conf import settings",
        "__import__('django.utils')",
        "import importlib\nimportlib.import_module('django')",
    ],
)
def test_the_check_catches_every_form_of_django_import(source):
    assert django_imports(source) != []


@pytest.mark.parametrize(
    "source",
    ["import djangoish", "from .django import x", "import random", "x = 'django'"],
)
def test_the_check_ignores_what_is_not_django(source):
    assert django_imports(source) == []


def test_the_check_catches_the_global_random_generator():
    assert global_random_calls("import random\nrandom.shuffle(x)") == ["random.shuffle"]
    assert global_random_calls("def f(rng):\n    rng.shuffle(x)") == []
