"""The file formats a run folder is made of: RZX cutting, fmfconv's AVI stream, run
folders and their names, events."""

from __future__ import annotations

import io
import json
import struct
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from logo_bot.bot.errors import RzxError, UsageError
from logo_bot.bot.recording.events import EventLog, jsonable, read_events
from logo_bot.bot.recording.folder import RunFolder, find_run, list_runs
from logo_bot.bot.recording.movie import avi_frames
from logo_bot.bot.recording.rzx import frame_count, read_blocks, truncate
from logo_bot.solvers.board import Board


def rzx_bytes(blocks_of_frames: list[list[bytes]], compressed: bool = True) -> bytes:
    """An RZX file: a fake snapshot block, then one input block per list of frames."""
    out = [b"RZX!" + bytes([0, 13]) + b"\0\0\0\0"]
    snap = b"\x02\0\0\0" + b"szx\0" + struct.pack("<I", 3) + zlib.compress(b"abc")
    out.append(struct.pack("<BI", 0x30, 5 + len(snap)) + snap)
    for frames in blocks_of_frames:
        payload = b"".join(frames)
        payload = zlib.compress(payload) if compressed else payload
        body = struct.pack("<IBII", len(frames), 0, 123, 2 if compressed else 0) + payload
        out.append(struct.pack("<BI", 0x80, 5 + len(body)) + body)
    return b"".join(out)


def frame(fetch: int, ins: bytes | None) -> bytes:
    if ins is None:
        return struct.pack("<HH", fetch, 0xFFFF)
    return struct.pack("<HH", fetch, len(ins)) + ins


def input_records(path: Path) -> list[bytes]:
    _, blocks = read_blocks(path)
    records = []
    for block in blocks:
        if block.kind != 0x80:
            continue
        count, _, _, flags = struct.unpack_from("<IBII", block.body, 0)
        data = block.body[13:]
        data = zlib.decompress(data) if flags & 2 else data
        at = 0
        for _ in range(count):
            n = struct.unpack_from("<H", data, at + 2)[0]
            size = 4 + (0 if n == 0xFFFF else n)
            records.append(data[at : at + size])
            at += size
    return records


@pytest.mark.parametrize("compressed", [True, False])
def test_rzx_truncate_keeps_the_first_frames_exactly(tmp_path, compressed):
    first = [frame(100 + i, bytes([i, i + 1])) for i in range(5)] + [frame(7, None)]
    second = [frame(200 + i, bytes([0xFF] * i)) for i in range(4)]
    source = tmp_path / "run.rzx"
    source.write_bytes(rzx_bytes([first, second], compressed))
    assert frame_count(source) == 10
    for keep in (1, 6, 8, 10):
        out = tmp_path / f"cut{keep}.rzx"
        assert truncate(source, keep, out) == keep
        assert frame_count(out) == keep
        assert input_records(out) == (first + second)[:keep]
    assert read_blocks(tmp_path / "cut1.rzx")[1][0].kind == 0x30  # the snapshot stays


def test_rzx_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.rzx"
    bad.write_bytes(b"nope")
    with pytest.raises(RzxError, match="not an RZX"):
        frame_count(bad)
    with pytest.raises(RzxError, match="cannot read"):
        frame_count(tmp_path / "none.rzx")
    damaged = tmp_path / "damaged.rzx"
    damaged.write_bytes(rzx_bytes([[frame(1, b"x")]])[:-3])
    with pytest.raises(RzxError, match="damaged"):
        frame_count(damaged)


def avi_stream(frames: list[np.ndarray]) -> bytes:
    """An AVI the way fmfconv writes it to a pipe: bogus sizes, top-down BGR rows."""
    height, width = frames[0].shape[:2]
    avih = struct.pack("<10I", 19968, 0, 0, 0, 0, 0, 1, 0, width, height) + bytes(16)
    hdrl = b"hdrl" + b"avih" + struct.pack("<I", len(avih)) + avih
    out = b"RIFF" + struct.pack("<I", 0x7FFFFFFF) + b"AVI "
    out += b"LIST" + struct.pack("<I", len(hdrl)) + hdrl
    out += b"JUNK" + struct.pack("<I", 3) + b"abc\0"  # odd size: padded
    out += b"LIST" + struct.pack("<I", 0x7FFFFFF0) + b"movi"
    for f in frames:
        data = np.ascontiguousarray(f[:, :, ::-1]).tobytes()
        out += b"00db" + struct.pack("<I", len(data)) + data
        out += b"01wb" + struct.pack("<I", 2) + b"\0\0"  # fmfconv's empty sound track
    return out


