"""run.json's versions: a tool that fails to say its version has none."""

from logo_bot.bot.recording import manifest


def test_a_tool_that_fails_reports_no_version(tmp_path, monkeypatch):
    tool = tmp_path / "fftool"
    tool.write_text(
        "#!/bin/sh\necho 'fftool: error while loading shared libraries' >&2\nexit 127\n"
    )
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(manifest, "_FOUND", {})  # nothing asked yet
    assert manifest.tool_version("fftool") is None
    assert manifest.known_tool_version("fftool") is None
    tool.write_text("#!/bin/sh\necho 'fftool version 6.1'\n")
    monkeypatch.setattr(manifest, "_FOUND", {})
    assert manifest.tool_version("fftool") == "fftool version 6.1"
    assert manifest.known_tool_version("fftool") == "fftool version 6.1"


def test_a_run_with_no_video_asks_ffmpeg_nothing(tmp_path, monkeypatch):
    """run.json of a run with ``--no-video`` starts no ``ffmpeg -version`` (it decides
    nothing there, and a program started slows the end of a stopped run); a run with a
    video still names its ffmpeg."""
    from logo_bot.bot.recording.recording import Recording, RecordOptions
    from logo_bot.bot.recording.run_videos import Encoded
    from logo_bot.bot.recording.summary import build_summary

    tools, ran = tmp_path / "bin", tmp_path / "ran.txt"
    tools.mkdir()
    (tools / "ffmpeg").write_text(f"#!/bin/sh\necho x >> '{ran}'\necho 'ffmpeg version 9'\n")
    (tools / "ffmpeg").chmod(0o755)
    monkeypatch.setenv("PATH", str(tools))
    for video, version in ((False, None), (True, "ffmpeg version 9")):
        monkeypatch.setattr(manifest, "_FOUND", {})
        options = RecordOptions(tmp_path / f"runs-{video}", video=video)
        with Recording.start(options, "walkthrough", ["logo-bot"], None) as rec:
            run = build_summary(rec.state, "complete", None, Encoded())
        assert run["versions"]["ffmpeg"] == version
        assert ran.is_file() is video, "ffmpeg asked for its version" if not video else ""
