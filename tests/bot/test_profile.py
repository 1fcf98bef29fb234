import json
import tomllib
from pathlib import Path

import pytest

from logo_bot.bot.errors import ProfileError, UsageError
from logo_bot.bot.frames import FRAME_MS
from logo_bot.bot.profile import load_profile, show_config
from logo_bot.calibration import profile_names

REPO = Path(__file__).resolve().parents[2]


def test_bundled_profiles_load():
    assert "practice" in profile_names()
    for name in profile_names():
        profile = load_profile(name)
        assert profile.geometry.board.rows == 6 and profile.geometry.board.cols == 10


def test_overrides_are_typed_and_checked():
    profile = load_profile("practice", ["keys.up=w", "timing.settle_frames=5", "keys.wrap=true"])
    assert (profile.keys.up, profile.timing.settle_frames, profile.keys.wrap) == ("w", 5, True)
    with pytest.raises(UsageError, match="no such setting"):
        load_profile("practice", ["keys.jump=x"])
    with pytest.raises(UsageError, match="no settings table 'nope'"):
        load_profile("practice", ["nope.x=1"])
    with pytest.raises(UsageError, match=r"key\.path=value"):
        load_profile("practice", ["keys.up"])
    with pytest.raises(UsageError, match="not a value this setting takes") as info:
        load_profile("practice", ["timing.settle_frames=[1]"])
    assert info.value.exit_code == 2


@pytest.mark.parametrize("text", ['"false"', "False", "0", "no"])
def test_a_flag_takes_only_true_or_false(text):
    """The string "false" used to become True (bool of a non-empty string)."""
    with pytest.raises(UsageError, match="give true or false"):
        load_profile("practice", [f"keys.wrap={text}"])
    assert load_profile("practice", ["keys.wrap=false"]).keys.wrap is False


def test_a_flag_in_the_profile_file_must_be_a_toml_boolean(tmp_path):
    text = (REPO / "calibration/practice/profile.toml").read_text()
    bad = tmp_path / "p.toml"
    bad.write_text(text.replace("wrap = false", 'wrap = "false"'))
    with pytest.raises(ProfileError, match=r"keys\.wrap must be true or false") as info:
        load_profile(str(bad))
    assert info.value.exit_code == 3


def test_a_string_setting_takes_the_text_as_written():
    profile = load_profile("practice", ["keys.up=1", 'start.name="A B"'])
    assert profile.keys.up == "1" and profile.data["start"]["name"] == "A B"


def test_an_empty_table_and_the_codes_table_take_new_entries():
    """What calibration/logo-part1/profile.toml tells people with the real tape to do."""
    profile = load_profile("logo-part1", ["codes.6=ABCDE", "codes.11=fghij"])
    assert profile.data["codes"] == {"6": "ABCDE", "11": "fghij"}
    assert load_profile("practice", ["codes.6=WORDS"]).data["codes"]["6"] == "WORDS"
    with pytest.raises(UsageError, match="no such setting"):
        load_profile("practice", ["keys.jump=x"])


def test_show_config_is_toml_equal_to_the_merged_settings():
    profile = load_profile("practice", ["keys.left=k"])
    assert tomllib.loads(show_config(profile)) == profile.data


@pytest.mark.parametrize("name", ["a\nb", 'quote " and \\', "tab\there", "\x01\x7f", "é ü"])
def test_show_config_round_trips_any_text(name):
    """run.json's settings are read back from this TOML: control characters included."""
    profile = load_profile("practice", [f"start.name={json.dumps(name)}"])
    assert tomllib.loads(show_config(profile))["start"]["name"] == name


def test_unknown_profile_lists_the_known_ones(tmp_path):
    with pytest.raises(ProfileError, match="no calibration profile called 'zx81'") as info:
        load_profile("zx81")
    assert "practice" in str(info.value)
    bad = tmp_path / "p.toml"
    bad.write_text("name = [")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(str(bad))


def test_timing_picks_the_highest_listed_speed_not_above():
    timing = load_profile("practice").timing
    assert timing.for_speed(100) == (35, 35)
    assert timing.for_speed(150) == (35, 35)
    assert timing.for_speed(300) == (25, 25)
    assert timing.rollover and not load_profile("logo-part1").timing.rollover
    assert not load_profile("practice", ["timing.rollover=false"]).timing.rollover


