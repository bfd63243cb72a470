"""Running `memoir serve`: the HTTP app under uvicorn and the gRPC service, started and stopped together.

`serve` runs in the foreground until SIGINT or SIGTERM (the CLI); `serving` runs the same
on a background thread and yields where it listens (tests, benchmarks, programs that
embed a server). Sockets are bound before anything starts, so port 0 picks a free port
and a busy port fails at once with a message naming it.

Shutting down finishes what was acknowledged: the HTTP server stops accepting, lets
requests in flight complete (up to `GRACE_SECONDS`; a stream cut then is stored as
partial), gRPC gets the same grace, and the fast lane is drained so every acknowledged
event is searchable next time. The model's work stays in the outbox, replayed at the
next start.
"""

from __future__ import annotations

import errno
import logging
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn

from memoir.auth import check_serving
from memoir.blas import use_one_blas_thread
from memoir.errors import ConfigError, RuntimeFailure
from memoir.facade.engine import Memoir
from memoir.server.app import create_app
from memoir.server.deadlines import HeaderDeadline

__all__ = ["Endpoints", "serve", "serving"]

GRACE_SECONDS = 10
log = logging.getLogger("memoir.server")


@dataclass(frozen=True)
class Endpoints:
    host: str
    port: int
    grpc_port: int | None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def serve(
    memoir: Memoir,
    host: str = "127.0.0.1",
    port: int = 8765,
    grpc_port: int | None = 50051,
    *,
    ready: Callable[[Endpoints], None] | None = None,
) -> None:
    """Serve until Ctrl-C or SIGTERM (a second one stops at once); `ready` is told where once both listen.

    Call it from the main thread: it takes SIGINT and SIGTERM for the time it serves.
    """
    stopping = threading.Event()
    with _running(memoir, host, port, grpc_port, drain=True) as (where, server):

        def on_signal(signum: int, frame: object) -> None:
            if stopping.is_set():
                server.force_exit = True  # a second Ctrl-C: do not wait for requests in flight
            stopping.set()

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            if ready is not None:
                ready(where)
            while not stopping.wait(0.5):
                pass
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


@contextmanager
def serving(
    memoir: Memoir, host: str = "127.0.0.1", port: int = 0, grpc_port: int | None = None
) -> Iterator[Endpoints]:
    """The server on a background thread for the `with` block; port 0 picks a free port."""
    with _running(memoir, host, port, grpc_port, drain=False) as (where, _):
        yield where


@contextmanager
def _running(
    memoir: Memoir, host: str, port: int, grpc_port: int | None, *, drain: bool
) -> Iterator[tuple[Endpoints, uvicorn.Server]]:
    # uvicorn runs on a thread of its own, so it leaves signals alone: `serve` owns them.
    check_serving(host, memoir.settings.api_key)
    use_one_blas_thread()  # concurrent requests: spinning BLAS threads only take CPU (decision 70)
    http_socket = _bind(host, port, "--port")
    try:
        grpc_server, bound_grpc = _start_grpc(memoir, host, grpc_port)
    except BaseException:
        http_socket.close()
        raise
    server = _uvicorn(memoir, http_socket)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [http_socket]}, daemon=True)
    thread.start()
    try:
        _wait_started(server)
        yield Endpoints(host, http_socket.getsockname()[1], bound_grpc), server
    finally:
        server.should_exit = True
        thread.join(GRACE_SECONDS + 5)
        _stop(memoir, grpc_server, http_socket, drain=drain)


def _uvicorn(memoir: Memoir, http_socket: socket.socket) -> uvicorn.Server:
    config = uvicorn.Config(
        create_app(memoir),
        log_level="warning",
        access_log=False,  # memoir's own access log (memoir.access) leaves keys and query strings out
        timeout_graceful_shutdown=GRACE_SECONDS,
        lifespan="on",
        http=HeaderDeadline,  # a request's headers have HEADER_SECONDS to arrive (slowloris)
    )
    return uvicorn.Server(config)


def _bind(host: str, port: int, option: str) -> socket.socket:
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(f"{option} {port}: a TCP port is 0-65535 (0: any free port)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP by name: asyncio sets TCP_NODELAY only on sockets that say so, and without it
    # Nagle's algorithm and delayed ACKs add 40 ms to every small answer.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"{option} {port}: the port is in use; stop what listens there or pick another") from None
        raise ConfigError(f"--host {host}: cannot listen there ({exc.strerror})") from None
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def _start_grpc(memoir: Memoir, host: str, port: int | None) -> tuple[Any, int | None]:
    if port is None:
        return None, None
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(f"--grpc-port {port}: a TCP port is 0-65535 (0: any free port)")
    from memoir.grpc import serve_grpc  # imported here: the gRPC stack loads only when it serves

    server = serve_grpc(
        memoir, host, port, api_key=memoir.settings.api_key, max_message_bytes=memoir.settings.server.max_body_bytes
    )
    return server, server.bound_port


def _wait_started(server: uvicorn.Server, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeFailure("the HTTP server did not start within 30 s")
        time.sleep(0.01)


def _stop(memoir: Memoir, grpc_server: Any, http_socket: socket.socket, *, drain: bool = True) -> None:
    if grpc_server is not None:
        grpc_server.stop(GRACE_SECONDS).wait(GRACE_SECONDS + 1)
    http_socket.close()
    if drain:  # what was acknowledged is searchable at the next start; the model's work waits in the outbox
        try:
            memoir.flush(GRACE_SECONDS, lanes=["fast"])
        except RuntimeFailure as exc:
            print(f"memoir: the fast lane was not drained at shutdown ({exc})", file=sys.stderr)
