"""The library's warnings in Python: each goes to the `logging` logger "gpbandit" at level
WARNING (python/src/warning_bindings.cc), from whichever thread the library warned on; with no
handler configured, Python's last-resort handler prints it on stderr."""

import logging
import os
import subprocess
import sys
import threading

import gpbandit
from conftest import quadratic

TORN = '{"type":"tell","x":[0.12345'


def study_with_a_torn_last_line(box2, path):
    opt = gpbandit.Optimizer(box2, seed=5, log=path)
    for _ in range(2):
        x = opt.ask()
        opt.tell(x, quadratic(x), trial=x.trial)
    del opt
    with open(path, "a") as f:
        f.write(TORN)


def gpbandit_records(caplog):
    return [r for r in caplog.records if r.name == "gpbandit"]


def test_a_library_warning_goes_to_the_gpbandit_logger_not_stderr(box2, tmp_path, caplog, capfd):
    log = tmp_path / "runs.jsonl"
    study_with_a_torn_last_line(box2, log)
    capfd.readouterr()
    with caplog.at_level(logging.WARNING, logger="gpbandit"):
        gpbandit.Optimizer.resume(log)
    records = gpbandit_records(caplog)
    assert records  # resuming reads the log twice (header, then records): a warning each
    for record in records:
        assert record.levelno == logging.WARNING
        assert f"{log}: dropping a torn last line " in record.getMessage()
    assert "torn" not in capfd.readouterr().err


def test_a_warning_on_another_thread_reaches_the_logger(box2, tmp_path, caplog):
    log = tmp_path / "runs.jsonl"
    study_with_a_torn_last_line(box2, log)
    with caplog.at_level(logging.WARNING, logger="gpbandit"):
        worker = threading.Thread(target=gpbandit.Optimizer.resume, args=(log,))
        worker.start()
        worker.join()
    messages = [r.getMessage() for r in gpbandit_records(caplog)]
    assert messages and all("dropping a torn last line" in m for m in messages)


def test_the_logger_silences_them(box2, tmp_path, caplog, capfd):
    log = tmp_path / "runs.jsonl"
    study_with_a_torn_last_line(box2, log)
    capfd.readouterr()
    with caplog.at_level(logging.ERROR, logger="gpbandit"):
        gpbandit.Optimizer.resume(log)
    assert gpbandit_records(caplog) == []
    assert "torn" not in capfd.readouterr().err


def test_without_a_handler_the_warning_is_printed_on_stderr(box2, tmp_path):
    log = tmp_path / "runs.jsonl"
    study_with_a_torn_last_line(box2, log)
    code = "import sys, gpbandit; gpbandit.Optimizer.resume(sys.argv[1])"
    run = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)
    assert run.returncode == 0, run.stderr
    # logging's last resort prints the bare message (no "gpbandit: warning:" prefix).
    assert "dropping a torn last line" in run.stderr
    assert "gpbandit: warning:" not in run.stderr
