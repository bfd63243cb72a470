"""The gRPC interface: a real server on loopback, a real channel and the generated stub.

Every RPC is called with real data (the example conversation of the README, summarized
into a timeline), and its answer compared with what the façade itself returns: the
adapter adds nothing and loses nothing. Errors arrive as statuses by class, with the
field in the details and in the trailing metadata; scopes hold across agents; the API
key guards every RPC but the health service; hostile requests end INVALID_ARGUMENT (or
NOT_FOUND), never INTERNAL; the committed generated modules match the proto.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pool, message_factory
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memoir import Memoir
from memoir.errors import ConfigError, EventNotFound, InvalidQuery, ModelUnavailable, StoreError, WorkerError
from memoir.grpc import SERVICE_NAME, serve_grpc
from memoir.grpc import memoir_pb2 as pb
from memoir.grpc import memoir_pb2_grpc as pb_grpc
from memoir.grpc.convert import event_message, grip_context_message, node_message
from memoir.grpc.generate import GENERATED, generate
from memoir.grpc.service import status_of

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversation.jsonl"
EVENTS = [json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()]
KEY = "k3y-" + "0123456789abcdef" * 2
CHANNEL_OPTIONS = [("grpc.enable_http_proxy", 0)]  # a developer's HTTP proxy must not see loopback calls
HOSTILE = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@contextmanager
def serving(memoir: Memoir, **options: Any) -> Iterator[pb_grpc.MemoirServiceStub]:
    """A server for `memoir` on a free loopback port, and a stub connected to it."""
    server = serve_grpc(memoir, port=0, **options)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.bound_port}", options=CHANNEL_OPTIONS)
    try:
        yield pb_grpc.MemoirServiceStub(channel)
    finally:
        channel.close()
        server.stop(None).wait()


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir(embedding_provider="hashing")  # no model to load: these tests are about the interface


@pytest.fixture
def stub(memoir: Memoir) -> Iterator[pb_grpc.MemoirServiceStub]:
    with serving(memoir) as connected:
        yield connected


def as_message(data: dict[str, Any]) -> pb.Event:
    """An example line as a client builds it, independently of memoir's own converters."""
    fields = {name: data[name] for name in ("event_id", "session_id", "text", "conversation_id") if name in data}
    return pb.Event(
        event_type=pb.EventType.Value("EVENT_TYPE_" + data["event_type"].upper()),
        timestamp_ms=ms_of(data["timestamp"]),
        metadata=data.get("metadata", {}),
        **fields,
    )


def ms_of(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp() * 1000)


