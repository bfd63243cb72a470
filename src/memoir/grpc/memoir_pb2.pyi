from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EventType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_TYPE_UNSPECIFIED: _ClassVar[EventType]
    EVENT_TYPE_SESSION_START: _ClassVar[EventType]
    EVENT_TYPE_USER_MESSAGE: _ClassVar[EventType]
    EVENT_TYPE_ASSISTANT_MESSAGE: _ClassVar[EventType]
    EVENT_TYPE_TOOL_RESULT: _ClassVar[EventType]
    EVENT_TYPE_ASSISTANT_STOP: _ClassVar[EventType]
    EVENT_TYPE_SUBAGENT_START: _ClassVar[EventType]
    EVENT_TYPE_SUBAGENT_STOP: _ClassVar[EventType]
    EVENT_TYPE_SESSION_END: _ClassVar[EventType]

class EventRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_ROLE_UNSPECIFIED: _ClassVar[EventRole]
    EVENT_ROLE_USER: _ClassVar[EventRole]
    EVENT_ROLE_ASSISTANT: _ClassVar[EventRole]
    EVENT_ROLE_SYSTEM: _ClassVar[EventRole]
    EVENT_ROLE_TOOL: _ClassVar[EventRole]

class TocLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOC_LEVEL_UNSPECIFIED: _ClassVar[TocLevel]
    TOC_LEVEL_YEAR: _ClassVar[TocLevel]
    TOC_LEVEL_MONTH: _ClassVar[TocLevel]
    TOC_LEVEL_WEEK: _ClassVar[TocLevel]
    TOC_LEVEL_DAY: _ClassVar[TocLevel]
    TOC_LEVEL_SEGMENT: _ClassVar[TocLevel]
EVENT_TYPE_UNSPECIFIED: EventType
EVENT_TYPE_SESSION_START: EventType
EVENT_TYPE_USER_MESSAGE: EventType
EVENT_TYPE_ASSISTANT_MESSAGE: EventType
EVENT_TYPE_TOOL_RESULT: EventType
EVENT_TYPE_ASSISTANT_STOP: EventType
EVENT_TYPE_SUBAGENT_START: EventType
EVENT_TYPE_SUBAGENT_STOP: EventType
EVENT_TYPE_SESSION_END: EventType
EVENT_ROLE_UNSPECIFIED: EventRole
EVENT_ROLE_USER: EventRole
EVENT_ROLE_ASSISTANT: EventRole
EVENT_ROLE_SYSTEM: EventRole
EVENT_ROLE_TOOL: EventRole
TOC_LEVEL_UNSPECIFIED: TocLevel
TOC_LEVEL_YEAR: TocLevel
TOC_LEVEL_MONTH: TocLevel
TOC_LEVEL_WEEK: TocLevel
TOC_LEVEL_DAY: TocLevel
TOC_LEVEL_SEGMENT: TocLevel

