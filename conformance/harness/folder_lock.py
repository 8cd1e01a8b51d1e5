"""One run at a time on a folder or a file: two runs writing the same report.jsonl (or fuzz state file) at once
leave NUL bytes and each other's cases in it, and both exit 0.

    with held(folder / LOCK_NAME, f"the report folder {folder}"):
        ...   # a second run on the folder raises Busy at once, naming it and the run that holds it

The lock is an flock(2) on a small lock file, taken without waiting: the kernel releases it when the process
ends, however it ends (a crash, SIGKILL), so a lock is never left behind. The lock file holds the holder's pid
and command for the message; it is removed on release, and a lock taken on a file that was removed meanwhile
is taken again on the new one (else two runs could each hold a lock on a different file of the same name).
Where the file system cannot lock (some network file systems), the run goes on without a lock.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from ..readers import safe_text

try:
    import fcntl
except ImportError:  # not on Windows: no lock there
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".azul-lock"  # the lock file of a report folder


class Busy(Exception):
    """Another run holds the lock."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Lock:
    """A lock held on `path` until `release` (or the end of the process)."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path, self.fd = path, fd

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)  # while still held: nobody takes a lock on it in between
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None

    def __enter__(self) -> "Lock":
        return self

    def __exit__(self, *_) -> None:
        self.release()


def take(path: str | Path, what: str) -> Lock:
    """The lock of `path` (created, with its folder, if need be); Busy naming `what` when another process holds it."""
    path = Path(path)
    if fcntl is None:
        return Lock(path, None)
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(100):  # each turn: the lock file was replaced under us by a run that ended
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = _holder(fd)
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise Busy(f"another azul run{holder} is using {what}; wait for it to end, or give another "
                           "folder") from None
            return Lock(path, None)  # the file system cannot lock (ENOLCK, EOPNOTSUPP): go on unlocked
        try:
            same = os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino
        except FileNotFoundError:
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()} {' '.join(sys.argv)[:500]}\n".encode("utf-8", "replace"))
            return Lock(path, fd)
        os.close(fd)
    raise Busy(f"cannot take the lock {path}: it keeps being replaced")


def _holder(fd: int) -> str:
    """` (pid 123: azul conform ...)` from the lock file, or "" when it says nothing readable."""
    try:
        text = os.pread(fd, 600, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    pid, _, command = text.partition(" ")
    return f" (pid {pid}: {safe_text(command, 200)})" if pid.isdigit() else ""
