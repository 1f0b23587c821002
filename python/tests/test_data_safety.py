"""Data safety from Python, each test the regression test of a defect a new user met: a file
that is not a study is never cut or appended to, an existing study is continued only when asked
(load_if_exists) and only with the same settings, passwords never shown, and study names with
control characters refused."""

import time

import pytest

import gpbandit
from conftest import quadratic


def work(opt, rounds):
    for _ in range(rounds):
        x = opt.ask()
        opt.tell(x, quadratic(x), trial=x.trial)


def test_a_text_file_given_as_log_is_refused_and_left_untouched(box2, tmp_path, capfd):
    # It used to warn "dropping a torn last line" and write the study over the user's notes.
    for text in ("my notes", "my notes\n", "line 1\nline 2"):
        note = tmp_path / "note.txt"
        note.write_text(text)
        with pytest.raises(RuntimeError, match="not a gpbandit study"):
            gpbandit.Optimizer(box2, log=note)
        with pytest.raises(RuntimeError, match="not a gpbandit study"):
            gpbandit.Optimizer.resume(note)
        assert note.read_text() == text
        assert "torn" not in capfd.readouterr().err


def test_an_existing_log_is_continued_only_when_asked(box2, tmp_path):
    # Re-running a script with log= used to continue the old study silently.
    log = tmp_path / "runs.jsonl"
    work(gpbandit.Optimizer(box2, seed=5, log=log), 3)
    before = log.read_bytes()
    with pytest.raises(FileExistsError, match="load_if_exists=True"):
        gpbandit.Optimizer(box2, seed=5, log=log)
    with pytest.raises(FileExistsError):
        gpbandit.minimize(lambda x: 0.0, [(0, 5), (0, 10)], n_calls=1, seed=5, log=log)
    assert log.read_bytes() == before
    again = gpbandit.Optimizer(box2, log=log, load_if_exists=True)  # seed None: the study's
    assert again.num_accepted == 3 and again.options["seed"] == 5
    work(again, 1)
    assert gpbandit.Optimizer.resume(log).num_accepted == 4
    fresh = gpbandit.Optimizer(box2, seed=5, log=tmp_path / "new.jsonl", load_if_exists=True)
    assert fresh.num_accepted == 0  # load_if_exists creates a study that does not exist


@pytest.mark.parametrize(
    "changed, field",
    [
        ({"sense": "minimize"}, "options.sense"),
        ({"beta_scale": 0.2}, "strategy_options.beta_scale"),
        ({"initial_design_size": 7}, "options.initial_design_size"),
        ({"strategy": "ei"}, "strategy"),
        ({"seed": 6}, "options.seed"),
        ({"fit": {"num_restarts": 4}}, "options.fit.num_restarts"),
    ],
)
def test_joining_with_other_settings_is_refused_naming_the_field(box2, tmp_path, changed, field):
    # sense="minimize" on a maximize log used to be accepted: best() then returned the worst
    # point and the replay read costs as rewards.
    log = tmp_path / "runs.jsonl"
    work(gpbandit.Optimizer(box2, seed=5, log=log), 3)
    before = log.read_bytes()
    settings = {"seed": 5, **changed}
    with pytest.raises(RuntimeError, match=f"written with {field} = "):
        gpbandit.Optimizer(box2, log=log, load_if_exists=True, **settings)
    assert log.read_bytes() == before
    other_domain = gpbandit.Domain.box([0.0, 0.0], [5.0, 11.0])
    with pytest.raises(RuntimeError, match="written with domain.upper = "):
        gpbandit.Optimizer(other_domain, seed=5, log=log, load_if_exists=True)


def test_an_existing_study_in_a_storage_needs_load_if_exists(box2, tmp_path):
    work(gpbandit.Optimizer(box2, seed=2, storage=tmp_path, study="s"), 2)
    with pytest.raises(FileExistsError, match="the study 's'"):
        gpbandit.Optimizer(box2, seed=2, storage=tmp_path, study="s")
    worker = gpbandit.Optimizer(box2, seed=2, storage=tmp_path, study="s", load_if_exists=True)
    assert worker.num_accepted == 2


@pytest.mark.parametrize("url", ["POSTGRESQL://user:secret@localhost:1/db",
                                 "Postgres://user:secret@localhost:1/db?password=secret"])
def test_passwords_are_never_shown(box2, url):
    # POSTGRESQL://user:secret@... used to be echoed whole.
    for study in ("s", None):
        with pytest.raises(Exception) as info:
            gpbandit.Optimizer(box2, storage=url, study=study)
        assert "secret" not in str(info.value) and "***" in str(info.value), str(info.value)


@pytest.mark.parametrize("name", ["a\nb", "tab\there", "bell\x07"])
def test_study_names_with_control_characters_are_refused_before_connecting(box2, tmp_path, name):
    for storage in (str(tmp_path), "postgresql://user:pw@192.0.2.1:5432/db"):
        start = time.monotonic()
        with pytest.raises(ValueError, match="control character"):
            gpbandit.Optimizer(box2, storage=storage, study=name)
        assert time.monotonic() - start < 1.0  # no connection was attempted
    assert list(tmp_path.iterdir()) == []
