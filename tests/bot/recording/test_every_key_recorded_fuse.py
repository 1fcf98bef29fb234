"""End-to-end: every key event the bot sends to Fuse's window is in events.jsonl, the key
probe's included (every key goes through the environment the recorder wraps)."""

from __future__ import annotations

from collections import Counter

import pytest

from logo_bot.bot.cli import main
from logo_bot.bot.recording.events import read_events
from logo_bot.bot.recording.folder import list_runs
from logo_bot.bot.x11 import window_keys

pytestmark = pytest.mark.fuse


def test_the_key_events_sent_are_the_keys_recorded(xserver, tmp_path, monkeypatch):
    sent: Counter[bool] = Counter()  # True: presses, False: releases
    send = window_keys.send_key

    def counted(dpy, window, keycode, down, state):
        sent[down] += 1
        return send(dpy, window, keycode, down, state)

    monkeypatch.setattr(window_keys, "send_key", counted)
    argv = ["walkthrough", "--levels", "1-2", "--probe-keys", "--display", xserver.display]
    assert main([*argv, "--no-video", "--video-dir", str(tmp_path)]) == 0
    (folder,) = list_runs(tmp_path)
    events = list(read_events(folder.path / "events.jsonl"))
    keys = [e for e in events if e["event"] == "keys"]
    probe = [e for e in keys if e.get("probe")]
    assert probe, "the key probe's presses are recorded"
    assert sent[True] == sum(len(e["keys"]) for e in keys), "every press is recorded"
    assert sent[False] == sent[True]
    # the probe's own account of its bursts (its trials) is found among them, in order
    (found,) = [e for e in events if e["event"] == "key_probe"][-1:]
    bursts = iter("".join(e["keys"]) for e in probe if not e.get("held"))
    trials = [row[1] for row in found["trials"] if row[0] != "repeat"]
    assert trials and all(trial in bursts for trial in trials), (trials, probe)
    held = [e for e in probe if e.get("held")]
    assert len(held) == sum(row[0] == "repeat" for row in found["trials"])
    assert all({"hold_ms", "gap_ms", "rollover"} <= e.keys() for e in probe if not e.get("held"))
    # level 2 was planned from the level file while the game drew the transition
    plans = [e for e in events if e["event"] == "plan"]
    assert [e.get("ahead", False) for e in plans] == [False, True]
