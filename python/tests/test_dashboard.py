"""`gpbandit dashboard` and `gpbandit report` in a real browser (headless Chromium over its
DevTools protocol): each view renders with the number of points the study implies (counted here
from the log, not by the dashboard), without a console error, and is photographed; a worker's
tell shows on an open page within 5 s, and the zoom survives it; names from the study are shown
as text, never run as HTML; the report passes the same checks offline."""
import os
import subprocess
import time

import pytest

import dashboard_support as ds

pytestmark = pytest.mark.skipif(ds.CHROMIUM is None, reason="chromium is not installed")

VIEWS = ["studies-view", "history-view", "slices-view", "contour-view", "acquisition-view", "health-view",
         "workers-view", "trials-view"]


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    path = os.environ.get("GPBANDIT_DASHBOARD_SCREENSHOTS") or str(tmp_path_factory.mktemp("screenshots"))
    os.makedirs(path, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    log = str(tmp_path_factory.mktemp("study") / "runs.jsonl")
    ds.make_study(log, 12, worker="<img src=x onerror=window.__xss=1>")
    ds.append_synthetic(log, 40, fail_every=9, fit_every=10)
    return log


@pytest.fixture
def browser():
    b = ds.Browser()
    yield b
    b.close()


def views(b):
    return b.evaluate("JSON.stringify(window.__dashboard.views)")


def check_views(b, log, shots, prefix):
    import json
    accepted, failed, pending, fits = ds.count_log(log)
    v = json.loads(views(b))
    assert v["studies"] == 1
    assert v["history"] == accepted
    assert v["failures"] == failed
    assert v["pending"] == pending
    rows = b.evaluate("document.querySelectorAll('#trials tbody tr').length")
    assert rows == accepted + failed + pending
    assert v["slices"] == 2 * 101
    assert v["contour"] == 30 * 30
    assert v["acquisition"] == 101
    assert v["acquisition_pending"] == pending
    assert v["health"] == accepted  # leave-one-out: one point per observation in the model
    assert v["importance"] == 2
    assert v["fits"] == fits >= 4  # the synthetic fits, and the loop's own refits
    assert b.evaluate("document.querySelectorAll('#workers tbody tr').length") >= 1
    for view in VIEWS:
        path = b.screenshot(os.path.join(shots, "%s_%s.png" % (prefix, view)), view)
        assert os.path.getsize(path) > 3000  # a blank view compresses to less
    assert b.errors == []
    assert b.evaluate("window.__dashboard.errors.length") == 0


def test_every_view_renders_the_study(study, browser, shots):
    server = ds.Server("--log", study)
    try:
        browser.navigate(server.url)
        browser.wait_for("window.__rendered && window.__modelRendered")
        check_views(browser, study, shots, "page")
        browser.screenshot(os.path.join(shots, "page_full.png"))
    finally:
        server.close()


def test_hostile_names_are_text(study, browser):
    server = ds.Server("--log", study)
    try:
        browser.navigate(server.url)
        browser.wait_for("window.__rendered && document.querySelectorAll('#workers tbody tr').length > 0")
        names = browser.evaluate("Array.from(document.querySelectorAll('#workers tbody td:first-child'))"
                                 ".map((td) => td.textContent)")
        assert "<img src=x onerror=window.__xss=1>" in names
        assert browser.evaluate("document.querySelectorAll('img').length") == 0
        assert browser.evaluate("typeof window.__xss") == "undefined"
    finally:
        server.close()


def test_a_tell_shows_within_five_seconds_and_the_zoom_stays(tmp_path, browser, shots):
    log = str(tmp_path / "live.jsonl")
    ds.make_study(log, 6)
    server = ds.Server("--log", log)
    try:
        browser.navigate(server.url)
        browser.wait_for("window.__rendered && window.__dashboard.views.history === 6")
        browser.evaluate("(() => { const c = window.__dashboard.charts.history;"
                         " c.options.scales.x.min = 1; c.options.scales.x.max = 4; c.update('none'); })()")
        x = [0.25, 0.75]
        ds.run("observe", "--log", log, "--x", "0.25,0.75", "--y", repr(ds.objective(x)))
        start = time.time()
        browser.wait_for("window.__dashboard.views.history === 7", timeout=5.0)
        assert time.time() - start < 5.0
        assert browser.evaluate("window.__dashboard.charts.history.options.scales.x.min") == 1
        assert browser.evaluate("window.__dashboard.charts.history.options.scales.x.max") == 4
        browser.screenshot(os.path.join(shots, "live_history.png"), "history-view")
        assert browser.errors == []
    finally:
        server.close()


def test_the_star_is_what_suggest_hands_out_next(tmp_path, browser, shots):
    """The acquisition's star is the optimizer's own next ask, computed without writing: the log
    is byte-identical after the page drew it, and the next `gpbandit suggest` hands out exactly
    that point (its pending record, read from the log, holds it in full precision)."""
    import json
    log = str(tmp_path / "next.jsonl")
    ds.make_study(log, 9)  # past the initial design, one point left pending
    # A tell by a process that is gone: the next ask owes the refit it claimed.
    ds.run("observe", "--log", log, "--x", "0.5,0.5", "--y", repr(ds.objective([0.5, 0.5])))
    before = open(log, "rb").read()
    server = ds.Server("--log", log)
    try:
        browser.navigate(server.url)
        browser.wait_for("window.__rendered && window.__modelRendered")
        shown = browser.evaluate("window.__dashboard.views.next")
        star = browser.evaluate("window.__dashboard.charts.acquisition.data.datasets[2].data[0].x")
        acq_dim = int(browser.evaluate("document.getElementById('acq').value"))
        note = browser.evaluate("document.getElementById('acquisition-note').textContent")
        browser.screenshot(os.path.join(shots, "next_acquisition.png"), "acquisition-view")
        model = server.get("/api/model?study=&cx=0&cy=1&acq=0")
    finally:
        server.close()
    assert open(log, "rb").read() == before  # nothing written, not even a lock's trace
    assert not os.path.exists(log + ".lock")
    assert model["next"]["design"] is False and model["next"]["refit"] is True
    out = ds.run("suggest", "--log", log, "--worker-id", "w1", "--lease", "3600").stdout
    asked = json.loads(open(log).read().splitlines()[-1])
    assert asked["type"] == "pending"
    assert shown == asked["x"] == model["next"]["x"]
    assert star == asked["x"][acq_dim]
    printed = [float(v) for v in out.strip().splitlines()[-1].split(",")]
    assert printed == pytest.approx(asked["x"], abs=1e-9)
    assert "Next ask (round %d" % asked["round"] in note
    assert browser.errors == []


def test_the_report_renders_offline(study, browser, shots, tmp_path):
    out = str(tmp_path / "report.html")
    ds.run("report", "--log", study, "--out", out)
    text = open(out).read()
    assert "<script src=" not in text  # everything inlined: no request leaves the file
    browser.navigate("file://" + out)
    browser.wait_for("window.__rendered")
    check_views(browser, study, shots, "report")


def test_a_study_that_cannot_be_read_gets_a_clear_page(tmp_path, browser, shots):
    log = tmp_path / "corrupt.jsonl"
    log.write_text("this is not a study\n")
    server = ds.Server("--log", str(log))
    try:
        browser.navigate(server.url)
        browser.wait_for("!document.getElementById('error').hidden")
        text = browser.evaluate("document.getElementById('error').textContent")
        assert "cannot be read" in text
        browser.screenshot(os.path.join(shots, "unreadable.png"))
        assert server.proc.poll() is None  # still serving
    finally:
        server.close()