def refused(call: Callable[[], Any]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def trailer(error: grpc.RpcError) -> dict[str, str]:
    return dict(error.trailing_metadata() or ())


def assert_invalid(error: grpc.RpcError, field: str) -> None:
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT, (error.code(), error.details())
    assert f"{field}:" in error.details() and trailer(error)["memoir-field"] == field, (error.details(), trailer(error))


# -- the generated code ---------------------------------------------------------------------------


def test_the_committed_generated_modules_match_the_proto(tmp_path: Path) -> None:
    generate(tmp_path)
    committed = Path(pb.__file__).parent
    stale = [name for name in GENERATED if (tmp_path / name).read_bytes() != (committed / name).read_bytes()]
    assert not stale, f"run `python -m memoir.grpc.generate`: {stale} differ from memoir.proto"


# -- every RPC with real data ---------------------------------------------------------------------


@pytest.fixture
def example(memoir: Memoir, stub: pb_grpc.MemoirServiceStub) -> pb_grpc.MemoirServiceStub:
    """The example conversation ingested over gRPC, indexed and summarized into a timeline."""
    answer = stub.IngestEvents(pb.IngestEventsRequest(events=[as_message(e) for e in EVENTS]))
    assert list(answer.event_ids) == [e["event_id"] for e in EVENTS]
    assert memoir.flush(timeout=60)  # March 2026 is long quiet: segments are closed, summarized, rolled up
    return stub


def test_ingest_is_idempotent_and_a_conflicting_retry_names_event_id(memoir: Memoir) -> None:
    with serving(memoir) as stub:
        sent = pb.Event(session_id="s1", event_type=pb.EVENT_TYPE_USER_MESSAGE, text="The tide turns at six.")
        first = stub.IngestEvent(pb.IngestEventRequest(event=sent)).event_id
        sent.event_id = first
        sent.timestamp_ms = memoir.get_event(first).timestamp_ms
        assert stub.IngestEvent(pb.IngestEventRequest(event=sent)).event_id == first  # a retry
        assert len(memoir.events()) == 1
        sent.text = "The tide turns at seven."
        error = refused(lambda: stub.IngestEvent(pb.IngestEventRequest(event=sent)))
        assert_invalid(error, "event_id")
        assert trailer(error)["memoir-error"] == "InvalidEvent"
        assert memoir.get_event(first).text == "The tide turns at six."
        # what is left out is filled as for any caller: the request's conversation, the typical role
        bare = pb.Event(session_id="s2", event_type=pb.EVENT_TYPE_TOOL_RESULT, text="42")
        stored = stub.IngestEvent(pb.IngestEventRequest(event=bare, conversation_id="tides")).event_id
        assert (memoir.get_event(stored).conversation_id, memoir.get_event(stored).role.value) == ("tides", "tool")
        assert_invalid(refused(lambda: stub.IngestEvent(pb.IngestEventRequest())), "event")


def test_events_page_with_the_cursor_and_come_back_as_stored(memoir: Memoir, example: Any) -> None:
    seen: list[pb.Event] = []
    request = pb.GetEventsRequest(limit=10, conversation_id="lighthouse")
    while True:
        page = example.GetEvents(request)
        seen.extend(page.events)
        if not page.HasField("next_cursor"):
            break
        request.cursor = page.next_cursor
    assert [e.event_id for e in seen] == [e["event_id"] for e in EVENTS]
    assert seen == [event_message(e) for e in memoir.events(limit=1000)]
    one = example.GetEvent(pb.GetEventRequest(event_id=EVENTS[1]["event_id"].lower())).event  # ids read loosely
    assert (one.text, one.metadata["speaker"], one.role) == (EVENTS[1]["text"], "Sam", pb.EVENT_ROLE_USER)
    assert one.timestamp_ms == ms_of(EVENTS[1]["timestamp"])
    window = example.GetEvents(pb.GetEventsRequest(since_ms=one.timestamp_ms, until_ms=one.timestamp_ms + 1))
    assert [e.event_id for e in window.events] == [one.event_id]
    missing = refused(lambda: example.GetEvent(pb.GetEventRequest(event_id="01KJPWD6M0C7BDF51E1GE5VEH0")))
    assert missing.code() is grpc.StatusCode.NOT_FOUND and trailer(missing)["memoir-error"] == "EventNotFound"
    assert_invalid(refused(lambda: example.GetEvents(pb.GetEventsRequest(cursor="nope"))), "cursor")
    assert_invalid(refused(lambda: example.GetEvents(pb.GetEventsRequest(since_ms=-1))), "since_ms")


def test_search_finds_an_ingested_turn(memoir: Memoir, example: Any) -> None:
    request = pb.SearchRequest(query="tide-prediction app for sailors", conversation_id="lighthouse", k=5)
    hits = example.Search(request).hits
    assert hits and EVENTS[1]["event_id"] in {i for h in hits for i in h.event_ids}
    expected = memoir.search(request.query, conversation_id="lighthouse", k=5)
    assert [(h.kind, h.text, list(h.event_ids)) for h in hits] == [
        (h.kind, h.text, list(h.event_ids)) for h in expected
    ]
    summaries = example.Search(pb.SearchRequest(query="Rust or Go", conversation_id="lighthouse", kinds=["summary"]))
    assert summaries.hits and {h.kind for h in summaries.hits} == {"summary"}
    assert_invalid(refused(lambda: example.Search(pb.SearchRequest(query="  "))), "query")
    assert_invalid(refused(lambda: example.Search(pb.SearchRequest(query="tides", k=10**6))), "k")


def test_every_rpc_is_in_the_docs() -> None:
    rpcs = [m.name for m in pb.DESCRIPTOR.services_by_name["MemoirService"].methods]
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    assert [name for name in rpcs if f"`{name}`" not in docs] == []


def test_memories_are_kept_listed_and_forgotten_as_over_rest(memoir: Memoir, stub: Any) -> None:
    kept = stub.Remember(
        pb.RememberRequest(text="tides.py: NOAA times are local", kind="gotcha", severity="high", tags=["tides"])
    ).memory
    assert (kept.kind, kept.severity, list(kept.tags)) == ("gotcha", "high", ["tides"])
    assert kept.content == memoir.memories()[0].content and kept.id == memoir.memories()[0].id
    again = stub.Remember(pb.RememberRequest(text="tides.py: NOAA times are local", kind="gotcha")).memory
    assert again.id == kept.id  # the same content adds nothing
    listed = stub.ListMemories(pb.ListMemoriesRequest(kind="gotcha")).memories
    assert [m.id for m in listed] == [kept.id]
    gone = stub.Forget(pb.ForgetRequest(memory_id=kept.id)).memory
    assert gone.HasField("deleted_at_ms") and stub.ListMemories(pb.ListMemoriesRequest()).memories == []
    assert [m.id for m in stub.ListMemories(pb.ListMemoriesRequest(include_deleted=True)).memories] == [kept.id]
    assert_invalid(refused(lambda: stub.Remember(pb.RememberRequest(text="x", kind="rumour"))), "kind")
    other_id = kept.id[:-1] + ("1" if kept.id.endswith("0") else "0")  # never the kept id itself
    missing = refused(lambda: stub.Forget(pb.ForgetRequest(memory_id=other_id)))
    assert missing.code() == grpc.StatusCode.NOT_FOUND


def test_the_timeline_browses_from_the_root_to_the_evidence(memoir: Memoir, example: Any) -> None:
    [year] = example.GetTocRoot(pb.GetTocRootRequest(conversation_id="lighthouse")).nodes
    assert (year.node_id, year.level, year.conversation_id) == ("toc:year:2026", pb.TOC_LEVEL_YEAR, "lighthouse")
    assert year == node_message(memoir.toc_root("lighthouse")[0])
    node = example.GetNode(pb.GetNodeRequest(node_id="toc:month:2026-03")).node
    assert (node.title, node.parent_id, node.version) == ("March 2026", "toc:year:2026", 1)
    seen: list[str] = []
    request = pb.BrowseTocRequest(parent_id="toc:month:2026-03", limit=1)
    while True:
        page = example.BrowseToc(request)
        seen.extend(n.node_id for n in page.nodes)
        if not page.has_more:
            assert not page.HasField("continuation_token")
            break
        request.continuation_token = page.continuation_token
    assert seen == ["toc:week:2026-W10", "toc:week:2026-W11"]
    [day] = example.BrowseToc(pb.BrowseTocRequest(parent_id="toc:week:2026-W11")).nodes
    [segment, *_] = example.BrowseToc(pb.BrowseTocRequest(parent_id=day.node_id)).nodes
    grip_id = segment.bullets[-1].grip_ids[0]
    found = example.ExpandGrip(pb.ExpandGripRequest(grip_id=grip_id, events_before=2, events_after=1))
    assert found == grip_context_message(memoir.expand_grip(grip_id, before=2, after=1))
    assert found.grip.excerpt and len(found.events_before) == 2 and found.excerpt_events
    assert found.grip.event_id_start == found.excerpt_events[0].event_id
    bad_token = pb.BrowseTocRequest(parent_id="toc:month:2026-03", continuation_token="x")
    assert_invalid(refused(lambda: example.BrowseToc(bad_token)), "continuation_token")
    assert_invalid(
        refused(lambda: example.ExpandGrip(pb.ExpandGripRequest(grip_id=grip_id, events_after=-1))), "events_after"
    )
    for call in (
        lambda: example.GetNode(pb.GetNodeRequest(node_id="toc:day:1999-01-01")),
        lambda: example.ExpandGrip(pb.ExpandGripRequest(grip_id="grip:1:nothing")),
    ):
        assert refused(call).code() is grpc.StatusCode.NOT_FOUND


def test_the_scheduler_reports_pauses_and_resumes_jobs(memoir: Memoir, stub: Any) -> None:
    jobs = {job.name: job for job in stub.GetSchedulerStatus(pb.GetSchedulerStatusRequest()).jobs}
    assert {"index_event", "segment", "summarize", "rollup"} <= set(jobs)
    assert [j.name for j in memoir.scheduler_status()] == list(jobs)
    assert stub.PauseJob(pb.PauseJobRequest(name="summarize")).paused
    assert {j.name: j.paused for j in memoir.scheduler_status()}["summarize"]
    assert not stub.ResumeJob(pb.ResumeJobRequest(name="summarize")).paused
    assert not {j.name: j.paused for j in memoir.scheduler_status()}["summarize"]
    error = refused(lambda: stub.PauseJob(pb.PauseJobRequest(name="nap")))
    assert_invalid(error, "name")
    assert "no job 'nap'" in error.details()


# -- errors ---------------------------------------------------------------------------------------


def test_errors_map_to_statuses_by_class() -> None:
    assert status_of(InvalidQuery("k", "too big")) is grpc.StatusCode.INVALID_ARGUMENT
    assert status_of(EventNotFound("01KJPWD6M0C7BDF51E1GE5VEH0")) is grpc.StatusCode.NOT_FOUND
    assert status_of(ConfigError("llm.model: unknown")) is grpc.StatusCode.FAILED_PRECONDITION
    for error in (StoreError("disk full"), WorkerError("stuck"), ModelUnavailable("no server")):
        assert status_of(error) is grpc.StatusCode.UNAVAILABLE


def test_errors_keep_their_message_and_class_and_a_bug_is_internal_without_its_details(
    memoir: Memoir, stub: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(error: Exception) -> Callable[[], Any]:
        def raising() -> Any:
            raise error

        return raising

    monkeypatch.setattr(memoir, "scheduler_status", fail(StoreError("the database is locked: retry")))
    error = refused(lambda: stub.GetSchedulerStatus(pb.GetSchedulerStatusRequest()))
    assert (error.code(), error.details()) == (grpc.StatusCode.UNAVAILABLE, "the database is locked: retry")
    assert trailer(error) == {"memoir-error": "StoreError"}
    monkeypatch.setattr(memoir, "scheduler_status", fail(InvalidQuery("clé\n", "is odd")))
    error = refused(lambda: stub.GetSchedulerStatus(pb.GetSchedulerStatusRequest()))
    assert (error.code(), error.details()) == (grpc.StatusCode.INVALID_ARGUMENT, "clé\n: is odd")
    assert trailer(error)["memoir-field"] == "'cl\\xe9\\n'"  # headers carry printable ASCII only
    monkeypatch.setattr(memoir, "scheduler_status", fail(KeyError("secret internals")))
    error = refused(lambda: stub.GetSchedulerStatus(pb.GetSchedulerStatusRequest()))
    assert error.code() is grpc.StatusCode.INTERNAL and "secret" not in error.details()


def test_too_big_a_request_is_resource_exhausted(memoir: Memoir) -> None:
    with serving(memoir, max_message_bytes=100_000) as stub:
        big = pb.Event(session_id="s", event_type=pb.EVENT_TYPE_USER_MESSAGE, text="tide " * 40_000)
        error = refused(lambda: stub.IngestEvent(pb.IngestEventRequest(event=big)))
        assert error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert memoir.events() == []


# -- scopes -------------------------------------------------------------------------------------


def test_agents_never_see_each_others_events(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(multi_agent_mode="unified", agent_id="planner", embedding_provider="hashing")
    with serving(memoir) as stub:

        def ingest(text: str, agent: str) -> str:
            event = pb.Event(session_id="s", event_type=pb.EVENT_TYPE_USER_MESSAGE, text=text)
            return str(stub.IngestEvent(pb.IngestEventRequest(event=event, agent_id=agent)).event_id)

        planner = ingest("The planner chose Lisbon for the offsite.", "planner")
        coder = ingest("The coder fixed the UTC bug in the tide tables.", "coder")
        assert memoir.flush(timeout=60)
        for agent, mine, theirs in (("planner", planner, coder), ("coder", coder, planner)):
            listed = stub.GetEvents(pb.GetEventsRequest(agent_id=agent)).events
            assert [e.event_id for e in listed] == [mine] and listed[0].agent_id == agent
            assert stub.GetEvent(pb.GetEventRequest(event_id=mine, agent_id=agent)).event.event_id == mine
            error = refused(lambda a=agent, t=theirs: stub.GetEvent(pb.GetEventRequest(event_id=t, agent_id=a)))
            assert error.code() is grpc.StatusCode.NOT_FOUND
            found = stub.Search(pb.SearchRequest(query="Lisbon offsite UTC bug tide tables", agent_id=agent)).hits
            assert found and {i for h in found for i in h.event_ids} == {mine}
        spoofed = pb.Event(session_id="s", event_type=pb.EVENT_TYPE_USER_MESSAGE, text="hi", agent_id="planner")
        assert_invalid(
            refused(lambda: stub.IngestEvent(pb.IngestEventRequest(event=spoofed, agent_id="coder"))), "agent_id"
        )


# -- the API key ----------------------------------------------------------------------------------


def test_the_api_key_guards_every_rpc_but_health(memoir: Memoir) -> None:
    server = serve_grpc(memoir, port=0, api_key=KEY)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.bound_port}", options=CHANNEL_OPTIONS)
    try:
        health = health_pb2_grpc.HealthStub(channel)
        for name in ("", SERVICE_NAME):
            answer = health.Check(health_pb2.HealthCheckRequest(service=name))
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
        stub = pb_grpc.MemoirServiceStub(channel)
        request = pb.GetSchedulerStatusRequest()
        wrong = "k3y-" + "x" * 32
        for metadata in ((), (("authorization", f"Bearer {wrong}"),), (("authorization", KEY),)):
            error = refused(lambda m=metadata: stub.GetSchedulerStatus(request, metadata=m))
            assert error.code() is grpc.StatusCode.UNAUTHENTICATED
            assert KEY not in error.details() and wrong not in error.details()
        assert stub.GetSchedulerStatus(request, metadata=(("authorization", f"Bearer {KEY}"),)).jobs
    finally:
        channel.close()
        server.stop(None).wait()


def test_reflection_lists_the_services_and_describes_a_method_well_enough_to_call_it(memoir: Memoir) -> None:
    """What grpcurl does without the .proto: list the services, resolve a method, call it from the descriptors."""
    memoir.remember("The tide turns at six", conversation_id="tides")
    server = serve_grpc(memoir, port=0)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.bound_port}", options=CHANNEL_OPTIONS)
    try:
        reflected = ProtoReflectionDescriptorDatabase(channel)
        services = set(reflected.get_services())
        assert {SERVICE_NAME, "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= services
        pool = descriptor_pool.DescriptorPool(reflected)  # filled from the server only, not from memoir_pb2
        service = pool.FindServiceByName(SERVICE_NAME)
        assert [m.name for m in service.methods] == [
            m.name for m in pb.DESCRIPTOR.services_by_name["MemoirService"].methods
        ]
        method = service.methods_by_name["ListMemories"]
        assert (method.input_type.full_name, method.output_type.full_name) == (
            "memoir.v1.ListMemoriesRequest",
            "memoir.v1.ListMemoriesResponse",
        )
        assert method.input_type is not pb.ListMemoriesRequest.DESCRIPTOR
        request_class = message_factory.GetMessageClass(method.input_type)
        answer_class = message_factory.GetMessageClass(method.output_type)
        call = channel.unary_unary(
            f"/{SERVICE_NAME}/ListMemories",
            request_serializer=lambda message: message.SerializeToString(),
            response_deserializer=answer_class.FromString,
        )
        answer = call(request_class(conversation_id="tides"))
        assert [m.content for m in answer.memories] == ["The tide turns at six"]
    finally:
        channel.close()
        server.stop(None).wait()


def test_with_a_key_reflection_needs_it_too(memoir: Memoir) -> None:
    server = serve_grpc(memoir, port=0, api_key=KEY)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.bound_port}", options=CHANNEL_OPTIONS)
    reflect = reflection_pb2_grpc.ServerReflectionStub(channel)
    ask = lambda **options: list(  # noqa: E731
        reflect.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]), **options)
    )
    try:
        assert refused(ask).code() is grpc.StatusCode.UNAUTHENTICATED
        [answer] = ask(metadata=(("authorization", f"Bearer {KEY}"),))
        assert SERVICE_NAME in [service.name for service in answer.list_services_response.service]
    finally:
        channel.close()
        server.stop(None).wait()


