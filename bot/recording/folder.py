"""Run folders: their names and files, finding one by name, and listing them."""

from __future__ import annotations

import errno
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from logo_bot.bot.errors import InputError, UsageError
from logo_bot.bot.installation import checkout_root
from logo_bot.bot.recording.events import being_written

TIME_FORMAT = "%Y%m%dT%H%M%SZ"


def default_root() -> Path:
    """Where runs go unless ``--runs-dir`` says: ``$LOGO_BOT_RECORDINGS``; else, in a
    checkout, its ``recordings/``; else the user's data folder
    (``$XDG_DATA_HOME/logo-bot/recordings``, by default ``~/.local/share/...``)."""
    if os.environ.get("LOGO_BOT_RECORDINGS"):
        return Path(os.environ["LOGO_BOT_RECORDINGS"])
    checkout = checkout_root()
    if checkout is not None:
        return checkout / "recordings"
    import platformdirs

    return platformdirs.user_data_path("logo-bot") / "recordings"


def make_root(root: Path) -> None:
    """The folder of the run folders, made when missing; ``NotADirectoryError`` saying so
    when it, or a folder above it, is a file ("File exists" would not)."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        file = next((p for p in (root, *root.parents) if p.is_file()), None)
        if file is None:
            raise
        said = "it is a file, not a folder" if file == root else f"{file} is a file, not a folder"
        raise NotADirectoryError(errno.ENOTDIR, said, str(root)) from None


@dataclass(frozen=True)
class RunFolder:
    """The files of one run (see recordings/README.md)."""

    path: Path

    @classmethod
    def create(cls, root: Path, mode: str, when: datetime | None = None) -> RunFolder:
        """A new, empty folder ``<UTC time>-<mode>`` under ``root``."""
        stamp = (when or datetime.now(UTC)).strftime(TIME_FORMAT)
        make_root(root)
        name = f"{stamp}-{mode}"
        for n in range(2, 1000):
            try:
                (root / name).mkdir()
                return cls(root / name)
            except FileExistsError:
                name = f"{stamp}-{mode}-{n}"
        raise UsageError(f"too many runs named {stamp}-{mode} in {root}")

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def run_json(self) -> Path:
        return self.path / "run.json"

    @property
    def events(self) -> Path:
        return self.path / "events.jsonl"

    @property
    def log(self) -> Path:
        return self.path / "run.log"

    @property
    def video(self) -> Path:
        return self.path / "video.mp4"

    @property
    def annotated(self) -> Path:
        return self.path / "annotated.mp4"

    @property
    def rzx(self) -> Path:
        """The first segment's input recording; later segments are run-2.rzx, ..."""
        return self.path / "run.rzx"

    @property
    def movie(self) -> Path:
        """Fuse's movie of the first segment (movie-2.fmf, ... for later ones); deleted
        once the video is written."""
        return self.path / "movie.fmf"

    @property
    def failures(self) -> Path:
        return self.path / "failures"

    def level_dir(self, level: int) -> Path:
        return self.path / "levels" / f"{level:03d}"

    @property
    def state(self) -> str:
        """``finished`` (its run.json is the last), ``running`` (its writer is alive and
        has not written its last run.json yet: none, or the one written as play ended,
        which says ``writing``) or ``killed`` (its writer died first: SIGKILL, a crash, a
        power cut; events.jsonl, run.log and Fuse's files are left, and the first
        run.json when it died writing the video)."""
        if self.run_json.is_file() and not self.writing:
            return "finished"
        return "running" if being_written(self.events) else "killed"

    @property
    def writing(self) -> bool:
        """Whether run.json is the one written as play ended (``"writing": true``), not
        yet followed by the one written after the video and the report."""
        try:
            return json.loads(self.run_json.read_text()).get("writing") is True
        except (OSError, ValueError, AttributeError):
            return False

    def read(self) -> dict:
        """The run's ``run.json``; ``InputError`` when it is missing or unreadable."""
        try:
            return json.loads(self.run_json.read_text())
        except FileNotFoundError:
            raise InputError(
                f"{self.path} has no run.json: the run is {self.state}",
                hint=f"'logo-bot report {self.path}' shows what its events.jsonl holds",
            ) from None
        except (OSError, ValueError) as exc:
            raise InputError(
                f"cannot read {self.run_json}: {exc}",
                hint="the file is damaged: 'logo-bot report RUN' reads what its events.jsonl "
                "holds, and a new run writes a new one",
            ) from None


def is_run(path: Path) -> bool:
    """Whether ``path`` is a run folder: it has a run.json, or (a run in progress or
    killed) at least its events.jsonl."""
    return path.is_dir() and ((path / "run.json").is_file() or (path / "events.jsonl").is_file())


def list_runs(root: Path) -> list[RunFolder]:
    """Every run folder under ``root`` (finished, running or killed), oldest first."""
    if not root.is_dir():
        return []
    return [RunFolder(p) for p in sorted(root.iterdir()) if is_run(p)]


def find_run(spec: str, root: Path) -> RunFolder:
    """A run given as a folder path, a folder name under ``root``, or ``last``."""
    if spec == "last":
        runs = list_runs(root)
        if not runs:
            raise UsageError(f"no recorded runs in {root}", hint="run logo-bot walkthrough first")
        return runs[-1]
    for candidate in (Path(spec), root / spec):
        if candidate.is_dir():
            if not is_run(candidate):
                raise UsageError(
                    f"{candidate} is not a run folder (it has neither run.json nor events.jsonl)"
                )
            return RunFolder(candidate)
    matches = [r for r in list_runs(root) if r.name.startswith(spec)] if spec else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(
            f"{spec!r} is ambiguous: {len(matches)} runs in {root} begin with it: "
            + ", ".join(r.name for r in matches),
            hint="give more of the name, so that one run begins with it",
        )
    names = ", ".join(r.name for r in list_runs(root)[-3:]) or "none yet"
    raise UsageError(
        f"no run {spec!r} (neither a folder nor a run in {root})",
        hint=f"give a folder, a name from 'logo-bot runs' or 'last' (latest: {names})",
    )
