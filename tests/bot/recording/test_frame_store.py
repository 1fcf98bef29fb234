"""The frame store: every picture comes back as it was put (pictures whose pixels are
their number), and a picture equal to the one put just before is not written again."""

from __future__ import annotations

import numpy as np

from logo_bot.bot.recording.frame_store import FrameStore


def picture(number: int, shape: tuple[int, ...] = (6, 8, 3)) -> np.ndarray:
    pixels = np.full(shape, number, dtype=np.uint8)
    pixels[0, 0] = 255 - number  # not one flat colour: rows and columns must come back in place
    return pixels


def test_each_picture_comes_back_as_it_was_put(tmp_path):
    store = FrameStore(tmp_path / "frames.tmp")
    numbers = [3, 3, 4, 3, 5, 5, 5, 6]
    places = [store.put(picture(n)) for n in numbers]
    store.close()
    for number, place in zip(numbers, places, strict=True):
        assert np.array_equal(store.get(place), picture(number))
    assert places[0] == places[1] and places[4] == places[5] == places[6]
    assert len(set(places)) == 5, "3, 4, 3 again (not the one just before), 5 and 6"


def test_an_unchanged_picture_is_not_written_again(tmp_path):
    store = FrameStore(tmp_path / "frames.tmp")
    first = store.put(picture(1))
    assert store.put(picture(1).copy()) == first
    second = store.put(picture(2))
    assert second.offset == first.offset + first.length, "nothing written in between"
    store.close()
    assert store.path.stat().st_size == first.length + second.length


def test_pictures_of_another_size_keep_their_shape(tmp_path):
    store = FrameStore(tmp_path / "frames.tmp")
    small, large = store.put(picture(1)), store.put(picture(2, (24, 32, 3)))
    store.close()
    assert store.get(small).shape == (6, 8, 3) and store.get(large).shape == (24, 32, 3)


def test_the_file_exists_from_the_first_picture_until_removed(tmp_path):
    store = FrameStore(tmp_path / "frames.tmp")
    assert not store.path.exists()
    store.put(picture(1))
    store.close()
    assert store.path.exists()
    store.remove()
    assert not store.path.exists()
    store.remove()  # twice, or never written: no error
