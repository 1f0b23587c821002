"""The dashboard on a PostgreSQL study (a throw-away server, examples/shared_study/
start_postgres.sh): it serves the trials, answers a JSON error while the database is down
without crashing, serves the same trials again once the database is back, and the password of
the storage URL appears in no answer."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest

import dashboard_support as ds
from conftest import SOURCE_DIR, free_port

SCRIPTS = os.path.join(SOURCE_DIR, "examples", "shared_study")
STUDY = "dash-gains"


def start(directory, port):
    env = dict(os.environ, INITDB_OPTIONS="--no-sync")
    result = subprocess.run(["bash", os.path.join(SCRIPTS, "start_postgres.sh"), directory, str(port)],
                            capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stdout + result.stderr


def stop(directory):
    result = subprocess.run(["bash", os.path.join(SCRIPTS, "stop_postgres.sh"), directory],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def database():
    """(directory, port, password): a fresh server; stopped and removed at the end."""
    directory = tempfile.mkdtemp(prefix="gpbandit_dash_pg_")  # under /tmp: the server's user must reach it
    port = free_port()
    start(directory, port)
    password = open(os.path.join(directory, "pgpass")).read().strip().rsplit(":", 1)[1]
    yield directory, port, password
    subprocess.run(["bash", os.path.join(SCRIPTS, "stop_postgres.sh"), directory], capture_output=True,
                   timeout=120)
    shutil.rmtree(directory, ignore_errors=True)


def fetch(url, path):
    """(status, body text) of a GET, errors included."""
    try:
        with urllib.request.urlopen(url.rstrip("/") + path, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def complete_ys(body):
    return sorted(r["y"] for r in json.loads(body)["rows"] if r["state"] == "complete")


def test_the_dashboard_outlives_its_database(database):
    directory, port, password = database
    url = "postgresql://gpbandit:%s@localhost:%d/gpbandit" % (password, port)
    told = []
    ds.run("study", "create", "--storage", url, "--study", STUDY, "--bounds", "0:1,0:1")
    for _ in range(4):
        out = ds.run("suggest", "--storage", url, "--study", STUDY).stdout
        x = [float(v) for v in out.strip().splitlines()[-1].split(",")]
        told.append(ds.objective(x))
        ds.run("observe", "--storage", url, "--study", STUDY, "--x", ",".join(map(repr, x)), "--y",
               repr(told[-1]))

    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}  # the password: in the URL only
    proc = subprocess.Popen([ds.gpbandit_program(), "dashboard", "--port", "0", "--storage", url, "--study", STUDY],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    answers = []
    try:
        server = proc.stdout.readline().strip()
        assert server.startswith("http://"), proc.stderr.read()
        answers.append(server)
        trials = "/api/trials?study=" + STUDY

        status, body = fetch(server, "/api/studies")
        answers.append(body)
        assert status == 200
        assert [s["name"] for s in json.loads(body)["studies"]] == [STUDY]
        last_sequence = json.loads(body)["studies"][0]["last_sequence"]
        status, body = fetch(server, trials)
        answers.append(body)
        assert status == 200
        assert complete_ys(body) == pytest.approx(sorted(told))
        status, body = fetch(server, "/api/model?study=" + STUDY)
        answers.append(body)
        assert status == 200
        next_x = json.loads(body)["next"]["x"]  # the optimizer's next ask, previewed
        time.sleep(0.6)  # past JsonApi::kReadRefreshSeconds: the study is read again
        status, body = fetch(server, "/api/studies")
        assert json.loads(body)["studies"][0]["last_sequence"] == last_sequence  # nothing written

        stop(directory)
        time.sleep(1.0)  # past JsonApi::kReadRefreshSeconds: a read this recent answers from memory
        for path in (trials, "/api/studies", "/api/model?study=" + STUDY, "/"):
            start_time = time.time()
            status, body = fetch(server, path)
            assert time.time() - start_time < 10, path  # not the workers' 300 s of reconnecting
            answers.append(body)
            if path != "/":
                assert status in (200, 503), (path, status, body)
                answer = json.loads(body)  # JSON, not a crash or an empty reply
                if path == trials:
                    assert status == 503 and "error" in answer, body
        assert proc.poll() is None  # still serving

        start(directory, port)
        deadline = time.time() + 30
        while True:
            status, body = fetch(server, trials)
            answers.append(body)
            if status == 200 or time.time() > deadline:
                break
            time.sleep(0.5)
        assert status == 200, body
        assert complete_ys(body) == pytest.approx(sorted(told))
        status, body = fetch(server, "/api/studies")
        answers.append(body)
        assert status == 200 and json.loads(body)["studies"][0]["complete"] == len(told)
        # The point previewed is what the next worker is handed.
        out = ds.run("suggest", "--storage", url, "--study", STUDY).stdout
        assert [float(v) for v in out.strip().splitlines()[-1].split(",")] == pytest.approx(next_x, abs=1e-9)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    answers.append(err)
    assert len(password) >= 16
    for answer in answers:
        assert password not in answer
