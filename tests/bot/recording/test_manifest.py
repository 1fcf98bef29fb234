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