class Event(_message.Message):
    __slots__ = ("event_id", "session_id", "timestamp_ms", "event_type", "role", "text", "metadata", "conversation_id", "agent_id")
    class MetadataEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    session_id: str
    timestamp_ms: int
    event_type: EventType
    role: EventRole
    text: str
    metadata: _containers.ScalarMap[str, str]
    conversation_id: str
    agent_id: str
    def __init__(self, event_id: _Optional[str] = ..., session_id: _Optional[str] = ..., timestamp_ms: _Optional[int] = ..., event_type: _Optional[_Union[EventType, str]] = ..., role: _Optional[_Union[EventRole, str]] = ..., text: _Optional[str] = ..., metadata: _Optional[_Mapping[str, str]] = ..., conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class TocBullet(_message.Message):
    __slots__ = ("text", "grip_ids")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    GRIP_IDS_FIELD_NUMBER: _ClassVar[int]
    text: str
    grip_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, text: _Optional[str] = ..., grip_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class TocNode(_message.Message):
    __slots__ = ("node_id", "level", "title", "start_time_ms", "end_time_ms", "bullets", "keywords", "child_node_ids", "version", "created_at_ms", "conversation_id", "agent_id", "parent_id", "source", "note")
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    START_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    END_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    BULLETS_FIELD_NUMBER: _ClassVar[int]
    KEYWORDS_FIELD_NUMBER: _ClassVar[int]
    CHILD_NODE_IDS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    PARENT_ID_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    node_id: str
    level: TocLevel
    title: str
    start_time_ms: int
    end_time_ms: int
    bullets: _containers.RepeatedCompositeFieldContainer[TocBullet]
    keywords: _containers.RepeatedScalarFieldContainer[str]
    child_node_ids: _containers.RepeatedScalarFieldContainer[str]
    version: int
    created_at_ms: int
    conversation_id: str
    agent_id: str
    parent_id: str
    source: str
    note: str
    def __init__(self, node_id: _Optional[str] = ..., level: _Optional[_Union[TocLevel, str]] = ..., title: _Optional[str] = ..., start_time_ms: _Optional[int] = ..., end_time_ms: _Optional[int] = ..., bullets: _Optional[_Iterable[_Union[TocBullet, _Mapping]]] = ..., keywords: _Optional[_Iterable[str]] = ..., child_node_ids: _Optional[_Iterable[str]] = ..., version: _Optional[int] = ..., created_at_ms: _Optional[int] = ..., conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ..., parent_id: _Optional[str] = ..., source: _Optional[str] = ..., note: _Optional[str] = ...) -> None: ...

class Grip(_message.Message):
    __slots__ = ("grip_id", "excerpt", "event_id_start", "event_id_end", "timestamp_ms", "source", "toc_node_id", "conversation_id", "agent_id")
    GRIP_ID_FIELD_NUMBER: _ClassVar[int]
    EXCERPT_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_START_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_END_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TOC_NODE_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    grip_id: str
    excerpt: str
    event_id_start: str
    event_id_end: str
    timestamp_ms: int
    source: str
    toc_node_id: str
    conversation_id: str
    agent_id: str
    def __init__(self, grip_id: _Optional[str] = ..., excerpt: _Optional[str] = ..., event_id_start: _Optional[str] = ..., event_id_end: _Optional[str] = ..., timestamp_ms: _Optional[int] = ..., source: _Optional[str] = ..., toc_node_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class Hit(_message.Message):
    __slots__ = ("kind", "text", "score", "event_ids", "memory_id", "metadata", "created_at_ms", "conversation_id", "session_id", "role", "context", "context_event_ids", "relevance", "sources", "agent_id")
    class MetadataEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    KIND_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    EVENT_IDS_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_EVENT_IDS_FIELD_NUMBER: _ClassVar[int]
    RELEVANCE_FIELD_NUMBER: _ClassVar[int]
    SOURCES_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    kind: str
    text: str
    score: float
    event_ids: _containers.RepeatedScalarFieldContainer[str]
    memory_id: str
    metadata: _containers.ScalarMap[str, str]
    created_at_ms: int
    conversation_id: str
    session_id: str
    role: str
    context: _containers.RepeatedScalarFieldContainer[str]
    context_event_ids: _containers.RepeatedScalarFieldContainer[str]
    relevance: float
    sources: _containers.RepeatedScalarFieldContainer[str]
    agent_id: str
    def __init__(self, kind: _Optional[str] = ..., text: _Optional[str] = ..., score: _Optional[float] = ..., event_ids: _Optional[_Iterable[str]] = ..., memory_id: _Optional[str] = ..., metadata: _Optional[_Mapping[str, str]] = ..., created_at_ms: _Optional[int] = ..., conversation_id: _Optional[str] = ..., session_id: _Optional[str] = ..., role: _Optional[str] = ..., context: _Optional[_Iterable[str]] = ..., context_event_ids: _Optional[_Iterable[str]] = ..., relevance: _Optional[float] = ..., sources: _Optional[_Iterable[str]] = ..., agent_id: _Optional[str] = ...) -> None: ...

class Memory(_message.Message):
    __slots__ = ("id", "kind", "content", "conversation_id", "created_at_ms", "tags", "severity", "event_ids", "source", "replaced_by", "deleted_at_ms", "agent_id", "reconciled_by")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    EVENT_IDS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    REPLACED_BY_FIELD_NUMBER: _ClassVar[int]
    DELETED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    RECONCILED_BY_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    content: str
    conversation_id: str
    created_at_ms: int
    tags: _containers.RepeatedScalarFieldContainer[str]
    severity: str
    event_ids: _containers.RepeatedScalarFieldContainer[str]
    source: str
    replaced_by: str
    deleted_at_ms: int
    agent_id: str
    reconciled_by: str
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., content: _Optional[str] = ..., conversation_id: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., tags: _Optional[_Iterable[str]] = ..., severity: _Optional[str] = ..., event_ids: _Optional[_Iterable[str]] = ..., source: _Optional[str] = ..., replaced_by: _Optional[str] = ..., deleted_at_ms: _Optional[int] = ..., agent_id: _Optional[str] = ..., reconciled_by: _Optional[str] = ...) -> None: ...

class JobStatus(_message.Message):
    __slots__ = ("name", "lane", "kind", "paused", "backlog", "last_run_ms", "runs", "failures", "last_error")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    BACKLOG_FIELD_NUMBER: _ClassVar[int]
    LAST_RUN_MS_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    FAILURES_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    name: str
    lane: str
    kind: str
    paused: bool
    backlog: int
    last_run_ms: int
    runs: int
    failures: int
    last_error: str
    def __init__(self, name: _Optional[str] = ..., lane: _Optional[str] = ..., kind: _Optional[str] = ..., paused: _Optional[bool] = ..., backlog: _Optional[int] = ..., last_run_ms: _Optional[int] = ..., runs: _Optional[int] = ..., failures: _Optional[int] = ..., last_error: _Optional[str] = ...) -> None: ...

class IngestEventRequest(_message.Message):
    __slots__ = ("event", "conversation_id", "agent_id")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    event: Event
    conversation_id: str
    agent_id: str
    def __init__(self, event: _Optional[_Union[Event, _Mapping]] = ..., conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class IngestEventResponse(_message.Message):
    __slots__ = ("event_id",)
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    def __init__(self, event_id: _Optional[str] = ...) -> None: ...

class IngestEventsRequest(_message.Message):
    __slots__ = ("events", "conversation_id", "agent_id")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    conversation_id: str
    agent_id: str
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class IngestEventsResponse(_message.Message):
    __slots__ = ("event_ids",)
    EVENT_IDS_FIELD_NUMBER: _ClassVar[int]
    event_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, event_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GetEventsRequest(_message.Message):
    __slots__ = ("since_ms", "until_ms", "session_id", "conversation_id", "limit", "cursor", "agent_id")
    SINCE_MS_FIELD_NUMBER: _ClassVar[int]
    UNTIL_MS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    since_ms: int
    until_ms: int
    session_id: str
    conversation_id: str
    limit: int
    cursor: str
    agent_id: str
    def __init__(self, since_ms: _Optional[int] = ..., until_ms: _Optional[int] = ..., session_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class GetEventsResponse(_message.Message):
    __slots__ = ("events", "next_cursor")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    next_cursor: str
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class GetEventRequest(_message.Message):
    __slots__ = ("event_id", "agent_id")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    agent_id: str
    def __init__(self, event_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class GetEventResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: Event
    def __init__(self, event: _Optional[_Union[Event, _Mapping]] = ...) -> None: ...

class SearchRequest(_message.Message):
    __slots__ = ("query", "k", "conversation_id", "kinds", "since_ms", "until_ms", "agent_id", "as_of_ms")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    SINCE_MS_FIELD_NUMBER: _ClassVar[int]
    UNTIL_MS_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    AS_OF_MS_FIELD_NUMBER: _ClassVar[int]
    query: str
    k: int
    conversation_id: str
    kinds: _containers.RepeatedScalarFieldContainer[str]
    since_ms: int
    until_ms: int
    agent_id: str
    as_of_ms: int
    def __init__(self, query: _Optional[str] = ..., k: _Optional[int] = ..., conversation_id: _Optional[str] = ..., kinds: _Optional[_Iterable[str]] = ..., since_ms: _Optional[int] = ..., until_ms: _Optional[int] = ..., agent_id: _Optional[str] = ..., as_of_ms: _Optional[int] = ...) -> None: ...

class SearchResponse(_message.Message):
    __slots__ = ("hits",)
    HITS_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[Hit]
    def __init__(self, hits: _Optional[_Iterable[_Union[Hit, _Mapping]]] = ...) -> None: ...

class RememberRequest(_message.Message):
    __slots__ = ("text", "kind", "conversation_id", "tags", "severity", "agent_id")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    text: str
    kind: str
    conversation_id: str
    tags: _containers.RepeatedScalarFieldContainer[str]
    severity: str
    agent_id: str
    def __init__(self, text: _Optional[str] = ..., kind: _Optional[str] = ..., conversation_id: _Optional[str] = ..., tags: _Optional[_Iterable[str]] = ..., severity: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class RememberResponse(_message.Message):
    __slots__ = ("memory",)
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ...) -> None: ...

class ForgetRequest(_message.Message):
    __slots__ = ("memory_id", "agent_id")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    agent_id: str
    def __init__(self, memory_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class ForgetResponse(_message.Message):
    __slots__ = ("memory",)
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ...) -> None: ...

class ListMemoriesRequest(_message.Message):
    __slots__ = ("conversation_id", "kind", "include_deleted", "agent_id", "all_agents")
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_DELETED_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ALL_AGENTS_FIELD_NUMBER: _ClassVar[int]
    conversation_id: str
    kind: str
    include_deleted: bool
    agent_id: str
    all_agents: bool
    def __init__(self, conversation_id: _Optional[str] = ..., kind: _Optional[str] = ..., include_deleted: _Optional[bool] = ..., agent_id: _Optional[str] = ..., all_agents: _Optional[bool] = ...) -> None: ...

class ListMemoriesResponse(_message.Message):
    __slots__ = ("memories",)
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    memories: _containers.RepeatedCompositeFieldContainer[Memory]
    def __init__(self, memories: _Optional[_Iterable[_Union[Memory, _Mapping]]] = ...) -> None: ...

class GetTocRootRequest(_message.Message):
    __slots__ = ("conversation_id", "agent_id")
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    conversation_id: str
    agent_id: str
    def __init__(self, conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class GetTocRootResponse(_message.Message):
    __slots__ = ("nodes",)
    NODES_FIELD_NUMBER: _ClassVar[int]
    nodes: _containers.RepeatedCompositeFieldContainer[TocNode]
    def __init__(self, nodes: _Optional[_Iterable[_Union[TocNode, _Mapping]]] = ...) -> None: ...

class GetNodeRequest(_message.Message):
    __slots__ = ("node_id", "version", "conversation_id", "agent_id")
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    node_id: str
    version: int
    conversation_id: str
    agent_id: str
    def __init__(self, node_id: _Optional[str] = ..., version: _Optional[int] = ..., conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class GetNodeResponse(_message.Message):
    __slots__ = ("node",)
    NODE_FIELD_NUMBER: _ClassVar[int]
    node: TocNode
    def __init__(self, node: _Optional[_Union[TocNode, _Mapping]] = ...) -> None: ...

class BrowseTocRequest(_message.Message):
    __slots__ = ("parent_id", "limit", "continuation_token", "conversation_id", "agent_id")
    PARENT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    CONTINUATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    parent_id: str
    limit: int
    continuation_token: str
    conversation_id: str
    agent_id: str
    def __init__(self, parent_id: _Optional[str] = ..., limit: _Optional[int] = ..., continuation_token: _Optional[str] = ..., conversation_id: _Optional[str] = ..., agent_id: _Optional[str] = ...) -> None: ...

class BrowseTocResponse(_message.Message):
    __slots__ = ("nodes", "continuation_token", "has_more")
    NODES_FIELD_NUMBER: _ClassVar[int]
    CONTINUATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    nodes: _containers.RepeatedCompositeFieldContainer[TocNode]
    continuation_token: str
    has_more: bool
    def __init__(self, nodes: _Optional[_Iterable[_Union[TocNode, _Mapping]]] = ..., continuation_token: _Optional[str] = ..., has_more: _Optional[bool] = ...) -> None: ...

class ExpandGripRequest(_message.Message):
    __slots__ = ("grip_id", "events_before", "events_after", "agent_id")
    GRIP_ID_FIELD_NUMBER: _ClassVar[int]
    EVENTS_BEFORE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_AFTER_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    grip_id: str
    events_before: int
    events_after: int
    agent_id: str
    def __init__(self, grip_id: _Optional[str] = ..., events_before: _Optional[int] = ..., events_after: _Optional[int] = ..., agent_id: _Optional[str] = ...) -> None: ...

class ExpandGripResponse(_message.Message):
    __slots__ = ("grip", "events_before", "excerpt_events", "events_after")
    GRIP_FIELD_NUMBER: _ClassVar[int]
    EVENTS_BEFORE_FIELD_NUMBER: _ClassVar[int]
    EXCERPT_EVENTS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_AFTER_FIELD_NUMBER: _ClassVar[int]
    grip: Grip
    events_before: _containers.RepeatedCompositeFieldContainer[Event]
    excerpt_events: _containers.RepeatedCompositeFieldContainer[Event]
    events_after: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, grip: _Optional[_Union[Grip, _Mapping]] = ..., events_before: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., excerpt_events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., events_after: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...

class GetSchedulerStatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetSchedulerStatusResponse(_message.Message):
    __slots__ = ("jobs",)
    JOBS_FIELD_NUMBER: _ClassVar[int]
    jobs: _containers.RepeatedCompositeFieldContainer[JobStatus]
    def __init__(self, jobs: _Optional[_Iterable[_Union[JobStatus, _Mapping]]] = ...) -> None: ...

class PauseJobRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class PauseJobResponse(_message.Message):
    __slots__ = ("name", "paused")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    name: str
    paused: bool
    def __init__(self, name: _Optional[str] = ..., paused: _Optional[bool] = ...) -> None: ...

class ResumeJobRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ResumeJobResponse(_message.Message):
    __slots__ = ("name", "paused")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    name: str
    paused: bool
    def __init__(self, name: _Optional[str] = ..., paused: _Optional[bool] = ...) -> None: ...
