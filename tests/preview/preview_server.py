"""Running `pnp preview` as a designer runs it: a process on a free local port, stopped with
Ctrl-C (SIGINT)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from conftest import CTRL_C_REACHES


class PreviewProcess:
    """``pnp preview GAME --port 0`` in a subprocess; :attr:`url` is the address it printed."""

    def __init__(self, game: Path, *args: str, cwd: Path | None = None, timeout: float = 90.0):
        self.proc = subprocess.Popen([sys.executable, "-m", "pnp", "preview", str(game), "--port", "0", *args],
                                     cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "COLUMNS": "200"}, **CTRL_C_REACHES)
        self.lines: list[str] = []
        self._ready = threading.Event()
        self.url = ""
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(timeout) or not self.url:
            self.stop()
            raise AssertionError("pnp preview did not start:\n" + "".join(self.lines))

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if found and not self.url:
                self.url = found.group(0)
                self._ready.set()
        self._ready.set()

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=30) as resp:
            return resp.read()

    def state(self) -> dict:
        return json.loads(self.get("state.json"))

    def wait_state(self, test, timeout: float = 60.0) -> dict:
        """The first state (polled) for which ``test(state)`` holds."""
        end = time.monotonic() + timeout
        while True:
            state = self.state()
            if test(state):
                return state
            if time.monotonic() > end:
                raise AssertionError(f"timed out; last state: {json.dumps(state)[:3000]}")
            time.sleep(0.05)

    def stop(self) -> int:
        """Ctrl-C, as a designer stops it; its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def __enter__(self) -> "PreviewProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
