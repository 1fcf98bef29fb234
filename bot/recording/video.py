"""Writing frames to an MP4: ffmpeg (H.264) when installed, else OpenCV (MPEG-4 Part 2).

ffmpeg gets raw RGB frames on its standard input and writes H.264 in yuv420p with the
index at the front (+faststart), which every browser plays. OpenCV's pip wheels carry
no H.264 encoder, so the fallback tries ``avc1`` and then writes ``mp4v``, which VLC
and mpv play but most browsers do not; ``VideoWriter.codec`` says which it was.

A video is written under a temporary name (``partial``) and renamed to its own when it
is whole: a bot killed while it writes (SIGKILL) leaves ``video.mp4.part``, never a
``video.mp4`` that does not play.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import numpy as np

from logo_bot.bot import interrupts, processes
from logo_bot.bot.errors import VideoError, installed
from logo_bot.bot.frames import FRAME_RATE
from logo_bot.bot.fuse.log_tail import log_tail


def partial(path: Path) -> Path:
    """Where the video ``path`` is written until it is whole (ffmpeg's writer)."""
    return path.with_name(path.name + ".part")


def partial_opencv(path: Path) -> Path:
    """The same for OpenCV, which picks the container from the name's ending."""
    return path.with_name(f"{path.stem}.part{path.suffix}")


def leftovers(path: Path) -> list[Path]:
    """Every file that writing the video ``path`` makes besides it, for a forced end to
    remove: the partial videos and ffmpeg's log."""
    return [partial(path), partial_opencv(path), path.with_suffix(".ffmpeg.log")]


class VideoWriter:
    """Base class: ``write`` RGB frames of one size, then ``close``; counts frames.
    Frames go to ``partial``, renamed to ``path`` by a ``close`` that succeeds."""

    codec = "none"

    def __init__(self, path: Path, size: tuple[int, int], rate: Fraction) -> None:
        self.path = Path(path)
        self.partial = partial(self.path)
        self.size = size  # (width, height)
        self.rate = rate
        self.frames = 0

    def write(self, frame: np.ndarray) -> None:
        height, width = frame.shape[:2]
        if (width, height) != self.size:
            raise VideoError(
                f"frame is {width}x{height}, the video is {self.size[0]}x{self.size[1]}"
            )
        self._write(np.ascontiguousarray(frame, dtype=np.uint8))
        self.frames += 1

    def _write(self, frame: np.ndarray) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def discard(self) -> None:
        """Stop at once, leaving no file (the writing was interrupted)."""
        with contextlib.suppress(Exception):
            self._stop()
        self.partial.unlink(missing_ok=True)

    def _whole(self) -> None:
        """The video is whole: under its own name now."""
        os.replace(self.partial, self.path)

    def _stop(self) -> None:
        self.close()

    def __enter__(self) -> VideoWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FfmpegWriter(VideoWriter):
    codec = "h264"
    preset = "veryfast"

    def __init__(
        self, path: Path, size: tuple[int, int], rate: Fraction, zoom: int = 1, crf: int = 20
    ) -> None:
        super().__init__(path, size, rate)
        binary = installed("ffmpeg", "ffmpeg", VideoError)
        width, height = size
        command = [
            binary, "-y", "-loglevel", "error", "-nostdin",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
            "-framerate", f"{rate.numerator}/{rate.denominator}", "-i", "-",
            "-an", "-c:v", "libx264", "-preset", self.preset, "-crf", str(crf),
            "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4",
        ]  # fmt: skip
        if zoom > 1:
            command += ["-vf", f"scale={width * zoom}:{height * zoom}:flags=neighbor"]
        self._log = self.path.with_suffix(".ffmpeg.log")
        interrupts.hold_if_forcing()  # no file of ours appears beside a folder marked
        with open(self._log, "wb") as log:
            self._process = processes.start(
                [*command, str(self.partial)], stdin=subprocess.PIPE, stderr=log
            )

    def _write(self, frame: np.ndarray) -> None:
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(frame.tobytes())
        except BrokenPipeError:
            raise VideoError(f"ffmpeg stopped while writing {self.path}: {self._tail()}") from None

    def close(self) -> None:
        if self._process.stdin and not self._process.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self._process.stdin.close()
        code = self._process.wait()
        if code != 0:
            with contextlib.suppress(OSError):  # its log stays, and says why
                self.partial.unlink(missing_ok=True)
            raise VideoError(f"ffmpeg failed (exit {code}) writing {self.path}: {self._tail()}")
        self._whole()
        self._log.unlink(missing_ok=True)

    def _stop(self) -> None:
        self._process.kill()
        self._process.wait()
        if self._process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self._process.stdin.close()
        self._log.unlink(missing_ok=True)

    def _tail(self) -> str:
        return log_tail(self._log, unreadable="(no ffmpeg log)", empty="")


class OpenCvWriter(VideoWriter):
    def __init__(self, path: Path, size: tuple[int, int], rate: Fraction, zoom: int = 1) -> None:
        super().__init__(path, size, rate)
        self.partial = partial_opencv(self.path)
        try:
            import cv2
        except ImportError:
            raise VideoError(
                "neither ffmpeg nor OpenCV is installed, so no video can be written",
                hint="sudo apt-get install ffmpeg (or pip install opencv-python-headless)",
            ) from None
        self._cv2 = cv2
        self.zoom = zoom
        out = (size[0] * zoom, size[1] * zoom)
        for codec, fourcc in (("h264", "avc1"), ("mpeg4", "mp4v")):
            fourcc_code = cv2.VideoWriter.fourcc(*fourcc)
            writer = cv2.VideoWriter(str(self.partial), fourcc_code, float(rate), out)
            if writer.isOpened():
                self._writer, self.codec = writer, codec
                return
            writer.release()
        raise VideoError(f"OpenCV cannot write an MP4 video to {path}")

    def _write(self, frame: np.ndarray) -> None:
        if self.zoom > 1:
            frame = frame.repeat(self.zoom, axis=0).repeat(self.zoom, axis=1)
        self._writer.write(self._cv2.cvtColor(frame, self._cv2.COLOR_RGB2BGR))

    def close(self) -> None:
        self._writer.release()
        if self.partial.exists():
            self._whole()

    def _stop(self) -> None:
        self._writer.release()


def open_video(
    path: Path, size: tuple[int, int], rate: Fraction = FRAME_RATE, zoom: int = 1
) -> VideoWriter:
    """An MP4 writer: ffmpeg when it is on PATH, else OpenCV."""
    if shutil.which("ffmpeg"):
        return FfmpegWriter(path, size, rate, zoom)
    return OpenCvWriter(path, size, rate, zoom)


CHECK_EVERY = 50  # images between safe points (``interrupts.check``)


def write_video(
    path: Path, images: Iterable[np.ndarray], rate: Fraction = FRAME_RATE
) -> dict[str, object]:
    """Every image of ``images`` into an MP4 at ``path``, opened at the first one's size;
    what run.json says of it (``path``, ``frames``, ``codec``), or nothing without images.
    Every ``CHECK_EVERY`` images is a safe point: a stop there leaves no file."""
    writer: VideoWriter | None = None
    try:
        for image in images:
            if writer is None:
                writer = open_video(path, (image.shape[1], image.shape[0]), rate)
            writer.write(image)
            if writer.frames % CHECK_EVERY == 0:
                interrupts.check()
    except KeyboardInterrupt:  # a stop (``interrupts.check``): no half-written video is left
        if writer is not None:
            writer.discard()
        raise
    finally:
        close = getattr(images, "close", None)
        if close is not None:
            close()  # a generator's own files and programs (fmfconv) end now
    if writer is None:
        return {}
    writer.close()
    return {"path": path.name, "frames": writer.frames, "codec": writer.codec}


def probe(path: Path) -> dict[str, object]:
    """Codec, size, pixel format, frame rate and frame count of a video, read by ffprobe."""
    binary = installed("ffprobe", "ffmpeg", VideoError)
    entries = "stream=codec_name,width,height,pix_fmt,r_frame_rate,nb_read_frames"
    command = [binary, "-v", "error", "-select_streams", "v:0", "-count_frames"]
    command += ["-show_entries", entries, "-of", "json", str(path)]
    result = processes.run(command)
    streams = json.loads(result.stdout or "{}").get("streams") if result.returncode == 0 else None
    if not streams:
        raise VideoError(f"ffprobe cannot read {path}: {result.stderr.strip()}")
    stream = streams[0]
    stream["frames"] = int(stream.pop("nb_read_frames", 0))
    return stream
