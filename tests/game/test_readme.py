"""game/README.md documents every position of game/layout.toml: keep them in step."""

from pathlib import Path

from game.layout import load_layout

README = (Path(__file__).resolve().parents[2] / "game" / "README.md").read_text()
LAYOUT = load_layout()


def test_every_field_is_documented_where_it_is():
    for name, f in LAYOUT.fields.items():
        assert f"| {name} | {f.row} | {f.col} | {f.width} | {f.style} |" in README, name


def test_every_message_is_documented_where_it_is():
    for name, t in LAYOUT.messages.items():
        assert f"| {name} | {t.row} | {t.col} | `{t.text}` |" in README, name


def test_every_screen_text_is_documented_where_it_is():
    for name, texts in LAYOUT.screens.items():
        line = f"- **{name}**: " + "; ".join(f"({t.row},{t.col}) `{t.text}`" for t in texts)
        assert line in README, name


def test_timings_in_the_readme_are_the_layout_ones():
    timing = LAYOUT.timing
    assert f"TIME = {timing['base_seconds']} + {timing['seconds_per_stone']} x" in README
    assert f"for {timing['code_screen_frames']} frames" in README
    assert f"for {timing['time_up_frames']} frames" in README
    assert f"level for {timing['game_over_frames']} frames" in README
    assert f"{timing['transition_frames']} frames (1 s) after" in README
