"""What a level's start costs: the level found steady on screen is played with no
further whole look; the check that it still shows before the first key is a glimpse."""

from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.player import Player
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.solvers.board import Board
from tests.bot.fake_game import FakeGame

PROFILE = load_profile("practice")
LEVEL = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
)


class Looks(LogoEnv):
    """The environment, counting whole looks (``observe``) apart from glimpses (which the
    fake game, having no picture watch, answers with a look of its own)."""

    looks = 0
    glimpses = 0

    def observe(self):
        self.looks += 1
        return super().observe()

    def _glimpse(self, timed=True):
        self.glimpses += 1
        return LogoEnv.observe(self)


def test_a_level_is_played_from_its_steady_look_with_glimpses_only():
    game = FakeGame(PROFILE, LEVEL)
    game.keys.timing = KeyTiming(0, 0, True)
    env = Looks(game, poll_s=0.0)
    player = Player(env, PROFILE, settle_frames=2)
    first = player.wait_level()
    env.looks = env.glimpses = 0
    report = player.play_level(first)
    assert game.done and report.end_board == LEVEL
    assert env.looks == 0, "no whole look once the level was found steady"
    assert env.glimpses > 0
