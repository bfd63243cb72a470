"""Foreground first: while a person waits on the model (`memoir chat`, `ask`, the proxy), memoir's own background
calls to the same server wait (issue 25: a chat turn timed out behind memoir's own summary on a one-slot server)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from memoir import Memoir
from memoir.llm import LLM, ChatClient
from memoir.llm.priority import ForegroundGate
from memoir.server import serving
from tests.scripted_server import chat_reply, scripted_server


def test_a_background_call_waits_while_a_foreground_one_is_in_flight(tmp_path: Path) -> None:
    gate = ForegroundGate.of(tmp_path, "http://127.0.0.1:11434/v1")
    order: list[str] = []
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply('{"facts": []}'))}) as server:
        llm = LLM(ChatClient(base_url=server.url + "/v1", model="m"), gate=gate)
        with gate.foreground():
            assert gate.busy()
            worker = threading.Thread(
                target=lambda: order.append(str(llm.run(lambda c: c.chat([]), lambda: "", background=True).source))
            )
            worker.start()
            time.sleep(0.5)
            order.append("foreground done")
        worker.join(10)
    assert order == ["foreground done", "llm"]  # the background call went once the person had their answer
    assert not gate.busy()


def test_another_process_holding_the_foreground_holds_back_this_ones_background(tmp_path: Path) -> None:
    gate = ForegroundGate.of(tmp_path, "http://x/v1")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys,time\nfrom memoir.llm.priority import ForegroundGate\n"
         f"g = ForegroundGate.of({str(tmp_path)!r}, 'http://x/v1')\n"
         "with g.foreground():\n    print('held', flush=True)\n    time.sleep(60)\n"],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert gate.busy()
        holder.kill()  # a chat killed mid-answer: the kernel lets go of its lock at once
        holder.wait(10)
        assert not gate.busy()
    finally:
        holder.kill()
        holder.wait(10)
        if holder.stdout is not None:
            holder.stdout.close()


def test_the_proxy_marks_its_upstream_calls_as_foreground(tmp_path: Path) -> None:
    seen: dict[str, bool] = {}
    gates: list[ForegroundGate] = []

    def upstream(body: dict[str, Any]) -> tuple[int, Any]:
        seen["busy"] = gates[0].busy()  # asked while the proxied request is in flight
        return 200, chat_reply("Hello!")

    options = {"embedding_provider": "hashing", "worker_enabled": False}
    with (
        scripted_server({"/v1/chat/completions": upstream}) as up,
        Memoir.open(tmp_path / "home", proxy_upstream_url=up.url + "/v1", **options) as memoir,
        serving(memoir) as where,
    ):
        gates.append(ForegroundGate.of(memoir.home, up.url + "/v1"))
        request = {"model": "m", "messages": [{"role": "user", "content": "Hi"}]}
        answer = httpx.post(f"{where.url}/v1/chat/completions", json=request, timeout=30)
    assert answer.status_code == 200 and seen["busy"] is True
    assert not gates[0].busy()


def test_memoir_open_gives_its_llm_the_gate_of_its_server(tmp_path: Path) -> None:
    options = {"llm_model": "m", "llm_base_url": "http://127.0.0.1:9/v1"}
    with Memoir.open(tmp_path / "home", worker_enabled=False, **options) as memoir:
        gate = memoir.llm.gate
    assert gate is not None and gate.path == ForegroundGate.of(tmp_path / "home", "http://127.0.0.1:9/v1").path