@pytest.mark.parametrize("grace", [None, 0.5])
def test_a_stopped_server_leaves_no_thread_behind(memoir: Memoir, grace: float | None) -> None:
    before = set(threading.enumerate())
    server = serve_grpc(memoir, port=0)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.bound_port}", options=CHANNEL_OPTIONS)
    stub = pb_grpc.MemoirServiceStub(channel)
    calls = [stub.GetSchedulerStatus.future(pb.GetSchedulerStatusRequest()) for _ in range(8)]
    assert all(call.result().jobs for call in calls)
    assert any(t.name.startswith("memoir-grpc") for t in threading.enumerate())  # the calls ran on the pool
    channel.close()
    assert server.stop(grace).wait(10)
    deadline = time.monotonic() + 10  # grpc's own serving thread returns just after it signals the stop
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [t.name for t in set(threading.enumerate()) - before] == []
    assert threading.active_count() == len(before)


def test_serving_refuses_what_it_cannot_do_safely(memoir: Memoir) -> None:
    with pytest.raises(ConfigError, match="API key"):
        serve_grpc(memoir, host="0.0.0.0", port=0)
    server = serve_grpc(memoir, port=0)
    try:
        with pytest.raises(ConfigError, match=f"port {server.bound_port}"):
            serve_grpc(memoir, port=server.bound_port)  # taken: an error, not a port shared with another server
    finally:
        server.stop(None).wait()


