"""Key-reading modes of the practice game's builds: settings, names, the generated
include, and --describe reading the mode back from a built snapshot."""

import pytest

from game import build
from game.keyreading import KeyReading, KeyReadingError


@pytest.mark.parametrize(
    ("reading", "suffix"),
    [
        (KeyReading(), ""),
        (KeyReading("polled", 2), "-polled-p2"),
        (KeyReading("polled-repeat", 3, 20, 5), "-polled-repeat-p3-d20-e5"),
    ],
)
def test_each_mode_names_its_snapshot(reading, suffix):
    assert reading.suffix == suffix
    assert f"KEY_POLL_FRAMES          EQU {reading.poll_frames}" in reading.asm()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("typed",), "choose one of"),
        (("polled", 0), "give 1..50"),
        (("queued", 2), "goes with polled"),
        (("polled", 2, 20, 5), "go with polled-repeat"),
        (("polled-repeat", 2, 0, 5), "needs --repeat-delay"),
    ],
)
def test_settings_that_make_no_mode_are_refused(args, words):
    with pytest.raises(KeyReadingError, match=words):
        KeyReading(*args)


def test_describe_reads_the_mode_from_each_kind_of_file(tmp_path, capsys):
    reading = KeyReading("polled-repeat", 3, 20, 5)
    out = build.build(tmp_path, key_reading=reading)
    for path in (out.z80, out.tap, out.bin):
        assert build.describe(path) == reading
    assert build.main(["--describe", str(out.z80)]) == 0
    assert "a key held 20 frames repeats every 5 frames" in capsys.readouterr().out
    assert build.main(["--key-reading", "polled", "--repeat-every", "3"]) == 1
    assert "go with polled-repeat" in capsys.readouterr().err


def test_the_default_build_is_queued(game_build):
    assert game_build.z80.name == "practice.z80"
    assert build.describe(game_build.z80) == KeyReading()


def test_describe_refuses_a_file_that_is_not_a_build(tmp_path):
    other = tmp_path / "x.bin"
    other.write_bytes(bytes(100))
    with pytest.raises(KeyReadingError, match="no practice game build"):
        build.describe(other)


def test_repeats_come_at_the_first_read_after_the_delay_and_every_period_in_reads():
    reading = KeyReading("polled-repeat", 3, repeat_delay=12, repeat_every=4)
    assert reading.first_repeat_frames == 12 and reading.repeat_period_frames == 6
    reading = KeyReading("polled-repeat", 2, repeat_delay=20, repeat_every=5)
    assert reading.first_repeat_frames == 20 and reading.repeat_period_frames == 6
