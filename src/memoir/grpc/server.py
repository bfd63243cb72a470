"""`serve_grpc`: a running gRPC server for one open `Memoir`, with health, reflection and the API key check.

The server answers `memoir.v1.MemoirService` (`service.MemoirServicer`), the standard
health service `grpc.health.v1.Health` (SERVING for the server as a whole, "", and for
`memoir.v1.MemoirService`) and server reflection (`grpc.reflection.v1alpha`), so that
grpcurl or Postman list and call the services without the .proto. With an API key, every
RPC but the health service's must carry the metadata `authorization: Bearer <key>` (the
same rule, and the same constant-time comparison, as the HTTP server: `memoir.auth`),
reflection included, as `/openapi.json` is over HTTP; the health service stays open so a
load balancer or an orchestrator can probe the server without the key. Stopping the
server also ends its worker threads.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from memoir.auth import bearer_token, check_serving, key_matches
from memoir.errors import ConfigError
from memoir.facade.engine import Memoir
from memoir.grpc import memoir_pb2 as pb
from memoir.grpc import memoir_pb2_grpc as pb_grpc
from memoir.grpc.service import MemoirServicer

__all__ = ["SERVICE_NAME", "serve_grpc"]

log = logging.getLogger("memoir.grpc")

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["MemoirService"].full_name  # memoir.v1.MemoirService
_OPEN_PREFIX = "/grpc.health.v1.Health/"  # what a probe calls without a key
_REFUSAL = "a valid API key is required: send the metadata `authorization: Bearer <key>`"
# What reflection lists: memoir's service, the health service and reflection itself (grpcurl's `list`).
REFLECTED: tuple[str, ...] = (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME)
_WORKERS = 16  # concurrent RPCs; each holds a thread (SQLite work), health watches included


def serve_grpc(
    memoir: Memoir,
    host: str = "127.0.0.1",
    port: int = 50051,
    api_key: str | None = None,
    max_message_bytes: int = 10_000_000,
) -> grpc.Server:
    """Start a gRPC server for `memoir` on `host:port` (insecure: put TLS in front beyond loopback).

    Returns the started `grpc.Server`; the caller stops it with `server.stop(grace)` (whose
    event is set once the calls and the worker threads have ended) and still owns (and
    closes) `memoir`. The port it listens on is `server.bound_port`: with
    `port=0` the system picks a free one. A request over `max_message_bytes` ends
    RESOURCE_EXHAUSTED. Serving beyond loopback needs an `api_key` (`memoir.auth.check_serving`);
    a port that cannot be bound is a `ConfigError`.
    """
    check_serving(host, api_key)
    if type(max_message_bytes) is not int or max_message_bytes < 1:
        raise ConfigError(f"max_message_bytes: a positive number of bytes, got {max_message_bytes!r}")
    pool = ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="memoir-grpc")
    server = grpc.server(
        pool,
        interceptors=[] if api_key is None else [ApiKeyCheck(api_key)],
        options=[
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.so_reuseport", 0),  # else a second server binds a port in use and shares its calls
        ],
    )
    pb_grpc.add_MemoirServiceServicer_to_server(MemoirServicer(memoir), server)  # type: ignore[no-untyped-call]
    health_pb2_grpc.add_HealthServicer_to_server(_health(), server)
    reflection.enable_server_reflection(REFLECTED, server)
    _release_pool_on_stop(server, pool)
    try:
        server.bound_port = _bind(server, host, port)
    except ConfigError:
        server.stop(None)  # nothing was started, but its threads and its completion queue were made
        raise
    server.start()
    log.info("gRPC serving %s on %s:%d", SERVICE_NAME, host, server.bound_port)
    return server


def _release_pool_on_stop(server: Any, pool: ThreadPoolExecutor) -> None:
    """Make `server.stop` end the pool's threads too: grpc leaves them idle, alive, until the process ends."""
    stop = server.stop

    def stop_and_release(grace: float | None) -> threading.Event:
        stopped = stop(grace)
        released = threading.Event()

        def release() -> None:
            stopped.wait()  # no call left: each RPC's thread has answered (or was cancelled at the grace's end)
            pool.shutdown(wait=True, cancel_futures=True)
            released.set()

        if stopped.is_set():  # stop(None) cancels every call and returns once they are done
            release()
        else:
            threading.Thread(target=release, name="memoir-grpc-stop", daemon=True).start()
        return released

    server.stop = stop_and_release


def _health() -> health.HealthServicer:
    servicer = health.HealthServicer()
    for name in ("", SERVICE_NAME):
        servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return servicer


def _bind(server: Any, host: str, port: int) -> int:
    address = f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"
    try:
        bound: int = server.add_insecure_port(address)
    except RuntimeError:  # grpc raises when the port is taken or not allowed (older versions returned 0)
        bound = 0
    if not bound:
        raise ConfigError(f"port {port}: cannot listen on {address} (in use, or not allowed): choose another port")
    return bound


class ApiKeyCheck(grpc.ServerInterceptor):  # type: ignore[misc]  # grpc ships no type hints
    """Refuses RPCs without `authorization: Bearer <key>` (UNAUTHENTICATED), the health service excepted.

    The refusal never echoes what was sent, and the log line names the method only.
    """

    def __init__(self, api_key: str) -> None:
        self._api_key = api_key

    def intercept_service(self, continuation: Callable[[Any], Any], details: Any) -> Any:
        handler = continuation(details)
        if handler is None or details.method.startswith(_OPEN_PREFIX) or self._allowed(details):
            return handler  # None: an unknown method, which grpc answers UNIMPLEMENTED
        log.warning("gRPC %s refused: no valid API key", details.method)
        return _refusal(handler)

    def _allowed(self, details: Any) -> bool:
        headers = [value for key, value in details.invocation_metadata or () if key == "authorization"]
        token = bearer_token(headers[0]) if len(headers) == 1 and isinstance(headers[0], str) else None
        return key_matches(token, self._api_key)


def _refuse(request: Any, context: Any) -> None:
    context.abort(grpc.StatusCode.UNAUTHENTICATED, _REFUSAL)


# A refusal must have the handler's shape (unary or streaming each way), or grpc fails the call otherwise.
_HANDLER_BY_SHAPE = {
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}


def _refusal(handler: Any) -> Any:
    make = _HANDLER_BY_SHAPE[(bool(handler.request_streaming), bool(handler.response_streaming))]
    return make(_refuse)
