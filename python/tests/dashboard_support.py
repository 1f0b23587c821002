"""What the dashboard's browser tests and its benchmark (bench/python/dashboard_load.py) share:
studies made with the real `gpbandit` program, big logs written record by record in the log's
own format (study/observation_log.h), the dashboard server on a free loopback port, and a
headless Chromium driven over its DevTools protocol (python3-websocket)."""
import json
import math
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

import websocket

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def gpbandit_program():
    path = os.environ.get("GPBANDIT_CLI")
    if path:
        return path
    build = os.environ.get("GPBANDIT_BUILD_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    return os.path.join(build, "cli", "gpbandit")


def run(*args, **kwargs):
    return subprocess.run([gpbandit_program(), *args], check=True, capture_output=True, text=True, **kwargs)


def objective(x):
    return -sum((v - 0.3 - 0.1 * i) ** 2 for i, v in enumerate(x))


def make_study(log, trials, bounds="0:1,0:1", worker="w1", strategy="gp-ucb"):
    """A real study: `trials` suggest/observe rounds, then one suggestion left pending."""
    told = []
    for i in range(trials):
        args = ["suggest", "--log", log, "--bounds", bounds, "--strategy", strategy, "--worker-id", worker,
                "--lease", "3600"]
        out = run(*args).stdout.strip().splitlines()
        x = [float(v) for v in out[-1].split(",")]
        y = objective(x)
        run("observe", "--log", log, "--x", ",".join(repr(v) for v in x), "--y", repr(y))
        told.append((x, y))
    run("suggest", "--log", log, "--worker-id", worker, "--lease", "3600")
    return told


def append_synthetic(log, count, dim=2, seed=0, fail_every=97, fit_every=0):
    """Appends `count` pending + tell pairs (trial numbers after those in the log), as workers
    would write them, and every fit_every-th pair a fit record (the header's kernel log-params,
    shifted): a big study in seconds."""
    rng = random.Random(seed)
    with open(log) as f:
        records = [json.loads(line) for line in f]
    start_params = records[0]["kernel"]["log_params"]
    trial = 1 + max([r.get("trial", -1) for r in records[1:]] + [-1])
    rnd = 1 + max([r.get("round", -1) for r in records[1:]] + [-1])
    lines = []
    for k in range(count):
        x = [rng.random() for _ in range(dim)]
        y = objective(x) + 0.01 * rng.gauss(0, 1)
        failed = fail_every and k % fail_every == fail_every - 1
        lines.append(json.dumps({"type": "pending", "round": rnd, "design_index": -1, "x": x, "z": [],
                                 "worker": "bulk-%d" % (k % 4), "lease_until": time.time() + 3600,
                                 "trial": trial}))
        lines.append(json.dumps({"type": "tell", "x": x, "z": [], "y": "inf" if failed else y,
                                 "accepted": not failed, "round": rnd, "trial": trial}))
        if fit_every and k % fit_every == fit_every - 1:
            shift = 0.05 * (k // fit_every + 1)
            lines.append(json.dumps({"type": "fit", "round": rnd, "report": "synthetic",
                                     "log_params": [p - shift * (i % 2) for i, p in enumerate(start_params)],
                                     "noise_variance": 1e-3}))
        trial += 1
        rnd += 1
    with open(log, "a") as f:
        f.write("\n".join(lines) + "\n")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`gpbandit dashboard` on a free loopback port; .url is what it printed."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([gpbandit_program(), "dashboard", "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.proc.kill()
            raise RuntimeError("dashboard did not start: " + self.proc.stderr.read())

    def get(self, path):
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=60) as r:
            return json.loads(r.read())

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Browser:
    """Headless Chromium over the DevTools protocol: navigate, evaluate, screenshot; console
    errors and uncaught exceptions are collected in .errors."""

    def _start_chromium(self):
        """Starts chromium on self.profile; the path of its DevTools port file once written, or
        None when it exits or has not written it within 60 s."""
        self._log_path = os.path.join(self.profile, "chromium.log")
        with open(self._log_path, "w") as log:
            self.proc = subprocess.Popen(
                [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + self.profile,
                 "--remote-debugging-port=0", "about:blank"],
                stdout=subprocess.DEVNULL, stderr=log)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 60
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if time.time() > deadline or self.proc.poll() is not None:
                return None
            time.sleep(0.05)
        return port_file

    def __init__(self, width=1400, height=2400):
        # A loaded machine (a parallel test run) can make a cold start slow, or a start fail:
        # two tries of a minute each, each with its own profile, and what chromium said.
        for attempt in (1, 2):
            self.profile = tempfile.mkdtemp(prefix="gpbandit_chromium_")
            port_file = self._start_chromium()
            if port_file:
                break
            self.proc.kill()
            self.proc.wait()
            said = open(self._log_path, errors="replace").read()[-2000:]
            shutil.rmtree(self.profile, ignore_errors=True)
            if attempt == 2:
                raise RuntimeError("chromium did not start (twice); it said:\n" + said)
        port = int(open(port_file).read().split()[0])
        targets = []
        while not any(t["type"] == "page" for t in targets):
            with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port) as r:
                targets = json.loads(r.read())
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60)
        self.next_id = 0
        self.errors = []
        for method in ("Runtime.enable", "Log.enable", "Page.enable"):
            self.call(method)
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False)

    def _event(self, message):
        method = message.get("method")
        if method == "Runtime.exceptionThrown":
            self.errors.append(message["params"]["exceptionDetails"].get("text", "exception"))
        elif method == "Runtime.consoleAPICalled" and message["params"]["type"] == "error":
            self.errors.append(" ".join(str(a.get("value", a.get("description"))) for a in message["params"]["args"]))
        elif method == "Log.entryAdded" and message["params"]["entry"]["level"] == "error":
            entry = message["params"]["entry"]
            self.errors.append(entry["text"] + (" " + entry["url"] if entry.get("url") else ""))

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(method + ": " + json.dumps(message["error"]))
                return message["result"]
            self._event(message)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(expression + ": " + json.dumps(result["exceptionDetails"]))
        return result["result"].get("value")

    def navigate(self, url):
        self.call("Page.navigate", url=url)

    def wait_for(self, expression, timeout=20.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                value = self.evaluate(expression)
            except RuntimeError:  # the page is not there yet
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError("timed out waiting for " + expression)

    def screenshot(self, path, element_id=None):
        import base64
        params = {"format": "png", "captureBeyondViewport": True}
        if element_id:
            box = self.evaluate("(() => { const r = document.getElementById(%s).getBoundingClientRect();"
                                " return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()" % json.dumps(element_id))
            params["clip"] = {"x": box[0], "y": box[1], "width": max(1, box[2]), "height": max(1, box[3]), "scale": 1}
        data = self.call("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def count_log(log):
    """Independent of the dashboard: tells accepted, tells failed, trials still pending, fits."""
    accepted = failed = fits = 0
    pending = []  # (trial, x, z) in the order handed out

    def release(r):
        for k, (trial, x, z) in enumerate(pending):
            if ("trial" in r and r["trial"] == trial) or ("trial" not in r and (x, z) == (r["x"], r["z"])):
                del pending[k]
                return

    for line in open(log).read().splitlines()[1:]:
        r = json.loads(line)
        if r["type"] == "pending":
            pending.append((r.get("trial"), r["x"], r["z"]))
        elif r["type"] == "tell":
            if r["accepted"]:
                accepted += 1
            else:
                failed += 1
            release(r)
        elif r["type"] == "clear_pending":
            pending.clear()
        elif r["type"] == "release":
            release(r)
        elif r["type"] == "fit":
            fits += 1
    return accepted, failed, len(pending), fits