# -- hostile input --------------------------------------------------------------------------------

TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)  # protobuf carries whole characters only
IDS = TEXT | st.sampled_from(["01KJPWD6M0C7BDF51E1GE5VEHZ", "toc:year:2026", "", " ", "\x00", "a\u2028b", "x" * 300])
INT32 = st.integers(-(2**31), 2**31 - 1)
INT64 = st.integers(-(2**63), 2**63 - 1) | st.integers(0, 10**13)
ULIDS = st.integers(0, 2**128 - 1).map(
    lambda n: "".join("0123456789ABCDEFGHJKMNPQRSTVWXYZ"[(n >> (5 * i)) & 31] for i in reversed(range(26)))
)


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`good` three times in four, so that a request with several fields often gets past its checks."""
    return st.integers(0, 3).flatmap(lambda n: bad if n == 0 else good)


def hostile_events() -> st.SearchStrategy[pb.Event]:
    return st.builds(
        pb.Event,
        event_id=mostly(st.none() | ULIDS, IDS),
        session_id=mostly(st.sampled_from(["s1", "sessión ☃", "a" * 256]), IDS),
        timestamp_ms=mostly(st.none() | st.integers(0, 1_700_000_000_000), INT64),
        event_type=mostly(st.integers(1, 8), st.integers(-3, 12)),  # unknown numbers included: enums are open
        role=mostly(st.integers(0, 4), st.integers(-3, 8)),
        text=mostly(st.text(st.characters(exclude_categories=("Cs",)), min_size=1), TEXT),
        metadata=st.dictionaries(TEXT, TEXT, max_size=4),
        conversation_id=mostly(st.none() | st.just("tides"), IDS),
        agent_id=mostly(st.none(), IDS),
    )


def outcome(call: Callable[[], Any]) -> grpc.RpcError | None:
    """The error a call ended with, if any; also noted for hypothesis' statistics."""
    try:
        call()
    except grpc.RpcError as error:
        event(f"{error.code().name}: {trailer(error).get('memoir-field')}")
        return error
    event("answered")
    return None


