"""A pure-Python stand-in for the practice game's title and menu (game/src/menu.asm), with
lost and doubled key presses, for the menu driver's unit tests only."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

CODES = {"CUNEB": 51, "BAKED": 6}


@dataclass
class MenuObs:
    state: str
    start_level: int

    def shows(self, name: str) -> bool:
        return {
            "title": self.state == "title",
            "menu": self.state in ("menu", "code", "name"),
            "code_prompt": self.state == "code",
            "name_prompt": self.state == "name",
            "level": self.state == "level",
            "cursor_keys_chosen": self.state in ("menu", "code", "name") and self.control == 4,
        }.get(name, False)

    typed: str = ""
    places: int = 0
    control: int = 2  # the controls chosen with 1-4 (2: the keyboard, as the game starts)

    def field(self, name: str) -> str:
        if name == "menu_input":
            return (self.typed + "_" * (self.places - len(self.typed))).ljust(10)
        assert name == "menu_start_level"
        return f"{self.start_level:03d}"


@dataclass
class Result:
    obs: MenuObs
    met: bool


@dataclass
class FakeMenu:
    drop: float = 0.0
    double: float = 0.0
    seed: int = 0
    state: str = "title"
    start_level: int = 1
    control: int = 2
    typed: str = ""
    name: str = ""
    presses: int = 0
    notes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def key(self, key: str) -> None:
        self.presses += 1
        roll = self.rng.random()
        if roll < self.drop:
            return
        self.apply(key)
        if roll < self.drop + self.double:
            self.apply(key)

    def apply(self, key: str) -> None:
        ch = " " if key == "space" else key.upper()
        if self.state == "title" and key == "space":
            self.state = "menu"
        elif self.state == "menu" and key in ("1", "2", "3", "4"):
            self.control = int(key)
        elif self.state == "menu" and key == "6":
            self.state, self.typed = "code", ""
        elif self.state == "menu" and key == "7":
            self.state, self.name = "name", ""
        elif self.state in ("code", "name") and key == "delete":
            self.typed, self.name = self.typed[:-1], self.name[:-1]
        elif self.state == "code":
            if ch.isalpha() and len(ch) == 1:
                self.typed += ch
            if len(self.typed) == 5 or key == "enter":
                self.start_level = CODES.get(self.typed, self.start_level)
                self.state = "menu"
        elif self.state == "name":
            if key == "enter":
                self.state = "level"
            elif len(ch) == 1 and ch.isalnum() and len(self.name) < 10:
                self.name += ch

    # -- the environment interface --------------------------------------------------------
    def observe(self) -> MenuObs:
        if self.state == "code":
            return MenuObs(self.state, self.start_level, self.typed, 5, self.control)
        if self.state == "name":
            return MenuObs(self.state, self.start_level, self.name, 10, self.control)
        return MenuObs(self.state, self.start_level, control=self.control)

    def step(self, keys, expect=None, timeout_frames=6) -> Result:
        for key in keys:
            self.key(key)
        obs = self.observe()
        return Result(obs, True if expect is None else expect(obs))

    def wait_for(self, expect, timeout_frames):
        obs = self.observe()
        return obs, expect(obs)

    def note(self, event: str, **data: Any) -> None:
        self.notes.append((event, data))
