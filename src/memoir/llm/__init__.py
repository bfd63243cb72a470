"""Talking to language models: an OpenAI-compatible client, tolerant JSON, a circuit breaker."""

from memoir.llm.breaker import BreakerState, CircuitBreaker
from memoir.llm.client import ChatClient, Completion, ContextOverflow, Health
from memoir.llm.service import LLM, Sourced
from memoir.llm.structured import extract_json

__all__ = [
    "LLM",
    "BreakerState",
    "ChatClient",
    "CircuitBreaker",
    "Completion",
    "ContextOverflow",
    "Health",
    "Sourced",
    "extract_json",
]
