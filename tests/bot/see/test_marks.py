"""The screen marks compared at once name the same screen as reading each mark's text."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.profile import TextSpot, load_profile
from logo_bot.bot.see.marks import MarkSet
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.see.text import SCREEN
from logo_bot.bot.x11.framebuffer_watch import Sighting
from tests.bot.see.test_cell_sight import Screen

FIXTURES = Path(__file__).parent / "fixtures"
PROFILE = load_profile("practice", [])
MARKS = PROFILE.screens.marks
PAPER = (0, 0, 0)


def read_as_text(reader: ScreenReader, frame: np.ndarray) -> str | None:
    """The screen as the text reading names it: the first mark whose text reads there."""
    for name, spot in MARKS.items():
        if reader.text_at(frame, spot) == spot.text:
            return name
    return None


def blank(scale: int, colour=PAPER) -> np.ndarray:
    w, h = PROFILE.geometry.window
    frame = np.zeros((h * scale, w * scale, 3), dtype=np.uint8)
    frame[:] = colour
    return frame


def write(frame: np.ndarray, scale: int, spot: TextSpot, text: str, ink=(255, 255, 0)) -> None:
    """``text`` written from ``spot`` in the profile's font, every pixel at ``scale``, on
    the profile's paper."""
    font = ScreenReader(PROFILE, scale).reader.font
    top, left = (SCREEN[1] + 8 * spot.row) * scale, (SCREEN[0] + 8 * spot.col) * scale
    frame[top : top + 8 * scale, left : left + 8 * len(text) * scale] = PROFILE.paper
    for i, ch in enumerate(text):
        for y, bits in enumerate(font.glyphs[ch]):
            for x in range(8):
                if bits >> (7 - x) & 1:
                    top = (SCREEN[1] + 8 * spot.row + y) * scale
                    left = (SCREEN[0] + 8 * (spot.col + i) + x) * scale
                    frame[top : top + scale, left : left + scale] = ink


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.png")), ids=lambda p: p.stem)
def test_the_fixtures_name_the_screen_the_texts_name(path):
    frame = np.asarray(Image.open(path).convert("RGB"))
    scale = next(int(part[0]) for part in path.stem.split("_") if part.endswith("x"))
    reader = ScreenReader(PROFILE, scale)
    assert reader.which(frame) == read_as_text(reader, frame)
    for name in MARKS:
        assert reader.shows(frame, name) == (reader.text_at(frame, MARKS[name]) == MARKS[name].text)


@pytest.mark.parametrize("scale", [1, 2, 3])
@pytest.mark.parametrize("name", list(MARKS))
def test_each_mark_written_is_named_and_a_pixel_less_is_not(name, scale):
    reader = ScreenReader(PROFILE, scale)
    spot = MARKS[name]
    frame = blank(scale)
    write(frame, scale, spot, spot.text)
    assert reader.which(frame) == read_as_text(reader, frame) == name
    assert reader.shows(frame, name)
    # one ink pixel of the last character taken away, where the text reading samples it
    ink = np.argwhere((frame != 0).any(axis=2))
    y, x = max(ink.tolist(), key=lambda p: (p[1], p[0]))
    top, left = y - y % scale + scale // 2, x - x % scale + scale // 2
    frame[top, left] = PAPER
    assert reader.which(frame) == read_as_text(reader, frame)
    assert reader.which(frame) != name
    assert not reader.shows(frame, name)


def test_an_earlier_mark_wins_and_noise_names_what_the_texts_name():
    reader = ScreenReader(PROFILE, 1)
    frame = blank(1)
    names = list(MARKS)
    first, later = names[0], names[2]
    write(frame, 1, MARKS[later], MARKS[later].text)
    write(frame, 1, MARKS[first], MARKS[first].text)
    assert reader.which(frame) == first
    rng = np.random.default_rng(7)
    for _ in range(200):
        noisy = frame.copy()
        spots = rng.integers(0, noisy.shape[0] * noisy.shape[1], size=int(rng.integers(1, 40)))
        noisy.reshape(-1, 3)[spots] = rng.integers(0, 256, size=(len(spots), 3))
        assert reader.which(noisy) == read_as_text(reader, noisy)


def test_a_mark_the_font_cannot_write_is_read_as_text():
    reader = ScreenReader(PROFILE, 1).reader
    marks = {"odd": TextSpot(3, 4, "A?B"), "wide": TextSpot(5, 4, "AB", width=4)}
    frame = blank(1)
    write(frame, 1, marks["odd"], "AB", ink=(255, 255, 255))
    write(frame, 1, marks["wide"], "AB")
    mark_set = MarkSet(reader, marks)
    assert mark_set.which(frame) is None  # "A B" and "AB  " are not the texts
    assert not mark_set.shows(frame, "wide")