def test_avi_frames_are_decoded_to_rgb_in_order():
    rng = np.random.default_rng(1)
    frames = [rng.integers(0, 256, (6, 8, 3), dtype=np.uint8) for _ in range(3)]
    got = list(avi_frames(io.BytesIO(avi_stream(frames))))
    assert len(got) == 3
    for want, seen in zip(frames, got, strict=True):
        assert np.array_equal(want, seen)


def test_avi_stream_cut_short_yields_the_whole_frames_only():
    frames = [np.full((4, 4, 3), i, dtype=np.uint8) for i in range(3)]
    data = avi_stream(frames)
    got = list(avi_frames(io.BytesIO(data[: len(data) - 20])))
    assert [int(f[0, 0, 0]) for f in got] == [0, 1]


def test_run_folders_are_named_by_time_and_mode_and_never_reused(tmp_path):
    from datetime import UTC, datetime

    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    a = RunFolder.create(tmp_path, "walkthrough", when)
    b = RunFolder.create(tmp_path, "walkthrough", when)
    assert a.name == "20260102T030405Z-walkthrough"
    assert b.name == "20260102T030405Z-walkthrough-2"
    assert a.level_dir(7) == a.path / "levels" / "007"


def test_find_run_by_path_name_prefix_and_last(tmp_path):
    names = ["20260101T000000Z-walkthrough", "20260102T000000Z-level"]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "run.json").write_text("{}")
    (tmp_path / "20260103T000000Z-walkthrough").mkdir()  # unfinished: no run.json
    assert [r.name for r in list_runs(tmp_path)] == names
    assert find_run("last", tmp_path).name == names[1]
    assert find_run(names[0], tmp_path).name == names[0]
    assert find_run(str(tmp_path / names[0]), tmp_path).name == names[0]
    assert find_run("20260102", tmp_path).name == names[1]


@pytest.mark.parametrize("spec", ["nope", "2026", "20260103T000000Z-walkthrough"])
def test_bad_run_names_are_usage_errors(tmp_path, spec):
    for name in ("20260101T000000Z-walkthrough", "20260102T000000Z-level"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "run.json").write_text("{}")
    (tmp_path / "20260103T000000Z-walkthrough").mkdir()
    with pytest.raises(UsageError) as err:
        find_run(spec, tmp_path)
    assert err.value.exit_code == 2


def test_last_with_no_runs_says_so(tmp_path):
    with pytest.raises(UsageError, match="no recorded runs"):
        find_run("last", tmp_path)


def test_events_are_json_lines_with_boards_as_rows(tmp_path):
    log = EventLog(tmp_path / "events.jsonl")
    board = Board.from_rows(["1.", ".2"])
    log.write("plan", 10, 1, plan=((1, 2), (2, 1)), board=board, counts=Counter(a=2))
    log.write("keys", None, None, keys=["q", "space"], path=tmp_path)
    log.close()
    with open(tmp_path / "events.jsonl", "a") as f:
        f.write('{"cut short')  # a crash in the middle of a line
    events = read_events(tmp_path / "events.jsonl")
    assert [e["event"] for e in events] == ["plan", "keys"]
    assert events[0]["board"] == ["1.", ".2"] and events[0]["plan"] == [[1, 2], [2, 1]]
    assert events[0]["counts"] == {"a": 2} and events[0]["frame"] == 10
    assert json.dumps(jsonable({"x": (1, {2})})) == '{"x": [1, [2]]}'


def test_rzx_padding_repeats_the_last_frame_input(tmp_path):
    records = [frame(300 + i, bytes([i])) for i in range(4)]
    source = tmp_path / "run.rzx"
    source.write_bytes(rzx_bytes([records]))
    out = tmp_path / "padded.rzx"
    assert truncate(source, 3, out, pad=2) == 5
    got = input_records(out)
    assert got[:3] == records[:3]
    assert got[3:] == [struct.pack("<HH", 302, 0xFFFF)] * 2  # same fetch count, same input
    assert truncate(source, 4, out, pad=1) == 5 and input_records(out)[:4] == records


@pytest.mark.parametrize("command", ["replay", "runs", "walkthrough", "level"])
def test_help_of_the_recording_commands(command, capsys):
    from logo_bot.bot.cli import main

    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    assert "recordings" in capsys.readouterr().out


def test_runs_on_an_empty_or_missing_folder(tmp_path, capsys):
    from logo_bot.bot.cli import main

    assert main(["runs", "--video-dir", str(tmp_path)]) == 0
    assert "no recorded runs" in capsys.readouterr().out
    assert main(["runs", "--video-dir", str(tmp_path / "none")]) == 2
    assert main(["replay", "last", "--video-dir", str(tmp_path)]) == 2
    assert "no recorded runs" in capsys.readouterr().err
