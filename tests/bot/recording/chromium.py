"""Headless Chromium driven over the DevTools protocol on a pipe, with the standard library
only: for the browser test of report.html.

Chromium started with ``--remote-debugging-pipe`` reads protocol messages on its file
descriptor 3 and writes on 4, each a JSON object ended by a NUL byte. It runs in its own
process group (it starts helpers: zygote, renderer, GPU), which is killed by its PID at
the end, so no helper is left behind.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

BINARY = "/usr/bin/chromium"


def find_chromium() -> str | None:
    return shutil.which("chromium") or (BINARY if os.path.exists(BINARY) else None)


class ProtocolError(RuntimeError):
    pass


class Chromium:
    def __init__(self, profile: Path, size: tuple[int, int] = (1280, 1400)) -> None:
        binary = find_chromium()
        if binary is None:
            raise ProtocolError("chromium is not installed (sudo apt-get install chromium)")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def pipes_at_3_and_4() -> None:
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        command = [
            binary, "--headless", "--no-sandbox", "--disable-gpu", "--mute-audio",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-dev-shm-usage",  # containers often have a tiny /dev/shm
            f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
            "--remote-debugging-pipe", "about:blank",
        ]  # fmt: skip
        self.log = profile.parent / "chromium.log"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                pass_fds=(3, 4),
                preexec_fn=pipes_at_3_and_4,
                start_new_session=True,  # its helpers in its group, killed with it
            )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    # -- the protocol ---------------------------------------------------------------------
    def send(self, method: str, timeout_s: float = 30, **params: Any) -> dict[str, Any]:
        """Send a command (to the page's session once attached) and wait for its answer."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self.session is not None and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout_s
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise ProtocolError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method: str, timeout_s: float = 30) -> dict[str, Any]:
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(index)
        deadline = time.monotonic() + timeout_s
        while True:
            event = self._read(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProtocolError(f"no answer from Chromium in time (see {self.log})")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise ProtocolError(f"Chromium closed its pipe (see {self.log})")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    # -- what a test does -----------------------------------------------------------------
    def open(self, url: str, timeout_s: float = 30) -> None:
        """Open ``url`` in a new page and wait for its load event."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.send("Page.enable")
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", timeout_s)

    def evaluate(self, expression: str, timeout_s: float = 30) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send(
            "Runtime.evaluate",
            timeout_s,
            expression=expression,
            awaitPromise=True,
            returnByValue=True,
        )
        if "exceptionDetails" in result:
            raise ProtocolError(f"JavaScript failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> Path:
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.write_bytes(base64.b64decode(data["data"]))
        return path

    def close(self) -> None:
        """Stop Chromium and every helper in its process group, by its PID."""
        try:
            if self.process.poll() is None:
                self.session = None
                with contextlib.suppress(ProtocolError, OSError):
                    self.send("Browser.close", timeout_s=5)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(5)
        finally:
            with contextlib.suppress(ProcessLookupError):  # helpers left behind, if any
                os.killpg(self.process.pid, signal.SIGKILL)
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            os.close(self._to_browser)
            os.close(self._from_browser)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
