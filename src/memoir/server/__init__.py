"""`memoir serve`: the HTTP app (OpenAI-compatible memory proxy, REST API) and the gRPC service over the façade."""

from memoir.server.app import create_app
from memoir.server.running import Endpoints, serve, serving

__all__ = ["Endpoints", "create_app", "serve", "serving"]
