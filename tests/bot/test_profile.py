import tomllib

import pytest

from bot.profile import ProfileError, load_profile, show_config
from calibration import profile_names


def test_bundled_profiles_load():
    assert "practice" in profile_names()
    for name in profile_names():
        profile = load_profile(name)
        assert profile.geometry.board.rows == 6 and profile.geometry.board.cols == 10


def test_overrides_are_typed_and_checked():
    profile = load_profile("practice", ["keys.up=w", "timing.settle_frames=5", "keys.wrap=true"])
    assert (profile.keys.up, profile.timing.settle_frames, profile.keys.wrap) == ("w", 5, True)
    with pytest.raises(ProfileError, match="no such setting"):
        load_profile("practice", ["keys.jump=x"])
    with pytest.raises(ProfileError, match="no settings table 'nope'"):
        load_profile("practice", ["nope.x=1"])
    with pytest.raises(ProfileError, match=r"key\.path=value"):
        load_profile("practice", ["keys.up"])
    with pytest.raises(ProfileError, match="incomplete or wrong"):
        load_profile("practice", ["timing.settle_frames=[1]"])


def test_show_config_is_toml_equal_to_the_merged_settings():
    profile = load_profile("practice", ["keys.left=k"])
    assert tomllib.loads(show_config(profile)) == profile.data


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
