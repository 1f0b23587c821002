"""gpbandit.dashboard() and gpbandit.report(): the `gpbandit` program's dashboard and report
started from Python, on a real study written by the program (no browser needed)."""
import json
import os
import re
import sys
import urllib.error
import urllib.request

import pytest

import gpbandit
import dashboard_support as ds


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    log = str(tmp_path_factory.mktemp("study") / "runs.jsonl")
    told = ds.make_study(log, 5)
    return log, told


def get(url, path):
    base, _, query = url.partition("?")
    with urllib.request.urlopen(base.rstrip("/") + path + ("&" + query if query else ""), timeout=60) as r:
        return json.loads(r.read())


def test_the_handle_serves_the_study(study):
    log, told = study
    with gpbandit.dashboard(log=log) as d:
        assert d.url.startswith("http://127.0.0.1:")
        studies = get(d.url, "/api/studies?")["studies"]
        assert len(studies) == 1
        assert studies[0]["complete"] == len(told) == 5
        assert studies[0]["pending"] == 1
        assert studies[0]["best"] == pytest.approx(max(y for _, y in told))
        pid = d.pid
    assert not d.running()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # stopped and reaped


def test_a_token_is_required_and_carried_by_the_url(study):
    log, _ = study
    with gpbandit.dashboard(log=log, token="s3cret") as d:
        assert "token=s3cret" in d.url
        assert len(get(d.url, "/api/studies?")["studies"]) == 1
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(d.url.partition("?")[0].rstrip("/") + "/api/studies", timeout=60)
        assert e.value.code == 401
        e.value.close()


def test_the_report_is_one_self_contained_file(study, tmp_path):
    log, told = study
    out = tmp_path / "report.html"
    path = gpbandit.report(log=log, out=out)
    assert path == str(out)
    text = out.read_text()
    assert text.lstrip().lower().startswith("<!doctype html")
    # Nothing is fetched from elsewhere: no script, style or image from another file or origin.
    assert re.findall(r"""<[^>]*\b(?:src|href)=["']?(?!data:|#)[^"' >]""", text) == []
    assert "Chart" in text  # Chart.js inlined
    data = text.split("window.GPBANDIT_REPORT = ", 1)[1].split(";</script>", 1)[0]
    rows = json.loads(data)["trials"][""]["rows"]
    assert sorted(r["y"] for r in rows if r["state"] == "complete") == pytest.approx(sorted(y for _, y in told))
    assert [r["state"] for r in rows].count("pending") == 1


def test_a_missing_log_is_a_clear_error(tmp_path):
    missing = str(tmp_path / "nowhere.jsonl")
    with pytest.raises(FileNotFoundError, match="nowhere.jsonl"):
        gpbandit.dashboard(log=missing)
    with pytest.raises(FileNotFoundError, match="nowhere.jsonl"):
        gpbandit.report(log=missing, out=str(tmp_path / "r.html"))
    assert not (tmp_path / "r.html").exists()


def test_bad_arguments_are_value_errors(study, tmp_path):
    log, _ = study
    with pytest.raises(ValueError, match="exactly one"):
        gpbandit.dashboard()
    with pytest.raises(ValueError, match="exactly one"):
        gpbandit.dashboard(log=log, storage=str(tmp_path))
    with pytest.raises(ValueError, match="port=70000"):
        gpbandit.dashboard(log=log, port=70000)
    with pytest.raises(ValueError, match="out="):
        gpbandit.report(log=log)


def test_the_server_refusing_to_start_is_a_runtime_error_with_its_message(study):
    log, _ = study
    with pytest.raises(RuntimeError, match="--token"):
        gpbandit.dashboard(log=log, bind="0.0.0.0")


def test_without_the_program_the_error_says_what_to_install(monkeypatch, tmp_path):
    module = sys.modules["gpbandit.dashboard"]  # gpbandit.dashboard is the function

    monkeypatch.delenv("GPBANDIT_CLI", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(module, "__file__", str(tmp_path / "a" / "b" / "dashboard.py"))
    with pytest.raises(FileNotFoundError, match="gpbandit_cli"):
        module.program()
    monkeypatch.setenv("GPBANDIT_CLI", str(tmp_path / "none"))
    with pytest.raises(FileNotFoundError, match="GPBANDIT_CLI"):
        module.program()


def test_the_program_is_found_beside_the_build_tree_module(monkeypatch):
    module = sys.modules["gpbandit.dashboard"]  # gpbandit.dashboard is the function

    monkeypatch.delenv("GPBANDIT_CLI", raising=False)
    monkeypatch.setenv("PATH", "")
    build = os.environ.get("GPBANDIT_BUILD_DIR")
    if not build or not os.path.abspath(gpbandit.__file__).startswith(os.path.abspath(build)):
        pytest.skip("the module is not imported from a CMake build tree")
    assert os.path.samefile(module.program(), os.path.join(build, "cli", "gpbandit"))
