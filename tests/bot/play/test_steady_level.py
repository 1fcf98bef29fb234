"""A level is steady once it shows and then Fuse draws nothing for a frame (its DAMAGE
reports say so): one look then, where with no reports it takes the same target read
twice a frame apart."""

from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.player import Player
from logo_bot.bot.profile import load_profile
from logo_bot.solvers.board import Board
from tests.bot.fake_game import FakeGame

PROFILE = load_profile("practice")
LEVEL = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
)


class LookedGame(FakeGame):
    """The fake game, counting the frames looked at, and answering ``drawn_within`` as a
    session would from its reports (``answers`` in turn; none: it has no such method)."""

    def __init__(self, answers: list[bool | None]) -> None:
        super().__init__(PROFILE, LEVEL)
        self.looks = 0
        self.answers = answers
        self.asked: list[float] = []

    def frame(self):
        self.looks += 1
        return super().frame()

    def drawn_within(self, seconds: float) -> bool | None:
        self.asked.append(seconds)
        return self.answers.pop(0)


def steady(game: FakeGame) -> Player:
    player = Player(LogoEnv(game, poll_s=0.0), PROFILE, settle_frames=2)
    obs = player.wait_level(timeout_s=5)
    assert obs.target == LEVEL
    return player


def test_a_level_nothing_is_drawn_on_after_is_steady_at_one_look():
    game = LookedGame([False])
    steady(game)
    assert game.looks == 1
    assert game.asked == [game.frame_s], "it waits one frame for a draw"


def test_a_level_drawn_on_is_read_again_a_frame_later():
    game = LookedGame([True])
    steady(game)
    assert game.looks == 2, "the same target twice: steady"


def test_without_reports_the_same_target_is_read_twice():
    game = LookedGame([None])
    steady(game)
    assert game.looks == 2


def test_a_console_that_cannot_say_is_polled_as_before():
    game = FakeGame(PROFILE, LEVEL)
    looks = []
    frame = game.frame
    game.frame = lambda: looks.append(1) or frame()
    steady(game)
    assert len(looks) == 2
