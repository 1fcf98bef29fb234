"""Drawing what the bot read on top of a frame (calibration and failure pictures)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.see.vision import Vision

ZOOM = 2  # annotated pictures are drawn at 2x of the 1x window, whatever the frame's scale
OK, BAD, CURSOR, NOTE = (0, 255, 255), (255, 64, 64), (255, 255, 255), (255, 255, 0)


def annotate(frame: np.ndarray, vision: Vision, notes: list[str] | None = None) -> Image.Image:
    """The frame (resized to 2x) with every cell outlined and labelled with its reading."""
    g = vision.geometry
    w, h = g.window
    readings: dict[str, object] = {}
    for name, reader in (
        ("target", vision.preview),
        ("board", vision.board),
        ("cursor", vision.cursor),
    ):
        try:
            readings[name] = reader(frame)
        except Unreadable as exc:
            readings[name] = exc
    lines = list(notes or []) + [
        f"{name}: {value.reason}"
        for name, value in readings.items()
        if isinstance(value, Unreadable)
    ]
    base = Image.fromarray(frame).resize((w * ZOOM, h * ZOOM), Image.Resampling.NEAREST)
    image = Image.new("RGB", (w * ZOOM, h * ZOOM + 12 * len(lines) + 4), (0, 0, 0))
    image.paste(base, (0, 0))
    draw = ImageDraw.Draw(image)
    for grid, name in ((g.preview, "target"), (g.board, "board")):
        value = readings[name]
        for row in range(1, grid.rows + 1):
            for col in range(1, grid.cols + 1):
                x, y = grid.cell_origin(row, col)
                box = (x * ZOOM, y * ZOOM, (x + grid.cell) * ZOOM - 1, (y + grid.cell) * ZOOM - 1)
                if isinstance(value, Unreadable):
                    colour = BAD if value.cell == (row, col) else (90, 90, 90)
                    draw.rectangle(box, outline=colour)
                    continue
                draw.rectangle(box, outline=OK)
                stone = value[(row, col)]  # type: ignore[index]
                if stone:
                    draw.text((box[0] + 2, box[1]), str(stone), fill=NOTE)
    cursor = readings["cursor"]
    if not isinstance(cursor, Unreadable):
        x, y = g.board.cell_origin(*cursor)  # type: ignore[misc]
        size = g.board.cell * ZOOM
        draw.rectangle(
            (x * ZOOM - 2, y * ZOOM - 2, x * ZOOM + size + 1, y * ZOOM + size + 1),
            outline=CURSOR,
            width=2,
        )
    for i, line in enumerate(lines):
        bad = i >= len(notes or [])
        draw.text((4, h * ZOOM + 2 + 12 * i), line, fill=BAD if bad else NOTE)
    return image


def save_annotated(
    path: Path, frame: np.ndarray, vision: Vision, notes: list[str] | None = None
) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    annotate(frame, vision, notes).save(path)
    return path
