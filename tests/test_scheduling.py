"""Side by side, a module with a shared fixture stays on one worker; other tests spread."""

from types import SimpleNamespace

from tests.scheduling import SharedFixtureScheduling, shares_a_fixture


def test_which_files_share_a_fixture(tmp_path):
    shared, param, plain = (tmp_path / f"test_{n}.py" for n in ("shared", "param", "plain"))
    shared.write_text('@pytest.fixture(scope="module")\ndef game(): ...\n')
    param.write_text('@pytest.fixture(scope="module", params=[1, 2])\ndef build(): ...\n')
    plain.write_text("@pytest.fixture\ndef tmp(): ...\n")
    assert shares_a_fixture(str(shared))
    assert not shares_a_fixture(str(param)), "set up once per parameter anyway"
    assert not shares_a_fixture(str(plain))
    assert not shares_a_fixture(str(tmp_path / "missing.py"))


def test_the_scope_of_a_test_is_its_module_only_when_the_module_shares(tmp_path):
    (tmp_path / "test_a.py").write_text('@pytest.fixture(scope="module")\ndef game(): ...\n')
    (tmp_path / "test_b.py").write_text("def test_x(): ...\n")
    scheduler = SharedFixtureScheduling.__new__(SharedFixtureScheduling)
    scheduler.config = SimpleNamespace(rootpath=tmp_path)
    assert scheduler._split_scope("test_a.py::test_1") == "test_a.py"
    assert scheduler._split_scope("test_a.py::test_2[x]") == "test_a.py"
    assert scheduler._split_scope("test_b.py::test_x") == "test_b.py::test_x"
