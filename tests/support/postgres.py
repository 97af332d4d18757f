"""A throwaway PostgreSQL server for the tests: `initdb` and `pg_ctl` into a temporary folder,
listening only on a Unix socket in that folder, stopped and deleted at the end.

PostgreSQL refuses to run as root: as root the server runs as the `postgres` user (the folder
is handed to it). The binaries are looked for in `PG_BIN`, then /usr/lib/postgresql/*/bin (the
highest version), then on PATH. `find()` says why there is no server when there is none.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

RUN_AS = "postgres"


def binaries() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres, or None."""
    candidates = []
    if os.environ.get("PG_BIN"):
        candidates.append(Path(os.environ["PG_BIN"]))

    def version(path: str) -> tuple[int, ...]:
        try:
            return tuple(int(x) for x in Path(path).parent.name.split("."))
        except ValueError:
            return (0,)

    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version,
                                           reverse=True)]
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if all((folder / name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


class PostgresServer:
    def __init__(self, bin_dir: Path, *, durable: bool = False):
        self.bin_dir = bin_dir
        self.durable = durable  # fsync on (the benchmark); the tests run without it
        self.root = Path(tempfile.mkdtemp(prefix="pantheon-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root
        self.log = self.root / "server.log"
        self.as_root = os.geteuid() == 0
        self.user = RUN_AS if self.as_root else pwd.getpwuid(os.geteuid()).pw_name
        self._names = itertools.count(1)
        self.running = False

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        command = [str(a) for a in args]
        if self.as_root:
            command = ["runuser", "-u", RUN_AS, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              cwd=self.root, check=False)

    def start(self) -> None:
        if self.as_root:
            uid = pwd.getpwnam(RUN_AS)
            os.chown(self.root, uid.pw_uid, uid.pw_gid)
        os.chmod(self.root, 0o755)
        done = self._run(self.bin_dir / "initdb", "-D", self.data, "-U", "postgres", "-A", "trust",
                         "-E", "UTF8", "--locale=C", "--no-sync")
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr.strip() or done.stdout.strip()}")
        # Only a Unix socket in our folder (no TCP port to collide with); fsync off: the tests
        # kill bot processes, never the server, and a throwaway cluster need not survive a crash.
        options = f"-k {self.socket_dir} -c listen_addresses='' -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c full_page_writes=off"
        done = self._run(self.bin_dir / "pg_ctl", "-D", self.data, "-l", self.log, "-o", options,
                         "-w", "-t", "60", "start")
        if done.returncode:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {done.stderr.strip()}\n{log}")
        self.running = True

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    async def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import asyncpg

        name = f"t{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            await conn.close()
        return self.url(name)

    def stop(self) -> None:
        try:
            if self.running:
                self._run(self.bin_dir / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
                self.running = False
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def find(*, durable: bool = False) -> tuple[PostgresServer | None, str]:
    """A started server, or None and the reason there is none."""
    folder = binaries()
    if folder is None:
        return None, ("PostgreSQL is not installed (no initdb/pg_ctl/postgres in PG_BIN, "
                      "/usr/lib/postgresql/*/bin or PATH)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(RUN_AS)
        except KeyError:
            return None, "running as root and there is no `postgres` user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return None, "running as root without `runuser` to switch to the `postgres` user"
    server = PostgresServer(folder, durable=durable)
    try:
        server.start()
    except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
        server.stop()
        return None, f"the throwaway PostgreSQL did not start: {exc}"
    return server, ""
