import json
import tomllib
from pathlib import Path

import pytest

from bot.errors import ProfileError, UsageError
from bot.frames import FRAME_MS
from bot.profile import load_profile, show_config
from calibration import profile_names

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
    from bot.profile import with_probed_timing

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

    from bot.profile import load_raw

    data, _ = load_raw("practice")
    data["timing"]["repeat_delay_frames"] = value
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(ProfileError, match="repeat_delay_frames"):
        load_profile(str(path))
