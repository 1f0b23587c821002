"""`pip install .` from the source tree, offline, with Debian's pip and setuptools: the package
installs into a scratch target with its version, its compiled module, py.typed and the compiled
module's types, and imports and runs from another folder. The build reuses this build tree's
CMake configuration (GPBANDIT_CMAKE_BUILD_DIR), so that only the module's target is (re)built;
the build from a fresh configuration is the same script with that variable unset (setup.py)."""

import glob
import os
import re
import shutil
import subprocess
import sys

from conftest import SOURCE_DIR, env_path


def copy_of_the_source_tree(destination):
    """The source tree without build trees or version control: what a user's checkout holds."""
    ignore = shutil.ignore_patterns(".git", "build*", "__pycache__", "*.egg-info")
    shutil.copytree(SOURCE_DIR, destination, ignore=ignore)
    return destination


def test_pip_install_into_a_target_then_import_from_elsewhere(tmp_path):
    source = copy_of_the_source_tree(tmp_path / "source")
    target = tmp_path / "target"
    env = dict(os.environ, GPBANDIT_CMAKE_BUILD_DIR=env_path("GPBANDIT_BUILD_DIR"))
    env.pop("PYTHONPATH", None)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index",
         "--no-deps", "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=1800, env=env, cwd=tmp_path,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    package = target / "gpbandit"
    for name in ("__init__.py", "minimize.py", "py.typed", "_core.pyi"):
        assert (package / name).is_file(), name
    assert glob.glob(str(package / "_core*.so"))
    dist_info = glob.glob(str(target / "gpbandit-*.dist-info"))
    assert len(dist_info) == 1, os.listdir(target)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import gpbandit, numpy as np\n"
        f"assert gpbandit.__file__.startswith({str(target)!r}), gpbandit.__file__\n"
        "r = gpbandit.minimize(lambda x: float(np.sum((x - 0.5) ** 2)), [(0.0, 1.0), (0.0, 1.0)],"
        " n_calls=6, seed=1)\n"
        "print(gpbandit.__version__, r.nfev)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(env, PYTHONPATH=str(target)), timeout=300, cwd=elsewhere)
    assert run.returncode == 0, run.stderr
    version, nfev = run.stdout.split()
    assert nfev == "6"
    assert os.path.basename(dist_info[0]) == f"gpbandit-{version}.dist-info"


def test_pip_install_shows_its_progress_on_the_terminal(tmp_path):
    """pip keeps a build backend's output to itself unless -v is given; the build's steps and
    percentage reach the terminal pip runs in all the same (`script` gives it one)."""
    source = copy_of_the_source_tree(tmp_path / "source")
    env = dict(os.environ, GPBANDIT_CMAKE_BUILD_DIR=env_path("GPBANDIT_BUILD_DIR"))
    env.pop("PYTHONPATH", None)
    pip = " ".join([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                    "--no-deps", "--target", str(tmp_path / "target"), str(source)])
    install = subprocess.run(["script", "-qec", pip, "/dev/null"], capture_output=True,
                             text=True, timeout=1800, env=env, cwd=tmp_path)
    assert install.returncode == 0, install.stdout + install.stderr
    shown = install.stdout
    assert "gpbandit: compiling the module with" in shown, shown
    assert re.search(r"gpbandit: compiling the module: \d+%", shown), shown
    assert "gpbandit: built _core" in shown, shown
