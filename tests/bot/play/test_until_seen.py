"""Keys held until the screen shows them (``timing.until_seen``), against fake games on
virtual time: one that sees a key only at its own looks at the keys, now and then."""

import pytest

from logo_bot.bot.errors import LevelFailed
from logo_bot.bot.play.env import LogoEnv, when_seen
from logo_bot.bot.play.player import Player
from logo_bot.bot.x11.keys import KeyTiming
from tests.bot.fake_game import FakeGame, FakeKeys
from tests.bot.play.test_player import LEVEL_2, LOOK_AFTER, PROFILE, CountingEnv


class PolledKeys(FakeKeys):
    """Keys that reach the game only at its looks at the keyboard."""

    def _send(self, key: str, down: bool) -> bool:
        game = self.game
        if down:
            self.sent.append(key)
            game.down = (key, game.clock())
        else:
            game.look_at_keys()
            game.down = None
        return True


class PolledGame(FakeGame):
    """Looks at the keys every ``poll_s`` (on the clock): a key down at a look counts once;
    a press and release between two looks is lost, as in Fuse between two frames."""

    def __init__(self, *args, poll_s: float, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.poll_s = poll_s
        self.frame_s = poll_s
        self.keys = PolledKeys(self)
        self.down: tuple[str, float] | None = None
        self.taken: tuple[str, float] | None = None  # the press already counted
        self.holds: list[float] = []  # how long each key was down when the game took it

    def look_at_keys(self) -> None:
        down = self.down
        if down is None or down == self.taken:
            return
        key, since = down
        if int(self.clock() / self.poll_s) > int(since / self.poll_s):  # a look came
            self.taken = down
            self.holds.append(self.clock() - since)
            self.key(key)

    def frame(self):
        self.look_at_keys()
        return super().frame()


def polled(clock, profile, hold_ms: float) -> tuple[PolledGame, CountingEnv]:
    game = PolledGame(profile, LEVEL_2, poll_s=0.02, clock=clock.monotonic)
    game.keys.timing = KeyTiming(hold_ms, hold_ms, True)
    return game, CountingEnv(game, poll_s=0.005)


def test_keys_held_until_seen_are_never_lost(clock):
    """However late the game's look at the keys comes, a key held until the screen shows
    it is taken: no correction, each key pressed once, each burst one step."""
    game, env = polled(clock, PROFILE, hold_ms=5)
    report = Player(env, PROFILE, settle_frames=2).play_level()
    assert report.end_board == LEVEL_2 and not report.corrections
    assert report.keys_sent == report.planned_presses == len(game.keys.sent) == game.presses
    assert not getattr(env, "bursts", []), "every burst was held until seen"
    assert len(env.seen_bursts) == 1, "the whole level is one burst"
    assert max(game.holds) <= 0.02 + 0.003, "let go at the game's first look after it"


@pytest.mark.slow  # seconds of a simulated game: the whole suite's
def test_the_same_game_loses_keys_held_for_a_fixed_time_too_short(clock):
    """The other way round (the test above can fail): a fixed 15 ms hold against looks
    every 20 ms loses presses, which the player then corrects."""
    game, env = polled(clock, LOOK_AFTER, hold_ms=15)
    report = Player(env, LOOK_AFTER, settle_frames=2, max_corrections=400).play_level()
    assert report.end_board == LEVEL_2
    assert sum(report.corrections.values()) > 0
    assert len(game.keys.sent) > game.presses


def test_a_lost_press_ends_its_burst_and_is_corrected(clock):
    """A press the game never takes is held to the longest, let go, and the rest of its
    burst is not pressed; the player reads the screen and goes on."""
    game = FakeGame(PROFILE, LEVEL_2, drop=0.15, seed=4, clock=clock.monotonic)
    game.keys.timing = KeyTiming(0, 0, True)
    env = CountingEnv(game, poll_s=0.0)
    report = Player(env, PROFILE, settle_frames=2).play_level()
    assert report.end_board == LEVEL_2 and game.dropped > 0
    assert sum(report.corrections.values()) > 0
    assert report.keys_sent == len(game.keys.sent), "keys not pressed are not counted"
    assert sum(len(keys) for keys in env.seen_bursts) == len(game.keys.sent)


class LosesPresses(FakeGame):
    """Takes every press but the ``lost`` ones (their numbers, counting from 1)."""

    def __init__(self, *args, lost: set[int], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lost, self.downs = lost, 0

    def key(self, name: str) -> None:
        self.downs += 1
        if self.downs not in self.lost:
            super().key(name)


@pytest.mark.parametrize("kind", ["move", "act"])
def test_a_level_is_one_burst_until_a_key_goes_unseen_and_the_next_goes_on_from_there(clock, kind):
    """Held until seen, the rest of a level goes as one burst; a key the game never takes
    ends it (the rest not pressed), the player reads the screen, and one more burst from
    there finishes the level: a move is made again from the cell read, an act pressed
    again."""
    clean = FakeGame(PROFILE, LEVEL_2, clock=clock.monotonic)
    clean.keys.timing = KeyTiming(0, 0, True)
    env = CountingEnv(clean, poll_s=0.0)
    Player(env, PROFILE, settle_frames=2).play_level()
    (first,) = env.seen_bursts
    act = first.index("space", first.index("space") + 1)  # the second stone's
    lost = act if kind == "act" else act - 1  # or the move onto its cell
    game = LosesPresses(PROFILE, LEVEL_2, clock=clock.monotonic, lost={lost + 1})
    game.keys.timing = KeyTiming(0, 0, True)
    env = CountingEnv(game, poll_s=0.0)
    report = Player(env, PROFILE, settle_frames=2).play_level()
    assert report.end_board == LEVEL_2 and game.board == LEVEL_2
    assert len(env.seen_bursts) == 2
    assert env.seen_bursts[0] == first[: lost + 1], "the burst ends with the unseen key"
    again = {first[lost], PROFILE.keys.other(first[lost])}  # a move: either of its keys
    assert env.seen_bursts[1][0] in again, "the next burst presses it again"
    assert report.keys_sent == report.planned_presses + 1 == len(game.keys.sent)
    assert report.corrections == {"cursor" if kind == "move" else "lost_action": 1}


def test_moves_lost_at_several_stones_count_one_miss_each_from_the_last_stone_placed(clock):
    """A level fails for moves not seen only when ``max_corrections`` of them come with no
    stone placed in between: a move lost on the way to each of four stones, with
    ``max_corrections=2``, still finishes the level, one cursor correction each."""
    clean = FakeGame(PROFILE, LEVEL_2, clock=clock.monotonic)
    clean.keys.timing = KeyTiming(0, 0, True)
    env = CountingEnv(clean, poll_s=0.0)
    Player(env, PROFILE, settle_frames=2).play_level()
    (first,) = env.seen_bursts
    acts = [i for i, key in enumerate(first) if key == "space"]
    # the move onto stones 2-5, numbered as pressed: each lost one is pressed again
    lost = {acts[k] + k - 1 for k in range(1, 5)}
    game = LosesPresses(PROFILE, LEVEL_2, clock=clock.monotonic, lost=lost)
    game.keys.timing = KeyTiming(0, 0, True)
    env = CountingEnv(game, poll_s=0.0)
    report = Player(env, PROFILE, settle_frames=2, max_corrections=2).play_level()
    assert report.end_board == LEVEL_2 and game.board == LEVEL_2
    assert len(env.seen_bursts) == 5
    assert report.corrections == {"cursor": 4}


def test_a_cursor_that_stops_moving_fails_the_level_after_max_corrections_misses(clock):
    """The other way round: when no move is taken any more, the level fails at the
    miss after ``max_corrections`` with no stone placed since."""
    clean = FakeGame(PROFILE, LEVEL_2, clock=clock.monotonic)
    clean.keys.timing = KeyTiming(0, 0, True)
    env = CountingEnv(clean, poll_s=0.0)
    Player(env, PROFILE, settle_frames=2).play_level()
    (first,) = env.seen_bursts
    second = [i for i, key in enumerate(first) if key == "space"][1]
    game = LosesPresses(PROFILE, LEVEL_2, clock=clock.monotonic, lost=set(range(second, 10**4)))
    game.keys.timing = KeyTiming(0, 0, True)
    env = CountingEnv(game, poll_s=0.0)
    with pytest.raises(LevelFailed, match="the cursor would not reach"):
        Player(env, PROFILE, settle_frames=2, max_corrections=2).play_level()
    assert len(env.seen_bursts) == 3, "each ends on a move not seen; the third is too many"


def test_a_game_that_repeats_a_held_key_soon_is_not_played_until_seen():
    player = Player(LogoEnv(FakeGame(PROFILE, LEVEL_2)), PROFILE, settle_frames=2)
    assert player.until_seen and player.seen_frames == 6
    player.repeat = (12, 4)  # the longest hold stays short of the first repeat
    assert player.until_seen and player.seen_frames == 6
    player.repeat = (4, 2)
    assert player.until_seen and player.seen_frames == 3
    player.repeat = (2, 2)
    assert not player.until_seen


def test_when_seen_calls_its_hook_once_a_key_is_seen_and_never_before():
    calls = []
    expects = [lambda obs: obs > 1, lambda obs: obs > 2]
    watching = when_seen(expects, lambda i, obs: calls.append((i, obs)))
    assert [watching[0](1), watching[0](2), watching[1](2), watching[1](3)] == [
        False,
        True,
        False,
        True,
    ]
    assert calls == [(0, 2), (1, 3)]
