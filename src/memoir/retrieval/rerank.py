"""Rerankers: score (query, passage) pairs with a cross-encoder. Optional.

No package on the registry ships cross-encoder weights, so memoir takes the model
from configuration (`search.rerank`):
- `none` (default): the stage is skipped.
- `http`: a `/v1/rerank` endpoint in the Jina/Cohere/TEI/llama.cpp shape
  (`{"model", "query", "documents"}` -> `{"results": [{"index", "relevance_score"}]}`).
- `onnx`: a local cross-encoder exported to ONNX (such as ms-marco-MiniLM-L-6-v2), given
  by `search.rerank_model` with its `tokenizer.json` beside it; relevance = sigmoid(logit).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from memoir.errors import ConfigError, ModelUnavailable, no_answer
from memoir.http import model_client
from memoir.registry import Providers

__all__ = ["RERANKERS", "HTTPReranker", "ONNXReranker", "Reranker"]


class Reranker(Protocol):
    name: str

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """Relevance of each passage to the query, in [0, 1]."""
        ...


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class HTTPReranker:
    def __init__(self, *, url: str, model: str = "", api_key: str | None = None, timeout: float = 10.0) -> None:
        if not url:
            raise ConfigError("search.rerank_url is required when search.rerank = 'http'")
        self.name = f"http:{url}"
        self.model = model
        self._client = model_client(api_key=api_key, timeout=timeout)
        self._url = url

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        import httpx

        if not passages:
            return []
        body: dict[str, Any] = {"query": query, "documents": list(passages)}
        if self.model:
            body["model"] = self.model
        try:
            response = self._client.post(self._url, json=body)
        except httpx.HTTPError as exc:
            where = f"the rerank server at {self._url}"
            raise ModelUnavailable(no_answer(where, exc, "start it or set its URL")) from None
        if response.status_code != 200:
            raise ModelUnavailable(f"rerank server answered {response.status_code}: {response.text[:300]}")
        try:
            results = response.json()["results"]
            scores = [0.0] * len(passages)
            for result in results:
                value = float(result.get("relevance_score", result.get("score")))
                # Servers differ: some send probabilities, some raw logits.
                scores[int(result["index"])] = value if 0.0 <= value <= 1.0 else _sigmoid(value)
            return scores
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise ModelUnavailable(f"rerank server sent an answer that is not /v1/rerank JSON: {exc}") from None


class ONNXReranker:
    def __init__(self, model_path: Path, *, threads: int = 2, max_tokens: int = 512) -> None:
        tokenizer_path = model_path.with_name("tokenizer.json")
        for path, what in ((model_path, "cross-encoder model"), (tokenizer_path, "cross-encoder tokenizer")):
            if not path.is_file():
                raise ModelUnavailable(
                    f"the {what} {path} does not exist: export a cross-encoder to ONNX there "
                    "(with its tokenizer.json beside it), or set search.rerank = 'none'"
                )
        import onnxruntime
        from tokenizers import Tokenizer

        self.name = f"onnx:{model_path.name}"
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        self._session = onnxruntime.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(max_tokens)
        self._tokenizer.enable_padding()

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        encoded = self._tokenizer.encode_batch([(query, p) for p in passages])
        feeds = {
            "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
        }
        logits = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
        return [_sigmoid(float(x)) for x in np.asarray(logits).reshape(len(passages), -1)[:, 0]]


# `search.rerank` picks one of these; a user's reranker registers the same way.
RERANKERS: Providers[Reranker | None] = Providers("search.rerank")
RERANKERS.register("none", lambda settings: None)
RERANKERS.register("http", lambda s: HTTPReranker(url=s.search.rerank_url or "", model=s.search.rerank_model or ""))
RERANKERS.register("onnx", lambda s: ONNXReranker(Path(s.search.rerank_model or "cross-encoder.onnx").expanduser()))
