"""Driving tests/support/shard_worker.py processes from a test: start, ask, kill."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class WorkerProcess:
    def __init__(self, proc: asyncio.subprocess.Process, name: str):
        self.proc = proc
        self.name = name
        self.worker = ""
        self._ids = itertools.count(1)
        self._waiting: dict[Any, asyncio.Future] = {}
        self._reader: asyncio.Task | None = None
        self.stderr: list[str] = []

    @classmethod
    async def start(cls, database: str, *, shard_count: int | None = None,
                    shard_ids: str | None = None, lease: float = 60.0, name: str = "w",
                    seed: int = 7, channels: int = 0, channel_base: int = 3000) -> WorkerProcess:
        args = [sys.executable, "-m", "tests.support.shard_worker", database, "--lease", str(lease),
                "--seed", str(seed)]
        if shard_count is not None:
            args += ["--shard-count", str(shard_count)]
        if shard_ids is not None:
            args += ["--shard-ids", shard_ids]
        if channels:
            args += ["--channels", str(channels), "--channel-base", str(channel_base)]
        proc = await asyncio.create_subprocess_exec(
            *args, cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            limit=2 ** 24)
        self = cls(proc, name)
        ready: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting["ready"] = ready
        self._reader = asyncio.create_task(self._read())
        asyncio.create_task(self._read_stderr())
        try:
            answer = await asyncio.wait_for(ready, timeout=60)
        except TimeoutError:
            await self.kill()
            raise RuntimeError(f"worker {name} did not start:\n" + "".join(self.stderr[-40:])) from None
        self.worker = answer.get("worker", "")
        return self

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                break
            try:
                answer = json.loads(line)
            except ValueError:
                continue  # not ours
            future = self._waiting.pop(answer.get("id"), None)
            if future is not None and not future.done():
                future.set_result(answer)
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionError(
                    f"worker {self.name} exited:\n" + "".join(self.stderr[-40:])))

    async def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        while True:
            line = await self.proc.stderr.readline()
            if not line:
                return
            self.stderr.append(line.decode(errors="replace"))

    def send(self, op: str, **fields: Any) -> asyncio.Future:
        """Send a request; the future gets its answer (a dict with `ok`)."""
        request_id = next(self._ids)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps({"id": request_id, "op": op, **fields}) + "\n").encode())
        return future

    async def ask(self, op: str, timeout: float = 60, **fields: Any) -> dict:
        answer = await asyncio.wait_for(self.send(op, **fields), timeout=timeout)
        assert answer["ok"], f"worker {self.name}: {op}: {answer.get('error')}\n" + \
            "".join(self.stderr[-20:])
        return answer

    async def kill(self) -> None:
        """kill -9: no cleanup of any kind."""
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def quit(self) -> None:
        if self.proc.returncode is None:
            try:
                await self.ask("quit", timeout=30)
            except (ConnectionError, TimeoutError, AssertionError):
                pass
            await self.kill()
