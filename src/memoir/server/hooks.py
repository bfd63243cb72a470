"""`POST /hooks/{agent}`: coding agents' `http` hooks (Claude Code, Codex, Gemini CLI).

The agent POSTs the same JSON its `command` hooks read on stdin. The answer is always 200
with `{"continue": true}` and any context for the model: a hook must never stop the agent
(fail-open), so a bad payload or a failing store is logged and named in the
`X-Memoir-Error` header instead of refusing the call.
"""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from memoir.errors import MemoirError
from memoir.facade.engine import Memoir
from memoir.hooks.capture import parse_call
from memoir.hooks.handler import agent_output, capture, context_for, take_prompt
from memoir.model.secrets import Masker

__all__ = ["create_hooks_router"]

log = logging.getLogger("memoir.hooks")


def create_hooks_router(memoir: Memoir) -> APIRouter:
    router = APIRouter(tags=["hooks"])
    masker = Masker(memoir.settings.privacy.secret_patterns)

    @router.post("/hooks/{agent}")
    async def hook(agent: str, request: Request) -> JSONResponse:
        """Capture one hook call as events and answer with the context to inject."""
        body = await request.body()
        try:
            call = parse_call(agent, body)
            if call.event == "user_prompt":  # a user's turn: memory for it first, then kept (`take_prompt`)
                answer = await run_in_threadpool(take_prompt, memoir, call, masker)
                stored, context = answer.stored, answer.context
            else:  # the durable commit and the search do not depend on each other: run them at once
                stored, (context, _) = await asyncio.gather(
                    run_in_threadpool(capture, memoir, call, masker),
                    run_in_threadpool(context_for, memoir, call, masker),
                )
        except MemoirError as exc:
            log.warning("hook call from %s not captured: %s", agent[:40], exc)
            return _fail_open(str(exc))
        except Exception as exc:  # a bug of memoir's must not stop the agent either: logged whole, named
            log.exception("hook call from %s failed", agent[:40])
            return _fail_open(f"memoir failed on this call ({type(exc).__name__}); see the server's log")
        return JSONResponse(agent_output(call, context), headers={"X-Memoir-Stored": str(stored)})

    return router


def _fail_open(reason: str) -> JSONResponse:
    """`{"continue": true}`, with why nothing was captured or injected in `X-Memoir-Error`."""
    message = reason.encode("ascii", "backslashreplace").decode()[:500].replace("\n", " ")
    return JSONResponse({"continue": True}, headers={"X-Memoir-Error": message})
