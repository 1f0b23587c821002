"""How fast `gpbandit dashboard` opens a study, and how much memory its server holds, at 10^2,
10^4 and 10^5 trials (a file study: a few real rounds, then synthetic pending + tell records as
workers write them). Measured in headless Chromium: the time from navigation to the first
render of the study list, history and trials table (window.__rendered, performance.now()), and
to the model's views (window.__modelRendered); the server's resident memory after both.

  GPBANDIT_CLI=build/cli/gpbandit /usr/bin/python3 bench/python/dashboard_load.py [sizes...]
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python", "tests"))
import dashboard_support as ds  # noqa: E402


def measure(size, directory):
    log = os.path.join(directory, "study_%d.jsonl" % size)
    ds.make_study(log, 5)
    ds.append_synthetic(log, size - 6)
    server = ds.Server("--log", log)
    browser = ds.Browser()
    try:
        idle_rss = server.rss_kib()
        start = time.time()
        browser.navigate(server.url)
        first = browser.wait_for("window.__rendered", timeout=120)
        model = browser.wait_for("window.__modelRendered", timeout=600)
        wall = time.time() - start
        views = browser.evaluate("JSON.stringify(window.__dashboard.views)")
        return {"trials": size, "log_mb": os.path.getsize(log) / 1e6, "first_render_s": first / 1000,
                "model_render_s": model / 1000, "wall_s": wall, "rss_idle_mib": idle_rss / 1024,
                "rss_mib": server.rss_kib() / 1024, "views": views, "errors": browser.errors}
    finally:
        browser.close()
        server.close()


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [100, 10000, 100000]
    with tempfile.TemporaryDirectory() as directory:
        for size in sizes:
            r = measure(size, directory)
            print("%(trials)7d trials (%(log_mb).1f MB): first render %(first_render_s).2f s, model %(model_render_s).2f s, "
                  "server RSS %(rss_idle_mib).0f MiB idle -> %(rss_mib).0f MiB; %(views)s %(errors)s" % r, flush=True)


if __name__ == "__main__":
    main()
