"""The report in a real headless browser (Debian's chromium): no console errors, no network
requests, every plot drawn, the segment table sortable; a screenshot is saved for review.

``.ci/run`` installs chromium; elsewhere the test is skipped when no chromium is found,
but under ``CI=true`` a missing browser fails it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import framemetrics as fm
from framemetrics.demo import sample_path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium (.ci/run installs Debian's package)")
        pytest.skip("no chromium on this machine: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("report")
    report = fm.evaluation_report(str(sample_path("default_predictions.csv")), y_true="default",
                                  y_score="p_default", by="balance_band", output=folder / "report.html")  # fmt: skip
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
    tab.close()


def test_the_report_loads_with_no_console_errors_and_no_network(page):
    _, events, report = page
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


@pytest.fixture(scope="module")
def wide_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report with a long data path and many metrics over two segment columns: the hard layout case."""
    folder = tmp_path_factory.mktemp("wide") / ("a_very_long_folder_name_for_a_data_export_" * 4)
    folder.mkdir()
    data = folder / "default_predictions_scored_by_the_logistic_regression_model_of_the_credit_team.csv"
    data.write_bytes(sample_path("default_predictions.csv").read_bytes())
    metrics = [*fm.report.collect.REPORT_METRICS, "matthews_corrcoef", "specificity_score", "negative_predictive_value"]
    return fm.evaluation_report(str(data), y_true="default", y_score="p_default", by=["balance_band", "income_band"],
                                metrics=metrics, output=folder / "report.html")  # fmt: skip


@pytest.mark.parametrize("width", [1280, 1920])
def test_the_page_never_scrolls_sideways_and_pins_the_segment_column(browser, wide_report, width, tmp_path):
    tab = browser.new_page(viewport={"width": width, "height": 900})
    tab.goto(wide_report.resolve().as_uri())
    tab.wait_for_load_state("load")
    folder = Path(os.environ.get("FRAMEMETRICS_SCREENSHOTS", tmp_path))
    tab.screenshot(path=str(folder / f"report-{width}.png"), full_page=True)
    page_width = tab.evaluate("document.documentElement.scrollWidth")
    assert page_width <= width, f"the page scrolls sideways: {page_width} px in a {width} px window"
    box = tab.locator("#segments").locator("xpath=..")
    assert box.evaluate("e => getComputedStyle(e).overflowX") == "auto"
    pinned = tab.locator("#segments tbody tr").first.locator("td.key")
    assert pinned.count() == 2  # both segment columns
    assert all(pinned.nth(i).evaluate("e => getComputedStyle(e).position") == "sticky" for i in range(2))
    if box.evaluate("e => e.scrollWidth > e.clientWidth"):  # wide table: scroll it, the segment stays
        before = [pinned.nth(i).bounding_box()["x"] for i in range(2)]
        box.evaluate("e => e.scrollLeft = e.scrollWidth")
        assert [pinned.nth(i).bounding_box()["x"] for i in range(2)] == before
        tab.screenshot(path=str(folder / f"report-{width}-scrolled.png"))
    headers = tab.locator("#segments th")
    assert all(headers.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth") for i in range(headers.count()))
    tab.close()


def test_a_multiclass_report_draws_in_the_browser(browser, tmp_path):
    rng = np.random.default_rng(2)
    proba = rng.dirichlet([2, 2, 1], 2000)
    frame = pl.DataFrame(
        {"zoo": rng.choice(["north", "south"], 2000), "species": rng.choice(["cat", "dog", "pig"], 2000),
         "cat": proba[:, 0], "dog": proba[:, 1], "pig": proba[:, 2]}
    )  # fmt: skip
    report = fm.evaluation_report(frame, y_true="species", y_score=["cat", "dog", "pig"], by="zoo",
                                  output=tmp_path / "multiclass.html")  # fmt: skip
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.goto(report.resolve().as_uri())
    tab.wait_for_load_state("load")
    folder = Path(os.environ.get("FRAMEMETRICS_SCREENSHOTS", tmp_path))
    tab.screenshot(path=str(folder / "report-multiclass-1280.png"), full_page=True)
    assert errors == []
    assert tab.evaluate("document.documentElement.scrollWidth") <= 1280
    for name in ("roc", "pr"):
        assert tab.locator(f"#figure-{name} svg").bounding_box()["width"] > 300
    assert tab.locator("#figure-confusion svg").count() == 3  # all rows, north, south
    assert tab.locator("#figure-confusion svg").first.bounding_box()["width"] > 200
    assert tab.locator("#classes tbody tr").count() == 3
    tab.close()


def test_the_segment_table_fits_1280_px_with_its_intervals(page):
    """Every default column of the binary report (4 segments, intervals beneath the values) is in view at 1,280 px:
    the table does not scroll sideways in its box."""
    tab, _, _ = page
    assert tab.locator("#segments td .ci").count() > 10 and tab.locator("#segments svg.bar").count() > 10
    for table in ("#overall", "#segments"):
        box = tab.locator(table).locator("xpath=..")
        width, room = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert width <= room, f"{table} is {width} px wide in a box of {room} px"
    headers = tab.locator("#segments th")
    assert headers.count() == 12  # the segment, n_rows and the ten default metrics
    right = headers.evaluate_all("hs => hs.map(h => h.getBoundingClientRect().right)")
    assert max(right) <= 1280
    assert (
        headers.nth(3).get_attribute("title") is None
        and headers.nth(3).locator("span").get_attribute("title") == "roc_auc_score"
    )


def test_confusion_matrices_are_readable_with_counts(browser, tmp_path):
    """Ten classes, three segments: every text of the heatmaps is 11 px or more as drawn, each cell shows its
    share and its count as an integer (scikit-learn's confusion matrix)."""
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(3)
    y = rng.integers(0, 10, 3000)
    scores = rng.dirichlet(np.ones(10), 3000)
    scores[np.arange(3000), y] += rng.random(3000)
    scores /= scores.sum(axis=1, keepdims=True)
    names = [f"class_{k}" for k in range(10)]
    frame = pl.DataFrame({"zoo": rng.choice(["north", "south", "east"], 3000), "y": [names[k] for k in y],
                          **{name: scores[:, k] for k, name in enumerate(names)}})  # fmt: skip
    report = fm.evaluation_report(frame, y_true="y", y_score=names, labels=names, by="zoo",
                                  output=tmp_path / "classes.html")  # fmt: skip
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    tab.goto(report.resolve().as_uri())
    tab.wait_for_load_state("load")
    folder = Path(os.environ.get("FRAMEMETRICS_SCREENSHOTS", tmp_path))
    tab.locator("#figure-confusion").screenshot(path=str(folder / "report-confusion-1280.png"))
    sizes = tab.locator("#figure-confusion svg text").evaluate_all(
        "ts => ts.map(t => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a)"
    )
    assert len(sizes) > 400 and min(sizes) >= 11
    counts = tab.locator("#figure-confusion svg").first.locator("text.count").all_text_contents()
    matrix = confusion_matrix(frame["y"].to_list(), [names[k] for k in scores.argmax(axis=1)], labels=names)
    assert counts == [f"{v:,}" for v in matrix.ravel()]
    assert tab.evaluate("document.documentElement.scrollWidth") <= 1280
    tab.close()
