"""The `gpbandit dashboard` and `gpbandit report` commands (docs/dashboard.md) from Python.

Both run the `gpbandit` command-line program: the dashboard's server and report are C++
(cli/dashboard/), not part of the compiled module. The program is looked for in the
environment variable GPBANDIT_CLI, then in the CMake build tree the package was imported from
(build/cli/gpbandit beside build/python/gpbandit), then on PATH."""

import os
import shutil
import subprocess
import tempfile
import webbrowser
from typing import List, Optional, Union

Path = Union[str, "os.PathLike[str]"]

__all__ = ["Dashboard", "dashboard", "program", "report"]


def program() -> str:
    """The path of the `gpbandit` program; FileNotFoundError saying what to install when none is
    found."""
    path = os.environ.get("GPBANDIT_CLI")
    if path:
        if not os.access(path, os.X_OK):
            raise FileNotFoundError(f"GPBANDIT_CLI={path!r} is not an executable program")
        return path
    package = os.path.dirname(os.path.abspath(__file__))
    beside = os.path.join(package, "..", "..", "cli", "gpbandit")  # build/python/gpbandit -> build/cli
    if os.access(beside, os.X_OK) and os.path.isfile(beside):
        return os.path.normpath(beside)
    on_path = shutil.which("gpbandit")
    if on_path:
        return on_path
    raise FileNotFoundError(
        "the gpbandit command-line program was not found (not in GPBANDIT_CLI, "
        f"{os.path.normpath(beside)} or PATH): build it with `cmake --build build --target gpbandit_cli` "
        "(it needs Debian's libcpp-httplib-dev and libjs-chart.js for the dashboard) and put "
        "build/cli on PATH, or set GPBANDIT_CLI to its path")


def _source(log: Optional[Path], storage: Optional[Path], study: Optional[str]) -> List[str]:
    if (log is None) == (storage is None):
        raise ValueError("give exactly one of log= (a study's file) and storage= (a URL or directory)")
    if log is not None:
        if study is not None:
            raise ValueError(f"study={study!r} goes with storage=, not with log= (a file holds one study)")
        log = os.fspath(log)
        if not os.path.isfile(log):
            raise FileNotFoundError(f"log={log!r}: no such study file")
        return ["--log", log]
    args = ["--storage", os.fspath(storage)]
    if study is not None:
        args += ["--study", study]
    return args


class Dashboard:
    """A running `gpbandit dashboard` server: `.url` (with the token, as printed), `.close()`;
    a context manager. The server stops when closed or when the handle is collected."""

    def __init__(self, args: List[str]):
        # The server's messages (a database lost and found again...) go to a file: a pipe nobody
        # reads would fill and stop the server.
        self._log = tempfile.TemporaryFile(mode="w+")
        self._proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self._log,
                                      stdin=subprocess.DEVNULL, text=True)
        line = self._proc.stdout.readline().strip()  # the server prints its URL once it serves
        if not line.startswith("http://"):
            self._proc.wait()
            self._log.seek(0)
            message = self._log.read().strip()
            self.close()
            raise RuntimeError("gpbandit dashboard did not start: " + (message or line or "no message"))
        self.url: str = line

    @property
    def pid(self) -> int:
        return self._proc.pid

    def running(self) -> bool:
        return self._proc.poll() is None

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._proc.stdout.close()
        self._log.close()

    def __enter__(self) -> "Dashboard":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"Dashboard({self.url!r}, {'running' if self.running() else 'stopped'})"


def dashboard(log: Optional[Path] = None, storage: Optional[Path] = None, study: Optional[str] = None,
              port: int = 0, bind: str = "127.0.0.1", token: Optional[str] = None,
              open_browser: bool = False) -> Dashboard:
    """Starts `gpbandit dashboard` on a study file (log=) or a storage (storage=: a directory or
    postgresql:// URL, study= one of its studies, else all) and returns once it serves. port=0
    takes any free port; a bind other than loopback needs token= (the server refuses
    otherwise). A database needs study= (`gpbandit dashboard` serves one of its studies).
    open_browser opens .url in the default browser."""
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port={port!r} must be an integer in [0, 65535]")
    args = [program(), "dashboard", *_source(log, storage, study), "--port", str(port), "--bind", bind]
    if token is not None:
        args += ["--token", token]
    handle = Dashboard(args)
    if open_browser:
        webbrowser.open(handle.url)
    return handle


def report(log: Optional[Path] = None, out: Optional[Path] = None, storage: Optional[Path] = None,
           study: Optional[str] = None) -> str:
    """Writes `gpbandit report` (one self-contained HTML file) for a study and returns its path."""
    if out is None:
        raise ValueError("out= (the HTML file to write) is required")
    out = os.fspath(out)
    args = [program(), "report", *_source(log, storage, study), "--out", out]
    result = subprocess.run(args, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise RuntimeError("gpbandit report failed: " + (result.stderr.strip() or result.stdout.strip()))
    return out
