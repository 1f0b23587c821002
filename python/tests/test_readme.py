"""The README's Python snippets run as pasted: each ```python block is run on its own, in a
fresh interpreter and an empty directory (the C++ snippets: tests/readme/). The quick start used
to call a run_experiment it never defined."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR


def snippets():
    text = pathlib.Path(SOURCE_DIR, "README.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_readme_has_python_snippets():
    assert len(snippets()) >= 2


@pytest.mark.parametrize("number", range(len(snippets())))
def test_readme_python_snippet_runs_as_pasted(number, tmp_path):
    code = snippets()[number]
    for run in (1, 2):  # a second run (a script run again) must work as well
        result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                                text=True, timeout=600, env=dict(os.environ))
        assert result.returncode == 0, f"run {run}:\n{code}\n{result.stderr}"
        assert result.stdout.strip(), code
