"""cmake --install puts a working package into the prefix's site-packages directory."""

import glob
import os
import subprocess
import sys

from conftest import env_path


def test_installed_package_imports_and_runs(tmp_path):
    prefix = tmp_path / "prefix"
    result = subprocess.run(
        [env_path("GPBANDIT_CMAKE"), "--install", env_path("GPBANDIT_BUILD_DIR"), "--component",
         "python", "--prefix", str(prefix)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    found = glob.glob(str(prefix / "lib" / "python3*" / "*-packages" / "gpbandit" / "__init__.py"))
    assert len(found) == 1, os.listdir(prefix)
    site = os.path.dirname(os.path.dirname(found[0]))
    assert glob.glob(os.path.join(site, "gpbandit", "_core*.so"))
    for typed in ("py.typed", "_core.pyi"):  # PEP 561: the package's types go with it
        assert os.path.isfile(os.path.join(site, "gpbandit", typed)), typed
    # A fresh interpreter that sees only the installed copy (not the build tree).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = site
    code = (
        "import gpbandit, numpy as np\n"
        "assert gpbandit.__file__.startswith(%r), gpbandit.__file__\n"
        "r = gpbandit.minimize(lambda x: float(np.sum((x - 0.5) ** 2)), [(0.0, 1.0), (0.0, 1.0)],"
        " n_calls=8, seed=1)\n"
        "print(len(r.func_vals))\n" % site
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=120, cwd=str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "8"
