"""Builds the Python package `gpbandit` with CMake (pyproject.toml holds the metadata).

The compiled part, gpbandit._core, is the CMake target gpbandit_python_core: this script
configures a Release build of the module's targets only (no tests, benchmarks or command line)
for the interpreter running it, builds that target, and puts the module beside the package's
Python files (python/gpbandit/). The version is read from include/gpbandit/version.h, the one
place it is written.

Environment:
  GPBANDIT_CMAKE_BUILD_DIR  an existing, configured CMake build tree to build the module in
                            (e.g. build/, for a quick reinstall); default: a fresh tree under
                            setuptools' build directory.
  CMAKE_ARGS                more arguments for the configure step (e.g. -DGPBANDIT_NATIVE=ON).
  CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default: the number of CPUs).

pip shows a build backend's output only with -v, and a first build compiles for minutes, so the
steps and the build's percentage are also written to the terminal pip runs in (/dev/tty), when
there is one.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def version():
    text = (ROOT / "include" / "gpbandit" / "version.h").read_text()
    return re.search(r'#define GPBANDIT_VERSION_STRING "([^"]+)"', text).group(1)


def progress(message):
    """Writes one line of progress where a person sees it: the terminal when there is one
    (pip captures the backend's own output), and the backend's standard error in any case."""
    line = f"gpbandit: {message}\n"
    sys.stderr.write(line)
    sys.stderr.flush()
    try:
        with open("/dev/tty", "w") as tty:
            tty.write(line)
    except OSError:
        pass  # no terminal (CI, a pipe): standard error is all there is


def run_showing_progress(command, what):
    """Runs a CMake build, reporting its percentage every 10 points; its whole output is
    shown if it fails."""
    lines = []
    shown = -10
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as build:
        for line in build.stdout:
            lines.append(line)
            done = re.match(r"^\[\s*(\d+)%\]", line)
            if done and int(done.group(1)) >= shown + 10:
                shown = int(done.group(1))
                progress(f"{what}: {shown}%")
    if build.returncode != 0:
        sys.stderr.write("".join(lines))
        raise subprocess.CalledProcessError(build.returncode, command)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        reuse = os.environ.get("GPBANDIT_CMAKE_BUILD_DIR")
        build_dir = Path(reuse or Path(self.build_temp).resolve() / "cmake")
        if not reuse:
            progress(f"configuring the module's build in {build_dir}")
            self.configure(build_dir)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        progress(f"compiling the module with {jobs} jobs (a first build takes minutes)")
        run_showing_progress(["cmake", "--build", str(build_dir), "--target",
                              "gpbandit_python_core", "--parallel", jobs],
                             "compiling the module")
        built = sorted((build_dir / "python" / "gpbandit").glob("_core*.so"))
        if not built:
            raise RuntimeError(f"the CMake build in {build_dir} made no gpbandit/_core*.so")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)
        progress(f"built {target.name}")

    @staticmethod
    def configure(build_dir):
        build_dir.mkdir(parents=True, exist_ok=True)
        command = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DGPBANDIT_BUILD_TESTS=OFF",
            "-DGPBANDIT_BUILD_BENCH=OFF",
            "-DGPBANDIT_BUILD_EXAMPLES=OFF",
            "-DGPBANDIT_WITH_PAGMO=OFF",  # the module needs the core only
            "-DGPBANDIT_WITH_PYTHON=ON",
            f"-DPython_EXECUTABLE={sys.executable}",
        ]
        command += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.run(command, check=True)


setup(
    version=version(),
    # Out of build/, which is the CMake build tree of the quick start.
    options={"build": {"build_base": "build-python"}},
    packages=["gpbandit"],
    package_dir={"gpbandit": "python/gpbandit"},
    package_data={"gpbandit": ["py.typed", "*.pyi"]},
    ext_modules=[CMakeExtension("gpbandit._core")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
