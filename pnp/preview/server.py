"""The preview's web server: Starlette routes served by uvicorn on one local port.

Routes (docs/preview.md): ``/`` the page, ``/static/NAME`` its script and style sheet,
``/state.json`` what it shows (:meth:`PreviewSession.state`), ``/events`` the same state pushed
as a server-sent event ``state`` after every change, and ``/img/KEY.png`` a piece's image
(drawn on first request, then cached; the key is a content hash, so the image never goes
stale and the browser may keep it).

Three threads besides the server's: the watcher reads the game again after each saved change
and tells the page; the checker runs the dry run of ``pnp check`` in a worker process whenever
the game changed since its last run, and tells the page what it found.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import socket
import threading
import webbrowser
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Callable

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .session import PreviewSession, check_in_background
from .watch import changes, watched_folders

STATIC = Path(__file__).resolve().parent / "static"
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".css": "text/css; charset=utf-8"}
KEEP_ALIVE_S = 15.0
"""Seconds between comments on an idle event stream, so that proxies and browsers keep it open."""


class Broadcaster:
    """Wakes every open event stream when the session's version changes (from any thread)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.event: asyncio.Event | None = None
        self.closed = False
        """Set when the server stops: open streams end, so that it stops at once."""

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop, self.event = loop, asyncio.Event()

    def notify(self) -> None:
        """Safe from any thread."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._notify)

    def close(self) -> None:
        """End every open stream (safe from any thread)."""
        self.closed = True
        self.notify()

    def _notify(self) -> None:
        event, self.event = self.event, asyncio.Event()
        event.set()


class Checker:
    """Runs the dry run of ``pnp check`` in one worker process whenever :meth:`request` was
    called since the last run started, and hands each result to the session."""

    def __init__(self, session: PreviewSession, notify: Callable[[], None]):
        self.session = session
        self.notify = notify
        self._wanted = threading.Event()
        self._stop = threading.Event()
        self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        self._thread = threading.Thread(target=self._run, name="pnp-preview-check", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def request(self) -> None:
        self._wanted.set()

    def stop(self) -> None:
        self._stop.set()
        self._wanted.set()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _run(self) -> None:
        while True:
            self._wanted.wait()
            if self._stop.is_set():
                return
            self._wanted.clear()
            self.session.start_check()
            self.notify()
            try:
                result = self._pool.submit(check_in_background, self.session.check_job(),
                                           self.session.rulebook_key).result()
            except Exception:  # the pool was shut down, or the worker died: nothing to show
                if self._stop.is_set():
                    return
                result = None
            self.session.apply_check(result)
            self.notify()


class Watcher:
    """Reads the game again after each batch of saved changes, then wakes the page and asks the
    checker for a new dry run."""

    def __init__(self, session: PreviewSession, on_change: Callable[[], None], ignore: list[Path]):
        self.session = session
        self.on_change = on_change
        self.ignore = ignore
        self._stop = threading.Event()
        self.folders = watched_folders([session.source])
        self._thread = threading.Thread(target=self._run, name="pnp-preview-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        for _ in changes(self.folders, self.ignore, stop_event=self._stop):
            self.session.refresh()
            self.on_change()


def make_app(session: PreviewSession, *, watch: bool = True, check: bool = True, output: Path | None = None,
             on_start: Callable[[], None] | None = None) -> Starlette:
    """The preview application of ``session``: with ``watch``, following its game folder; with
    ``check``, running the dry run of ``pnp check`` at start and after every change.
    ``output`` (the build folder) is not watched. ``on_start`` runs once the server listens."""
    broadcaster = Broadcaster()
    checker = Checker(session, broadcaster.notify) if check else None

    def changed() -> None:
        broadcaster.notify()
        if checker is not None:
            checker.request()

    watcher = Watcher(session, changed, [output] if output else []) if watch else None

    @asynccontextmanager
    async def lifespan(app):
        broadcaster.bind(asyncio.get_running_loop())
        for part in (checker, watcher):
            if part is not None:
                part.start()
        if checker is not None:
            checker.request()
        if on_start is not None:
            on_start()
        try:
            yield
        finally:
            for part in (watcher, checker):
                if part is not None:
                    part.stop()

    async def page(request: Request) -> Response:
        return _static("index.html")

    async def static(request: Request) -> Response:
        return _static(request.path_params["name"])

    async def state(request: Request) -> Response:
        return JSONResponse(session.state(), headers={"Cache-Control": "no-store"})

    async def image(request: Request) -> Response:
        loop = asyncio.get_running_loop()
        png = await loop.run_in_executor(None, session.png, request.path_params["key"])
        if png is None:
            return Response("no such image", status_code=404, media_type="text/plain")
        return Response(png, media_type="image/png", headers={"Cache-Control": "public, max-age=31536000, immutable"})

    async def events(request: Request) -> Response:
        async def stream():
            sent = None
            while not broadcaster.closed:
                wake = broadcaster.event
                if session.version != sent:
                    current = session.state()
                    sent = current["version"]
                    yield f"event: state\ndata: {json.dumps(current, separators=(',', ':'))}\n\n"
                    continue
                try:
                    await asyncio.wait_for(wake.wait(), KEEP_ALIVE_S)
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    app = Starlette(routes=[
        Route("/", page), Route("/static/{name}", static), Route("/state.json", state),
        Route("/events", events), Route("/img/{key}.png", image),
    ], lifespan=lifespan)
    app.state.broadcaster = broadcaster
    return app


class _Server(uvicorn.Server):
    """uvicorn's server, ending the page's event streams as soon as it is asked to stop (they
    would otherwise hold it open until the graceful-shutdown time runs out)."""

    def __init__(self, config: uvicorn.Config, broadcaster: Broadcaster):
        super().__init__(config)
        self.broadcaster = broadcaster

    def handle_exit(self, sig, frame) -> None:
        self.broadcaster.close()
        super().handle_exit(sig, frame)


def _static(name: str) -> Response:
    path = STATIC / name
    kind = STATIC_TYPES.get(path.suffix)
    if kind is None or path.parent != STATIC or not path.is_file():
        return Response("not found", status_code=404, media_type="text/plain")
    return Response(path.read_bytes(), media_type=kind, headers={"Cache-Control": "no-cache"})


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port the system picks)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


def url_of(sock: socket.socket) -> str:
    """The page's address on ``sock``."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(session: PreviewSession, sock: socket.socket, *, open_browser: bool = False,
          output: Path | None = None, watch: bool = True) -> None:
    """Serve ``session`` on ``sock`` until interrupted (Ctrl-C, SIGTERM), then return."""
    url = url_of(sock)

    def started() -> None:
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    app = make_app(session, watch=watch, output=output, on_start=started)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    try:
        _Server(config, app.state.broadcaster).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped
        pass
