"""How fast `gpbandit dashboard` opens a study and shows a new trial, and how much CPU and memory
its server takes, at 10^2, 10^4 and 10^5 trials, for a file study and (--postgres) the same
study imported into a PostgreSQL server (a throw-away one, started as the tests start theirs:
examples/shared_study/start_postgres.sh with INITDB_OPTIONS=--no-sync). The study: a few real
rounds, then synthetic pending + tell records as workers write them.

Measured in headless Chromium on the same machine:
- start: from launching the server to its printed URL (it reads every record first);
- first render: navigation to the study list, history and trials table drawn (window.__rendered);
- model: navigation to the model's views drawn (window.__modelRendered);
- update: from the exit of a `gpbandit observe` (its tell is durable then) to the page showing
  the new trial (the page polls every second);
- server CPU: user + system seconds from launch to the model drawn, and the share of a core while
  one page stays open, idle, for 10 s;
- server memory: resident set after reading, after the model, after the update.
Each size is run `--repeat` times (default 1) and the median of each figure printed.

  GPBANDIT_CLI=build/cli/gpbandit /usr/bin/python3 bench/python/dashboard_load.py [--postgres] \
      [--repeat N] [sizes...]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python", "tests"))
import dashboard_support as ds  # noqa: E402

SCRIPTS = os.path.join(HERE, "..", "..", "examples", "shared_study")
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


class Postgres:
    """A throw-away PostgreSQL server; .url names its database (the password in the URL)."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="gpbandit_dash_bench_pg_")
        port = ds.free_port()
        env = dict(os.environ, INITDB_OPTIONS="--no-sync")
        r = subprocess.run(["bash", os.path.join(SCRIPTS, "start_postgres.sh"), self.directory, str(port)],
                           capture_output=True, text=True, timeout=300, env=env)
        if r.returncode != 0:
            raise RuntimeError(r.stdout + r.stderr)
        password = open(os.path.join(self.directory, "pgpass")).read().strip().rsplit(":", 1)[1]
        self.url = "postgresql://gpbandit:%s@localhost:%d/gpbandit" % (password, port)

    def close(self):
        subprocess.run(["bash", os.path.join(SCRIPTS, "stop_postgres.sh"), self.directory], capture_output=True,
                       timeout=120)
        shutil.rmtree(self.directory, ignore_errors=True)


def make_log(size, directory):
    log = os.path.join(directory, "study_%d.jsonl" % size)
    if not os.path.exists(log):
        ds.make_study(log, 5)
        ds.append_synthetic(log, size - 6)
    return log


def measure(size, directory, postgres, run):
    log = make_log(size, directory)
    if postgres:
        study = "load-%d-%d" % (size, run)
        ds.run("study", "import", "--storage", postgres.url, "--study", study, "--in", log)
        source = ["--storage", postgres.url, "--study", study]
        observe = ["--storage", postgres.url, "--study", study]
    else:
        copy = os.path.join(directory, "run_%d_%d.jsonl" % (size, run))
        shutil.copyfile(log, copy)  # the update writes to it
        source = observe = ["--log", copy]
    launched = time.time()
    server = ds.Server(*source)
    start_s = time.time() - launched
    browser = ds.Browser()
    try:
        rss_read = server.rss_kib()
        navigated = time.time()
        browser.navigate(server.url)
        first = browser.wait_for("window.__rendered", timeout=120)
        model = browser.wait_for("window.__modelRendered", timeout=600)
        model_wall = time.time() - navigated
        cpu_to_model = cpu_seconds(server.proc.pid)
        rss_model = server.rss_kib()
        idle_start = cpu_seconds(server.proc.pid)
        time.sleep(10)
        idle_share = (cpu_seconds(server.proc.pid) - idle_start) / 10
        shown = browser.evaluate("window.__dashboard.rows.size")
        ds.run("observe", *observe, "--x", "0.5,0.5", "--y", repr(ds.objective([0.5, 0.5])))
        told = time.time()
        browser.wait_for("window.__dashboard.rows.size > %d" % shown, timeout=60)
        update_s = time.time() - told
        return {"start_s": start_s, "first_render_s": first / 1000, "model_render_s": model / 1000,
                "model_wall_s": model_wall, "update_s": update_s, "cpu_to_model_s": cpu_to_model,
                "idle_core_share": idle_share, "rss_read_mib": rss_read / 1024,
                "rss_model_mib": rss_model / 1024, "rss_after_update_mib": server.rss_kib() / 1024,
                "log_mb": os.path.getsize(log) / 1e6, "errors": browser.errors}
    finally:
        browser.close()
        server.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", action="store_true", help="the study in a PostgreSQL server")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 10000, 100000])
    args = parser.parse_args()
    postgres = Postgres() if args.postgres else None
    try:
        with tempfile.TemporaryDirectory() as directory:
            for size in args.sizes:
                runs = [measure(size, directory, postgres, k) for k in range(args.repeat)]
                med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if k != "errors"}
                med["trials"] = size
                med["source"] = "postgresql" if postgres else "file"
                med["errors"] = sum((r["errors"] for r in runs), [])
                print("%(source)s %(trials)7d trials (%(log_mb).1f MB log): start %(start_s).2f s, first render "
                      "%(first_render_s).2f s, model %(model_render_s).2f s, update %(update_s).2f s; server CPU "
                      "%(cpu_to_model_s).1f s to the model, %(idle_core_share).3f of a core idle with a page open; "
                      "RSS %(rss_read_mib).0f -> %(rss_model_mib).0f -> %(rss_after_update_mib).0f MiB; errors %(errors)s"
                      % med, flush=True)
    finally:
        if postgres:
            postgres.close()


if __name__ == "__main__":
    main()
