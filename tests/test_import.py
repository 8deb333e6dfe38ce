"""Importing framemetrics stays light: the report's plotting library loads with the first report."""

from __future__ import annotations

import subprocess
import sys


def test_import_does_not_load_matplotlib():
    code = "import sys, framemetrics; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
