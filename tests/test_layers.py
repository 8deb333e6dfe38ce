"""The layers of pyproject.toml's import-linter contracts hold: the core under the backends under the rest."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import framemetrics

ROOT = Path(__file__).parents[1]


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_backends_contract_names_every_module_above_them():
    """A new top-level module or package is placed: above the backends, or below them (the core, the stages)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (above,) = [c["forbidden_modules"] for c in contracts if c["name"].startswith("The backends import nothing")]
    modules = {f"framemetrics.{m.name}" for m in pkgutil.iter_modules(framemetrics.__path__)}
    assert modules - set(above) <= {"framemetrics.core", "framemetrics.compilers", "framemetrics.stages"}
