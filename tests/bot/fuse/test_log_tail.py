"""The tail of a program's log, as Fuse's and ffmpeg's errors quote it."""

from __future__ import annotations

from logo_bot.bot.fuse.log_tail import log_tail


def test_the_last_three_lines_are_joined(tmp_path):
    log = tmp_path / "fuse.log"
    log.write_text("one\ntwo\nthree\nfour\n\n")
    assert log_tail(log) == "two | three | four"
    assert log_tail(log, 1) == "four"


def test_a_short_log_is_quoted_whole(tmp_path):
    log = tmp_path / "fuse.log"
    log.write_bytes(b"  read_v2_block: not enough data in buffer \xff\n")
    assert log_tail(log) == "read_v2_block: not enough data in buffer \ufffd"


def test_an_empty_or_missing_log_says_so(tmp_path):
    empty = tmp_path / "empty.log"
    empty.write_text("\n  \n")
    assert log_tail(empty) == "(no output)"
    assert log_tail(empty, empty="") == ""
    assert log_tail(tmp_path / "missing.log") == "(no log)"
    assert log_tail(tmp_path / "missing.log", unreadable="(no ffmpeg log)") == "(no ffmpeg log)"
