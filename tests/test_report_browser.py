"""The report in a real headless browser (Debian's chromium): no console errors, no network
requests, every plot drawn, the segment table sortable; a screenshot is saved for review.

``.ci/run`` installs chromium; elsewhere the test is skipped when no chromium is found,
but under ``CI=true`` a missing browser fails it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import framemetrics as fm
from framemetrics.demo import sample_path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory):
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium (.ci/run installs Debian's package)")
        pytest.skip("no chromium on this machine: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    folder = tmp_path_factory.mktemp("report")
    report = fm.evaluation_report(str(sample_path("default_predictions.csv")), y_true="default",
                                  y_score="p_default", by="balance_band", output=folder / "report.html")  # fmt: skip
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        events: dict[str, list[str]] = {"console": [], "requests": []}
        tab.on(
            "console",
            lambda m: events["console"].append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
        )
        tab.on("pageerror", lambda e: events["console"].append(f"pageerror: {e}"))
        tab.on("request", lambda r: events["requests"].append(r.url))
        tab.goto(report.resolve().as_uri())
        tab.wait_for_load_state("load")
        screenshot = Path(os.environ.get("FRAMEMETRICS_SCREENSHOT", folder / "report.png"))
        tab.screenshot(path=str(screenshot), full_page=True)
        yield tab, events, report
        browser.close()


def test_the_report_loads_with_no_console_errors_and_no_network(page):
    tab, events, report = page
    assert events["console"] == []
    assert events["requests"] == [report.resolve().as_uri()]


def test_every_plot_is_drawn(page):
    tab, _, _ = page
    for name in ("roc", "pr", "calibration", "distribution"):
        figure = tab.locator(f"#figure-{name} svg")
        assert figure.count() == 1
        box = figure.bounding_box()
        assert box["width"] > 300 and box["height"] > 200
        assert tab.locator(f"#figure-{name} svg path").count() > 10
    legend = tab.locator("#figure-roc svg").text_content()
    assert "all (AUC 0.949)" in legend and "1500+" in legend


def test_the_worst_segment_is_named_and_the_table_sorts(page):
    tab, _, _ = page
    assert "1000-1499" in tab.locator("#worst").inner_text()
    first = tab.locator("#segments tbody tr td:first-child")
    assert first.first.inner_text() == "1000-1499"  # sorted by ROC AUC, worst first (0-499 has none: last)
    tab.locator("#segments th", has_text="n_rows").click()
    assert [first.nth(i).inner_text() for i in range(4)] == ["1500+", "0-499", "1000-1499", "500-999"]
    tab.locator("#segments th", has_text="n_rows").click()
    assert first.first.inner_text() == "500-999"
