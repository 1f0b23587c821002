"""Python and the command line on the same files. `best` and `predict` mean the same: the CLI's
`best` used to be the maximizer of the posterior mean over the box while Python's best() was the
observed point with the highest posterior mean, and the CLI's `predict` printed a standard
deviation where Python's gave a variance. And the library's data safety reaches the CLI."""

import subprocess

import numpy as np
import pytest

import gpbandit
from conftest import env_path, quadratic


def run_cli(*args):
    return subprocess.run([env_path("GPBANDIT_CLI"), *args], capture_output=True, text=True,
                          timeout=300)


def cli(*args):
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_best_and_predict_agree_with_the_command_line(box2, tmp_path):
    log = tmp_path / "runs.jsonl"
    opt = gpbandit.Optimizer(box2, seed=3, log=log)
    for _ in range(8):
        x = opt.ask()
        opt.tell(x, quadratic(x), trial=x.trial)
    best = opt.best()
    assert any(np.array_equal(best.x, x) for x in opt.observations().x)  # an observed point
    cli_best = np.array([float(v) for v in cli("best", "--log", str(log)).split(",")])
    np.testing.assert_array_equal(cli_best, best.x)
    point = np.array([1.25, 6.5])
    mean, std = opt.predict(point)
    cli_mean, cli_std = (float(v) for v in cli("predict", "--log", str(log), "--x",
                                                "1.25,6.5").split(","))
    assert cli_mean == pytest.approx(mean[0], rel=1e-12)
    assert cli_std == pytest.approx(std[0], rel=1e-12)  # both a standard deviation


def test_the_command_line_refuses_a_note_file_without_a_torn_line_warning(tmp_path):
    # It refused, but printed "dropping a torn last line" first.
    note = tmp_path / "note.txt"
    for text in ("my notes", "my notes\n"):
        note.write_text(text)
        for args in (["suggest", "--log", str(note), "--bounds", "0:1"],
                     ["best", "--log", str(note)]):
            result = run_cli(*args)
            assert result.returncode == 2, result.stderr
            assert "not a gpbandit study" in result.stderr and "torn" not in result.stderr
            assert note.read_text() == text
