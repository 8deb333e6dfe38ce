"""The README's main command runs on the shipped sample and prints readable tables."""

from __future__ import annotations

import framemetrics.demo


def test_demo_prints_every_segment(capsys):
    framemetrics.demo.main([])
    out = capsys.readouterr().out
    for text in ("per student status", "1500+", "light rain/snow", "Polars agrees", "matthews_corrcoef"):
        assert text in out
