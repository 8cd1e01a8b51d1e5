"""One run at a time on a folder or a file: two runs writing the same report.jsonl (or fuzz state file) at once
leave NUL bytes and each other's cases in it, and both exit 0.

    with held(folder / LOCK_NAME, f"the report folder {folder}"):
        ...   # a second run on the folder raises Busy at once, naming it and the run that holds it

The lock is an flock(2) on a small lock file, taken without waiting: the kernel releases it when the process
ends, however it ends (a crash, SIGKILL), so a lock is never left behind. A process forked from the holder (a
worker) closes its copy of the lock's descriptor at once: the lock is the holder's alone, and goes with it. The
lock file holds the holder's pid, host and command for the message; it is removed on release, and a lock taken
on a file that was removed meanwhile is taken again on the new one (else two runs could each hold a lock on a
different file of the same name). A holder that ended without releasing the lock is named in a notice as its
lock is taken over: the file it left, or a lock kept by a process it left behind (its pid gone from this host).
Where the file system cannot lock (some network file systems), the run goes on without a lock.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple

from ..readers import safe_text

try:
    import fcntl
except ImportError:  # not on Windows: no lock there
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".azul-lock"  # the lock file of a report folder
SETTLE = 0.2  # seconds before a lock held under a gone pid is looked at again (a new holder writes its own)

_held: "set[Lock]" = set()  # the locks this process holds (until released, even when nothing else refers to one)


class Busy(Exception):
    """Another run holds the lock."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Lock:
    """A lock held on `path` until `release` (or the end of the process)."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path, self.fd = path, fd
        if fd is not None:
            _held.add(self)

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)  # while still held: nobody takes a lock on it in between
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None
        _held.discard(self)

    def __enter__(self) -> "Lock":
        return self

    def __exit__(self, *_) -> None:
        self.release()


def take(path: str | Path, what: str, notice: Callable[[str], None] | None = None) -> Lock:
    """The lock of `path` (created, with its folder, if need be); Busy naming `what` when another process holds it.
    `notice` (default: a line on stderr) hears of a lock taken over from a holder that has ended."""
    path = Path(path)
    if fcntl is None:
        return Lock(path, None)
    notice = notice or _say
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(100):  # each turn: the lock file was replaced under us by a run that ended
        fd = _opened(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = _holder(fd)
            os.close(fd)
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return Lock(path, None)  # the file system cannot lock (ENOLCK, EOPNOTSUPP): go on unlocked
            left = _left_behind(path, holder)
            if left:
                notice(f"{what} was locked by pid {holder.pid} ({holder.command}), which has ended; a process it "
                       "left behind kept the lock: taking it over")
            if left is not False:
                continue
            raise Busy(f"another azul run{holder.text} is using {what}; wait for it to end, or give another "
                       "one") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino
        except FileNotFoundError:
            same = False
        if same:
            before = _holder(fd)
            if before.pid is not None:  # a lock is released with its file removed: this one's holder ended first
                notice(f"{what} was locked by pid {before.pid} ({before.command}), which ended without releasing "
                       "it: taking it over")
            os.ftruncate(fd, 0)
            record = f"{os.getpid()}@{socket.gethostname()} {' '.join(sys.argv)[:500]}\n"
            os.write(fd, record.encode("utf-8", "replace"))
            return Lock(path, fd)
        os.close(fd)
    raise Busy(f"cannot take the lock {path}: it keeps being replaced")


def _opened(path: Path) -> int:
    """The lock file, opened (created if need be); Busy naming it when it cannot be one: a FIFO, a device or a
    folder planted there (flock and ftruncate would fail with a bare "Invalid argument"), a link, a denial."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as error:
        kind = "a symbolic link" if error.errno == errno.ELOOP else error.strerror
        raise Busy(f"the lock file {path} cannot be opened ({kind}); remove it, or give another one") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device" \
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"
        raise Busy(f"the lock file {path} is {kind}, not a regular file: no run can lock it; remove it, or give "
                   "another one")
    return fd


def _say(message: str) -> None:
    print(f"azul: {message}", file=sys.stderr, flush=True)


class _Holder(NamedTuple):
    """Who the lock file names: its pid (None: nothing readable), host (None: an older file, without it) and
    command."""

    pid: int | None = None
    host: str | None = None
    command: str = ""

    @property
    def text(self) -> str:
        """` (pid 123: azul conform ...)`, or "" when the file names nobody."""
        if self.pid is None:
            return ""
        where = f" on {self.host}" if self.host and self.host != socket.gethostname() else ""
        return f" (pid {self.pid}{where}: {self.command})"


def _holder(fd: int) -> _Holder:
    """Who the lock file open as `fd` names: `123@host azul conform ...` (or `123 azul conform ...`)."""
    try:
        text = os.pread(fd, 600, 0).decode("utf-8", "replace").strip()
    except OSError:
        return _Holder()
    who, _, command = text.partition(" ")
    pid, _, host = who.partition("@")
    if not pid.isdigit():
        return _Holder()
    return _Holder(int(pid), safe_text(host, 100) or None, safe_text(command, 200))


def _ended(holder: _Holder) -> bool:
    """The pid the lock file names is gone from this host (the file names this host, or none)."""
    if holder.pid is None or holder.pid <= 0 or holder.host not in (None, socket.gethostname()):
        return False
    try:
        os.kill(holder.pid, 0)
    except ProcessLookupError:
        return True
    except OverflowError:  # beyond any pid
        return True
    except OSError:  # PermissionError: alive, someone else's
        return False
    return False


def _left_behind(path: Path, holder: _Holder) -> bool | None:
    """True when the lock is held but the run its file names has ended: a process that run left behind holds it
    (it can write nothing of the run's). The file is then removed, so that the next turn locks a new one. Looked
    at twice, SETTLE seconds apart: a run that has just taken the lock writes its own pid over its predecessor's.
    None: the lock changed meanwhile (look again); False: its holder lives (or lives elsewhere)."""
    if not _ended(holder):
        return False
    time.sleep(SETTLE)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None  # removed meanwhile
    try:
        if _holder(fd) != holder:
            return None  # another holder now
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return None  # free now after all: the next turn takes it as usual
    except OSError:  # still held
        try:
            if os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino:
                path.unlink()
        except FileNotFoundError:
            pass
        except OSError:  # not ours to remove: it stays taken
            return False
        return True
    finally:
        os.close(fd)


def _forget_in_child() -> None:
    """A forked process (a worker) holds no lock of its parent's: the lock ends with the run that took it."""
    for lock in list(_held):
        if lock.fd is not None:
            try:
                os.close(lock.fd)
            except OSError:
                pass
            lock.fd = None
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
