"""Shared studies from Python (storage=, study=, Optimizer.open): a directory of studies and a
single file shared by optimizers and by real processes, and a throw-away PostgreSQL server
started with examples/shared_study/start_postgres.sh."""

import os
import subprocess
import sys

import numpy as np
import pytest

import gpbandit
from conftest import quadratic

WORKER_SCRIPT = """
import sys
import gpbandit
storage, study, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
opt = gpbandit.Optimizer.open(storage, study, worker={"id": "child"})
for _ in range(rounds):
    x = opt.ask()
    opt.tell(x, -((x[0] - 2.0) ** 2) - 0.1 * (x[1] - 7.0) ** 2)
print(opt.fingerprint())
"""


def work(opt, rounds):
    for _ in range(rounds):
        x = opt.ask()
        opt.tell(x, quadratic(x))


def check_shared_study(storage, study):
    domain = gpbandit.Domain.box([0.0, 0.0], [5.0, 10.0])
    first = gpbandit.Optimizer(domain, seed=4, storage=storage, study=study,
                               worker={"id": "first"})
    assert first.storage == storage and first.study == (study or None)
    assert first.worker_id == "first"
    work(first, 4)
    second = gpbandit.Optimizer.open(storage, study, worker={"id": "second"})
    assert second.domain == domain and second.options["seed"] == 4
    assert second.num_accepted == 4  # replayed the study
    x = second.ask()  # pending in the study: the first worker sees it
    first.sync()
    pending = first.pending()
    assert np.array_equal(pending.x, [x]) and pending.worker == ["second"]
    second.tell(x, quadratic(x))
    # A real process joins and works; both workers then hold the same model.
    result = subprocess.run(
        [sys.executable, "-c", WORKER_SCRIPT, storage, study, "3"],
        capture_output=True, text=True, timeout=300, env=dict(os.environ),
    )
    assert result.returncode == 0, result.stderr
    first.sync()
    second.sync()
    assert first.num_accepted == second.num_accepted == 8
    assert first.fingerprint() == second.fingerprint() == result.stdout.strip()
    # A refused call writes nothing.
    with pytest.raises(ValueError):
        second.tell([99.0, 0.0], 1.0)
    first.sync()
    assert first.fingerprint() == second.fingerprint()


def test_directory_of_studies(tmp_path):
    check_shared_study(str(tmp_path), "gains")
    assert (tmp_path / "gains.jsonl").exists()


def test_one_file_study(tmp_path):
    check_shared_study(str(tmp_path / "study.jsonl"), "")


def test_postgresql_study(postgres_url):
    check_shared_study(postgres_url, "python-gains")


def test_postgresql_bad_url_is_a_runtime_error_without_the_password():
    with pytest.raises(RuntimeError) as info:
        gpbandit.Optimizer.open("postgresql://someone:secret-word@127.0.0.1:1/none", "s")
    assert "secret-word" not in str(info.value)


def test_create_study_writes_the_header_alone(tmp_path):
    domain = gpbandit.Domain.box([0.0], [1.0])
    opt = gpbandit.Optimizer(domain, seed=2, storage=str(tmp_path), study="empty")
    assert not (tmp_path / "empty.jsonl").exists()  # a study is created by its first record
    with pytest.raises(RuntimeError):
        gpbandit.Optimizer.open(str(tmp_path), "empty")
    assert opt.create_study() is True
    lines = (tmp_path / "empty.jsonl").read_text().splitlines()
    assert len(lines) == 1 and '"type":"header"' in lines[0]
    assert opt.create_study() is False
    joined = gpbandit.Optimizer.open(str(tmp_path), "empty")
    assert joined.domain == domain and joined.num_accepted == 0


def test_worker_options_of_the_lock_and_of_asks(tmp_path):
    domain = gpbandit.Domain.box([0.0, 0.0], [1.0, 1.0])
    path = str(tmp_path / "asks.jsonl")
    outside = gpbandit.Optimizer(domain, seed=1, storage=path,
                                 worker={"lock_lease_seconds": 5.0, "ask_tolerance": 0.2})
    outside.tell(outside.ask(), 0.5)
    report = outside.last_round_report()
    assert report["choices_outside_lock"] == 1 and not report["chosen_under_lock"]
    under = gpbandit.Optimizer.open(path, "", worker={"asks_outside_lock": False})
    under.ask()
    report = under.last_round_report()
    assert report["choices_outside_lock"] == 0 and report["chosen_under_lock"]
    with pytest.raises(ValueError, match="ask_tolerance"):
        gpbandit.Optimizer.open(path, "", worker={"ask_tolerance": 2.0})