def test_a_frame_too_small_fails_as_the_text_reading_does():
    reader = ScreenReader(PROFILE, 1)
    frame = blank(1)[:40, :40]
    with pytest.raises(ValueError):
        read_as_text(reader, frame)
    with pytest.raises(ValueError):
        reader.which(frame)


def packed(frame: np.ndarray, left: int = 3, top: int = 5, more: int = 7, high=0x77) -> Sighting:
    """``frame`` on a screen of packed pixels, with ``high`` bits above each colour, as the
    watch's sighting gives it."""
    height, width = frame.shape[:2]
    screen = Screen.around(frame, left, top, more, high)
    return Sighting(screen.pixels, screen.stride, left, top, width, height, None)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.png")), ids=lambda p: p.stem)
def test_packed_pixels_name_the_screen_a_frame_names(path):
    frame = np.asarray(Image.open(path).convert("RGB"))
    scale = next(int(part[0]) for part in path.stem.split("_") if part.endswith("x"))
    reader = ScreenReader(PROFILE, scale)
    for high in (0, 0x77):
        assert reader.which_packed(packed(frame, high=high)) == (reader.which(frame),)


@pytest.mark.parametrize("scale", [1, 2])
def test_each_mark_written_is_named_from_packed_pixels_and_a_pixel_less_is_not(scale):
    reader = ScreenReader(PROFILE, scale)
    rng = np.random.default_rng(scale)
    for name, spot in MARKS.items():
        frame = blank(scale)
        write(frame, scale, spot, spot.text)
        assert reader.which_packed(packed(frame, left=int(rng.integers(0, 9)))) == (name,)
        ink = np.argwhere((frame != 0).any(axis=2))
        y, x = ink[int(rng.integers(len(ink)))]
        frame[y - y % scale + scale // 2, x - x % scale + scale // 2] = PAPER
        assert reader.which_packed(packed(frame)) == (reader.which(frame),)
        assert reader.which_packed(packed(frame)) != (name,)


def test_packed_pixels_cannot_say_for_a_mark_read_as_text_or_a_small_picture():
    reader = ScreenReader(PROFILE, 1).reader
    odd = MarkSet(reader, {"odd": TextSpot(3, 4, "A?B"), **MARKS})
    assert odd.which_packed(packed(blank(1))) is None
    assert MarkSet(reader, MARKS).which_packed(packed(blank(1)[:40, :40])) is None
    assert MarkSet(reader, {}).which_packed(packed(blank(1))) == (None,)


def test_a_read_of_the_pixels_the_last_read_went_by_compares_no_ink(monkeypatch):
    marks = MarkSet(ScreenReader(PROFILE, 1).reader, MARKS)
    compared = []
    inked = marks._packed_ink
    monkeypatch.setattr(marks, "_packed_ink", lambda values: compared.append(1) or inked(values))
    frame = blank(1)
    frame[150:160, 40:200] = (0, 200, 0)  # drawn where no mark is read
    assert marks.which_packed(packed(frame)) == (None,)
    assert compared
    name, spot = list(MARKS.items())[2]
    write(frame, 1, spot, spot.text)
    assert marks.which_packed(packed(frame)) == (name,)
    compared.clear()
    frame[100:110, 60:120] = (200, 0, 0)  # drawn again, where no mark is read
    assert marks.which_packed(packed(frame)) == (name,)
    assert not compared


def test_each_mark_is_named_as_it_comes_and_goes_between_reads():
    marks = MarkSet(ScreenReader(PROFILE, 1).reader, MARKS)
    rng = np.random.default_rng(3)
    frame = blank(1)
    for _ in range(3):
        for name, spot in MARKS.items():
            assert marks.which_packed(packed(frame)) == (None,)
            written = frame.copy()
            write(written, 1, spot, spot.text)
            assert marks.which_packed(packed(written)) == (name,)
            # a pixel of the text (not of its first character) away, then back
            y, x = [int(v) for v in rng.choice(np.argwhere((written != frame).any(axis=2)))]
            if x >= (SCREEN[0] + 8 * (spot.col + 1)):
                kept = written[y, x].copy()
                written[y, x] = PAPER
                assert marks.which_packed(packed(written)) == (None,)
                written[y, x] = kept
                assert marks.which_packed(packed(written)) == (name,)


def test_a_read_that_found_a_first_character_is_compared_again():
    marks = MarkSet(ScreenReader(PROFILE, 1).reader, MARKS)
    name, spot = next(iter(MARKS.items()))
    frame = blank(1)
    write(frame, 1, spot, spot.text[0])  # only the first character
    assert marks.which_packed(packed(frame)) == (None,)
    write(frame, 1, spot, spot.text)
    assert marks.which_packed(packed(frame)) == (name,)
