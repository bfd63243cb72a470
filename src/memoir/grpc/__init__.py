"""memoir over gRPC (`memoir.v1.MemoirService`, defined in `memoir.proto`): a thin adapter over `Memoir`.

`serve_grpc(memoir, host, port, api_key=...)` starts a server and returns it; the RPCs,
their messages and their errors are described in `memoir.proto`. The generated modules
(`memoir_pb2`, `memoir_pb2_grpc`) are committed; `python -m memoir.grpc.generate`
regenerates them after an edit of the proto. A client uses them directly:

    channel = grpc.insecure_channel("127.0.0.1:50051")
    stub = memoir_pb2_grpc.MemoirServiceStub(channel)
    stub.Search(memoir_pb2.SearchRequest(query="tides"))
"""

from __future__ import annotations

from memoir.grpc.server import SERVICE_NAME, serve_grpc
from memoir.grpc.service import MemoirServicer

__all__ = ["SERVICE_NAME", "MemoirServicer", "serve_grpc"]
