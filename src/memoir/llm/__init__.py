"""Talking to language models: an OpenAI-compatible client, tolerant JSON, a circuit breaker."""

from memoir.llm.breaker import BreakerState, CircuitBreaker
from memoir.llm.client import ChatClient, Health
from memoir.llm.service import LLM, Sourced
from memoir.llm.structured import extract_json

__all__ = ["LLM", "BreakerState", "ChatClient", "CircuitBreaker", "Health", "Sourced", "extract_json"]
