"""What the bot sees of the game: one grabbed frame and lazy readings of it (the screen
shown, the level, target, board and cursor), and an ``Expectation`` a step waits for
(``bot.play.env``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

import numpy as np

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.play.time_spent import IDLE, TimeSpent
from logo_bot.bot.see.cell_sight import CellReading
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import Board, Cell

T = TypeVar("T")


class lazy(Generic[T]):
    """``functools.cached_property`` without the lock that Python 3.11's takes at every
    first read (an observation is read by the thread that made it; a second thread
    would only read the same value again): a few are read at every key."""

    def __init__(self, read: Callable[[Any], T]) -> None:
        self.read = read
        self.name = read.__name__
        self.__doc__ = read.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> lazy[T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...
    def __get__(self, obj: Any, owner: type | None = None) -> lazy[T] | T:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.read(obj)
        return value


@dataclass
class Observation:
    """One grabbed frame and lazy readings of it (each may raise ``Unreadable``); the time
    the readings take is ``reading`` in ``spent``."""

    frame: np.ndarray
    vision: Vision
    screens: ScreenReader | None = None
    at: float = field(default_factory=time.monotonic)
    spent: TimeSpent = field(default=IDLE, repr=False, compare=False)

    @lazy
    def screen(self) -> str | None:
        """The named screen shown (title, code, time_up, ...) when the profile can read text;
        None for any other picture (also one that is not the Fuse window at all)."""
        if not self.screens or not self.fits:
            return None
        with self.spent.on("reading"):
            return self.screens.which(self.frame)

    @lazy
    def fits(self) -> bool:
        """The frame has the size of the Fuse window at the vision's scale."""
        try:
            with self.spent.on("reading"):
                self.vision.check(self.frame)
        except Unreadable:
            return False
        return True

    def shows(self, name: str) -> bool:
        """Whether screen ``name`` is shown (its mark text), or a level for ``"level"``."""
        if name == "level":
            return self.level_shown
        if not (self.screens and self.fits):
            return False
        with self.spent.on("reading"):
            return bool(self.screens.shows(self.frame, name))

    def field(self, name: str) -> str:
        """A value on a screen (``[screens.fields]``); ``Unreadable`` without a font."""
        if self.screens is None:
            raise Unreadable(f"the {self.vision.profile.name} profile cannot read text")
        with self.spent.on("reading"):
            self.vision.check(self.frame)
            return self.screens.field(self.frame, name)

    @lazy
    def level_shown(self) -> bool:
        with self.spent.on("reading"):
            return self.vision.level_shown(self.frame)

    @lazy
    def target(self) -> Board:
        with self.spent.on("reading"):
            return self.vision.preview(self.frame)

    @lazy
    def board(self) -> Board:
        with self.spent.on("reading"):
            return self.vision.board(self.frame)

    @lazy
    def cursor(self) -> Cell:
        with self.spent.on("reading"):
            return self.vision.cursor(self.frame)


class Glimpse(Observation):
    """An observation of the level's cells as read where Fuse drew (``bot.see.cell_sight``):
    the level marker, the board and the cursor are the reading's, and the screen shown
    is read from the same pixels (``bot.see.marks``); the frame, and all else that is
    read from it, is looked at only when asked (``look``), so a little later than the
    reading (a recorder asks at once)."""

    def __init__(
        self,
        reading: CellReading,
        look: Callable[[], np.ndarray],
        vision: Vision,
        screens: ScreenReader | None = None,
        spent: TimeSpent = IDLE,
    ) -> None:
        self.reading = reading
        self._look = look
        self.vision = vision
        self.screens = screens
        self.at = time.monotonic()
        self.spent = spent

    @lazy
    def frame(self) -> np.ndarray:
        with self.spent.on("grab"):
            return self._look()

    @lazy
    def level_shown(self) -> bool:
        return self.reading.level_shown

    @lazy
    def screen(self) -> str | None:
        """Read from the reading's own pixels where they can say (the screen as it is now,
        a moment after the cells were read), at no look; else from the frame."""
        picture, screens = self.reading.picture, self.screens
        if picture is not None and screens is not None and screens.scale == self.vision.scale:
            try:
                with self.spent.on("reading"):
                    found = screens.which_packed(picture)
            except ValueError:  # the screen's memory was let go (Fuse restarted)
                found = None
            if found is not None:
                return found[0]
        return Observation.screen.read(self)

    @lazy
    def board(self) -> Board:
        return self.reading.board()

    @lazy
    def cursor(self) -> Cell:
        return self.reading.cursor()

    __eq__ = object.__eq__  # not by frames: that would look
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Glimpse(at={self.at:.3f}, reading={self.reading})"


Expectation = Callable[[Observation], bool]


@dataclass(frozen=True)
class ByCells:
    """An expectation that a wait asks of glimpses where it can (``LogoEnv.wait_for``):
    what it reads of the level's cells costs a few pixels, and the whole frame is looked
    at only when it asks for more (a screen's text, say)."""

    expect: Expectation

    def __call__(self, obs: Observation) -> bool:
        return self.expect(obs)


def holds(expect: Expectation, obs: Observation) -> bool:
    """``expect(obs)``, with an unreadable frame counting as not yet."""
    try:
        return bool(expect(obs))
    except Unreadable:
        return False