def test_a_probed_timing_is_kept_as_a_profile_that_needs_no_probe(tmp_path):
    from logo_bot.bot.profile import with_probed_timing

    profile = load_profile("logo-part1")
    assert profile.timing.probe is True
    text = with_probed_timing(profile, 200, 4.5, 3.5, True, (12.0, 6.0), "in a test")
    saved = tmp_path / "mine.toml"
    saved.write_text(text)
    kept = load_profile(str(saved))
    assert kept.timing.probe is False and kept.timing.rollover is True
    frame_ms = FRAME_MS / 2  # at 200 %
    assert kept.timing.for_speed(200) == (round(4.5 * frame_ms, 1), round(3.5 * frame_ms, 1))
    assert kept.timing.for_speed(100) == profile.timing.for_speed(100)  # not scaled
    assert (kept.timing.repeat_delay_frames, kept.timing.repeat_every_frames) == (12.0, 6.0)
    assert kept.keys == profile.keys and kept.start == profile.start


@pytest.mark.parametrize("value", [0, -3, True, "x"])
def test_repeat_frames_must_be_a_positive_number(tmp_path, value):
    import tomli_w

    from logo_bot.bot.profile_toml import load_raw

    data, _ = load_raw("practice")
    data["timing"]["repeat_delay_frames"] = value
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(ProfileError, match="repeat_delay_frames"):
        load_profile(str(path))


@pytest.mark.parametrize("key", ["six", "0", "101", "200", "-1", "²"])
def test_a_code_for_no_level_of_the_game_is_a_usage_error_naming_the_key(key):
    """--set codes.six=WORD was a ValueError traceback (exit 1), and codes.200 was kept."""
    with pytest.raises(UsageError) as info:
        load_profile("practice", [f"codes.{key}=WORD"])
    assert info.value.exit_code == 2
    assert info.value.message == (
        f"--set codes.{key}: a code's key is the level it starts, 1 to 100, not {key!r}"
    )
    assert info.value.hint == "e.g. --set codes.6=WORD"


def test_the_levels_a_code_may_start_follow_the_games_level_count():
    assert load_profile("practice", ["codes.100=WORD"]).data["codes"] == {"100": "WORD"}
    profile = load_profile("practice", ["codes.150=WORD", "game.level_count=150"])
    assert profile.level_count == 150 and profile.data["codes"] == {"150": "WORD"}
    with pytest.raises(UsageError, match="1 to 20, not '21'"):
        load_profile("practice", ["game.level_count=20", "codes.21=WORD"])


def profile_file(tmp_path: Path, change) -> str:
    """The practice profile as a file, with ``change(data)`` made to it."""
    import tomli_w

    from logo_bot.bot.profile_toml import load_raw

    data, _ = load_raw("practice")
    change(data)
    path = tmp_path / "p.toml"
    path.write_text(tomli_w.dumps(data))
    return str(path)


def test_a_bad_code_or_level_count_in_the_file_is_a_profile_error(tmp_path):
    path = profile_file(tmp_path, lambda d: d["codes"].update({"six": "WORD"}))
    with pytest.raises(ProfileError, match=r"\[codes\] six: a code's key is the level") as info:
        load_profile(path)
    assert info.value.exit_code == 3
    path = profile_file(tmp_path, lambda d: d.update(codes="WORD"))
    with pytest.raises(ProfileError, match="codes must be a table"):
        load_profile(path)
    path = profile_file(tmp_path, lambda d: d["game"].update(level_count="many"))
    with pytest.raises(ProfileError, match="level_count must be a whole number above 0"):
        load_profile(path)


def test_an_empty_profile_names_every_missing_table_and_points_to_an_example(tmp_path):
    """It said only "KeyError('geometry')"."""
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    with pytest.raises(ProfileError) as info:
        load_profile(str(empty))
    assert info.value.exit_code == 3
    assert info.value.message == (
        f"the profile {empty} has no name, [game], [geometry], [palette], [values], [keys], "
        "[timing], [start]"
    )
    assert info.value.hint is not None
    assert "calibration/practice/profile.toml" in info.value.hint


def test_a_profile_missing_some_settings_names_each(tmp_path):
    def change(data):
        del data["geometry"]["board"]["cell"], data["keys"]["wrap"], data["palette"]
        data["start"] = "go"

    with pytest.raises(ProfileError) as info:
        load_profile(profile_file(tmp_path, change))
    assert info.value.message.endswith(
        "has no geometry.board.cell, [palette], keys.wrap, start.sequence, start.code, "
        "start.loaded_wait, start.name"
    )