@HOSTILE
@given(sent=hostile_events(), agent=mostly(st.none(), IDS))
def test_arbitrary_events_are_stored_or_refused_naming_the_field(stub: Any, sent: pb.Event, agent: str | None) -> None:
    answers: list[str] = []
    error = outcome(
        lambda: answers.append(stub.IngestEvent(pb.IngestEventRequest(event=sent, agent_id=agent)).event_id)
    )
    if error is not None:
        assert error.code() is grpc.StatusCode.INVALID_ARGUMENT, (error.code(), error.details())
        assert trailer(error)["memoir-field"] in error.details()
        return
    got = stub.GetEvent(pb.GetEventRequest(event_id=answers[0], agent_id=agent)).event
    assert (got.session_id, got.text, got.metadata) == (sent.session_id, sent.text, sent.metadata)


def hostile_reads(stub: Any, known: list[str]) -> st.SearchStrategy[Callable[[], Any]]:
    """Every read RPC with requests whose fields are mostly sound (ids that exist) and sometimes not."""

    def call(method: Callable[[Any], Any], request: st.SearchStrategy[Any]) -> st.SearchStrategy[Callable[[], Any]]:
        return request.map(lambda r: lambda: method(r))

    def maybe(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return mostly(st.none() | good, bad)

    ids = mostly(st.sampled_from(known), IDS)
    count = st.integers(0, 20)
    scope = {"conversation_id": maybe(st.just("lighthouse"), IDS), "agent_id": maybe(st.nothing(), IDS)}
    return st.one_of(
        call(stub.GetEvents, st.builds(pb.GetEventsRequest, since_ms=maybe(st.integers(0, 10**13), INT64),
             limit=maybe(count, INT32), cursor=maybe(st.nothing(), TEXT), session_id=maybe(st.nothing(), IDS),
             **scope)),
        call(stub.GetEvent, st.builds(pb.GetEventRequest, event_id=ids, agent_id=scope["agent_id"])),
        call(stub.Search, st.builds(pb.SearchRequest, query=mostly(st.just("tides"), TEXT), k=maybe(count, INT32),
             kinds=mostly(st.just([]), st.lists(TEXT, max_size=2)), until_ms=maybe(st.nothing(), INT64), **scope)),
        call(stub.GetTocRoot, st.builds(pb.GetTocRootRequest, **scope)),
        call(stub.GetNode, st.builds(pb.GetNodeRequest, node_id=ids, version=maybe(count, st.integers(0, 2**32 - 1)),
             **scope)),
        call(stub.BrowseToc, st.builds(pb.BrowseTocRequest, parent_id=ids, limit=maybe(count, INT32),
             continuation_token=maybe(st.nothing(), TEXT), **scope)),
        call(stub.ExpandGrip, st.builds(pb.ExpandGripRequest, grip_id=ids, events_before=maybe(count, INT32),
             events_after=maybe(count, INT32), agent_id=scope["agent_id"])),
        call(stub.PauseJob, st.builds(pb.PauseJobRequest, name=mostly(st.just("nap"), IDS))),
    )  # fmt: skip


@HOSTILE
@given(data=st.data())
def test_arbitrary_reads_answer_or_refuse_never_fail(memoir: Memoir, example: Any, data: st.DataObject) -> None:
    nodes = [n.node_id for year in memoir.toc_root() for n in [year, *memoir.browse_toc(year.node_id).nodes]]
    known = [*nodes, *memoir.toc_node(nodes[0]).grip_ids, *(e["event_id"] for e in EVENTS[:3])]
    error = outcome(data.draw(hostile_reads(example, known)))
    assert error is None or error.code() in {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND}, (
        error.code(),
        error.details(),
    )
