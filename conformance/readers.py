"""Reading documents we did not write (YAML scenarios and spec files, JSON states and reports): bounded in
size and depth, strict in what they accept, and every failure one exception type with a position.

YAML: safe_load's types, no aliases, bounded nesting, every failure a YAMLError. Aliases are refused because a
few hundred bytes of nested anchors and aliases expand to gigabytes once something (jsonschema's error message,
a deep copy) walks the result; none of our files needs them. libyaml's parser reads the text where PyYAML
would read it the same way (a few characters it reads differently send a text to PyYAML alone), and PyYAML
reads again whatever libyaml refuses, so the data, the positions and every error are PyYAML's.

Files (read_file, file_lines, dataset_files): regular files only, bounded in size, gzip inflated in steps under
the same bound, folders and archives (tar, tar.gz, zip) read a file at a time; every failure an InputError.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tarfile
import zipfile
import zlib
from pathlib import Path
from typing import Any

import yaml

MAX_DEPTH = 64  # a scenario or spec file nests a handful of levels


class _Composer(yaml.composer.Composer):
    """PyYAML's composer with our limits: no alias, no more than MAX_DEPTH levels."""

    def __init__(self) -> None:
        super().__init__()
        self._depth = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in this file", mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _integer(loader: yaml.constructor.SafeConstructor, node: yaml.ScalarNode) -> int:
    if len(node.value) > 100:  # int() refuses 4,300 digits; nothing in our files needs a hundred
        raise yaml.constructor.ConstructorError(None, None, f"a number of {len(node.value)} digits", node.start_mark)
    return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)


class _Constructor(yaml.constructor.SafeConstructor):
    pass


_Constructor.add_constructor("tag:yaml.org,2002:int", _integer)


class _Loader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, _Composer, _Constructor,
              yaml.resolver.Resolver):
    """The reference reader, all in Python: what it accepts and how it words a refusal is what we promise."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _Composer.__init__(self)
        _Constructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)

    def fetch_flow_collection_start(self, TokenClass):
        # The scanner reads ahead of the composer while a `[` or `{` may still start a key, and checks every
        # open one at each token: a thousand of them on one line cost a million steps before any depth check.
        if self.flow_level >= MAX_DEPTH:
            raise yaml.scanner.ScannerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                            self.get_mark())
        super().fetch_flow_collection_start(TokenClass)


# Where libyaml and PyYAML read the same text differently: a tab inside a line (libyaml takes it into a plain
# scalar, PyYAML refuses it), `?` (in a flow collection PyYAML ends a plain scalar there), a byte-order mark
# after the start, and line breaks other than \n (columns are counted differently after them). A text with any
# of them is read by PyYAML alone.
_PYYAML_OWN = re.compile("[\t?\ufeff\r\x85\u2028\u2029]")
_FastLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):
    class _FastLoader(_Composer, yaml.cyaml.CParser, _Constructor, yaml.resolver.Resolver):  # type: ignore[no-redef]
        """libyaml's scanner and parser (about four times faster) under the same composer, constructor and
        resolver. Only its events are used: a text it refuses is read again by _Loader, for the same error."""

        def __init__(self, text: str) -> None:
            yaml.cyaml.CParser.__init__(self, text)
            _Composer.__init__(self)
            _Constructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

        def compose_scalar_node(self, anchor):
            node = super().compose_scalar_node(anchor)
            node.style = node.style or None  # a plain scalar: libyaml says '', PyYAML None
            return node


def compose(text: str) -> tuple[yaml.Node | None, Any]:
    """The single document of `text` as a node tree (for positions) and as data (safe_load's types).

    Raises yaml.YAMLError for anything wrong with the text, including control characters and numbers too long
    for int() (which PyYAML lets through as ValueError).
    """
    if _FastLoader is not None and not _PYYAML_OWN.search(text):
        try:
            return _read(_FastLoader(text))
        except (yaml.YAMLError, ValueError):  # (ValueError: a lone surrogate cannot be given to libyaml)
            pass  # refused: the reference reader says where and why, in its own words
    try:
        loader = _Loader(text)  # control characters are refused here, before any parsing
    except yaml.reader.ReaderError as error:
        before = text[:error.position]
        mark = yaml.Mark("<text>", error.position, before.count("\n"), len(before) - (before.rfind("\n") + 1),
                         None, None)
        code = ord(error.character) if isinstance(error.character, str) else error.character
        raise yaml.MarkedYAMLError(None, None, f"character U+{code:04X} is not allowed in a YAML file", mark) from None
    try:
        return _read(loader)
    except ValueError as error:  # an integer over 4,300 digits
        raise yaml.constructor.ConstructorError(None, None, f"a value cannot be read: {error}", None) from None


def _read(loader) -> tuple[yaml.Node | None, Any]:
    try:
        node = loader.get_single_node()
        return node, loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()


def load(text: str) -> Any:
    """The data of `text`, read as yaml.safe_load would, with the limits above."""
    return compose(text)[1]


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)) if chr(c) not in "\n\t"}
# The bidirectional formatting characters (the embeddings, overrides and isolates, the marks): shown reversed, a
# text says what it does not ("Trojan Source", CVE-2021-42574). Shown as their escapes, visibly.
_CONTROL.update({c: f"\\u{c:04x}" for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))})


def safe_text(text: object, limit: int | None = None) -> str:
    """Text from outside (an engine, a record, a file), made safe for every output: no lone surrogates (they
    cannot be encoded), no control characters (terminal escapes; invalid in XML) except newline and tab, no
    bidirectional overrides (each shown as its escape: `\\u202e`); optionally clipped.

    Applied at the boundaries (every EngineError, the hello's name and version, a record's names, every case
    result), so reports and the terminal never see raw outside text. Markup in published pages (Markdown, HTML):
    markup.py.
    """
    text = str(text).encode("utf-8", "replace").decode("utf-8").translate(_CONTROL)
    return text if limit is None else clipped(text, limit, slack=0)


REPOSITORY = Path(__file__).resolve().parents[1]  # the checkout this package runs from (an editable install)
# An absolute path in a command line or any text: quoted whole, or after a blank or '=' up to the next blank or quote.
_ABSOLUTE = re.compile(r"(?<=')/[^']*(?=')|(?<=\")/[^\"]*(?=\")|(?<![^\s=])/[^\s'\"]+")
_SYSTEM = ("/usr/", "/bin/")  # the same on every machine: kept as written


def public_text(text: str, root: Path = REPOSITORY) -> str:
    """Text bound for a published file (the engine's command, what it wrote on stderr) as that file shows it: a
    path inside the repository relative to it, any other absolute path cut to its last two parts
    (`.../out/adapter.js`), so that nothing published names the folders of the machine it was run on; system
    paths (/usr/bin/java) are kept."""
    def shown(match: re.Match[str]) -> str:
        path = match.group(0)
        if path.startswith(_SYSTEM):
            return path
        try:
            return Path(path).relative_to(root).as_posix() or "."
        except ValueError:
            parts = Path(path).parts[1:]
            return path if len(parts) <= 2 else ".../" + "/".join(parts[-2:])
    return _ABSOLUTE.sub(shown, text)


CLIP_SLACK = 64  # past the bound by no more than the note: a clipped text read back (a report) is not clipped again


def clipped(text: str, limit: int, *, tail: bool = False, slack: int = CLIP_SLACK) -> str:
    """`text` whole, or its first `limit` characters (its last, with `tail`) saying that it was clipped and from
    how long: `... (2,097,152 characters, clipped)`. The one way the suite shortens text from outside."""
    if len(text) <= limit + slack:
        return text
    note = f"({len(text):,} characters, clipped)"
    return f"{note} ...{text[-limit:]}" if tail else f"{text[:limit]}... {note}"


class JsonError(ValueError):
    """A JSON text that cannot be read: the reason, and the line and column (1-based) when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def json_document(text: str | bytes) -> Any:
    """Strict JSON: no NaN or Infinity, nesting as deep as the parser goes, integers under 4,300 digits."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise JsonError(f"not valid JSON: {error.msg}", error.lineno, error.colno) from None
    except RecursionError:
        raise JsonError("not valid JSON: nested deeper than any document we read") from None
    except ValueError as error:  # NaN, Infinity, or an integer too long for int()
        raise JsonError(f"not valid JSON: {error}") from None


# -- files, compressed files and archives ------------------------------------------------------------------------
# Every file a command reads comes through read_file (or, a line at a time, through file_lines): a regular file
# only (a FIFO would hang the read, /dev/zero never ends), never more than a limit, a gzipped file inflated in
# steps with the same limit (a few megabytes of gzip can inflate to gigabytes).

MAX_FILE = 64 * 2**20  # what read_file takes by default: far past any scenario, record or recorded fixture
MAX_LINE = 16 * 2**20  # one line of a JSON Lines dataset
_CHUNK = 2**16
GZIP_MAGIC = b"\x1f\x8b"


class InputError(ValueError):
    """A file that cannot be read as the input it should be: not a regular file, too big, a damaged gzip or
    archive. `str()` is the reason, without the file's name (the caller names it)."""


def _open_regular(path: str | os.PathLike[str]) -> int:
    """A descriptor of `path` opened for reading, or InputError when it is not a regular file. O_NONBLOCK: opening
    a FIFO with no writer does not wait (the check then refuses it)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else \
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) \
                else "not a regular file"
            raise InputError(f"{kind}, not a regular file: only regular files are read")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _megabytes(limit: int) -> str:
    return f"{limit / 2**20:g} MB"


def read_file(path: str | os.PathLike[str], limit: int = MAX_FILE, *, inflate: bool = False) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them (InputError past it, and for anything that is
    not a regular file). With `inflate`, a gzipped file (by its first bytes) is given inflated, under the same
    limit. OSError as open() raises it for a file that is missing or unreadable."""
    fd = _open_regular(path)
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"larger than {_megabytes(limit)}: not read")
    if inflate and data[:2] == GZIP_MAGIC:
        return inflate_gzip(data, limit)
    return data


def inflate_gzip(data: bytes, limit: int = MAX_FILE) -> bytes:
    """The inflated bytes of gzip `data` (every member), InputError past `limit` bytes or when it is damaged."""
    return b"".join(_inflated([data], limit, total=True))


def _inflated(chunks, limit: int, total: bool):
    """Inflate a stream of gzip chunks in steps of at most _CHUNK bytes out; with `total`, InputError once the
    output passes `limit` (a bomb is stopped having produced no more than that)."""
    produced = 0
    inflater = zlib.decompressobj(wbits=31)
    started = False
    for chunk in chunks:
        pending = chunk
        while pending:
            started = True
            try:
                out = inflater.decompress(pending, _CHUNK)
            except zlib.error as error:
                raise InputError(f"a damaged gzip file ({error})") from None
            pending = inflater.unconsumed_tail
            if inflater.eof:  # a member ends: another may follow (what gzip writes for concatenated files)
                rest = inflater.unused_data  # what follows the member (zlib leaves it in unconsumed_tail too)
                inflater = zlib.decompressobj(wbits=31)
                pending = rest
                if not rest.strip(b"\x00"):
                    pending = b""
                    started = False
            produced += len(out)
            if total and produced > limit:
                raise InputError(f"inflates to more than {_megabytes(limit)}: not read")
            if out:
                yield out
    if started:
        try:
            tail = inflater.flush()
        except zlib.error as error:
            raise InputError(f"a damaged gzip file ({error})") from None
        if not inflater.eof:
            raise InputError("a truncated gzip file (it ends inside its compressed data)")
        if tail:
            yield tail


MAX_BLANK_RUN = 10_000  # no file we read has a run of blank lines this long


def file_lines(path: str | os.PathLike[str], limit: int = MAX_LINE):
    """The lines of the regular file `path` (gzipped or not), one at a time as bytes without their "\\n": split on
    "\\n" alone (U+2028, U+0085, a lone \\r are characters inside a line, as JSON Lines has it), a trailing "\\r"
    removed. InputError for a line longer than `limit`, a damaged gzip or a run of over MAX_BLANK_RUN blank lines;
    memory stays at one line."""
    fd = _open_regular(path)
    with os.fdopen(fd, "rb") as handle:
        first = handle.read(_CHUNK)
        raw = iter(lambda: handle.read(_CHUNK), b"")
        chunks = _inflated(_chain(first, raw), limit, total=False) if first[:2] == GZIP_MAGIC else _chain(first, raw)
        pending = b""
        blank = 0
        for chunk in chunks:
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if len(line) < 16 and not line.strip():  # a gzip of nothing but newlines would take minutes
                    blank += 1
                    if blank > MAX_BLANK_RUN:
                        raise InputError(f"more than {MAX_BLANK_RUN:,} blank lines in a row: not read further")
                else:
                    blank = 0
                yield line[:-1] if line.endswith(b"\r") else line
            if len(pending) > limit:
                raise InputError(f"a line longer than {_megabytes(limit)}: not read")
        if pending:
            yield pending[:-1] if pending.endswith(b"\r") else pending


def data_lines(data: bytes, limit: int = MAX_FILE):
    """The lines of a file's bytes (gzipped or not, inflated under `limit`), as file_lines gives them."""
    if data[:2] == GZIP_MAGIC:
        data = inflate_gzip(data, limit)
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return (line[:-1] if line.endswith(b"\r") else line for line in lines)


def _chain(first: bytes, rest):
    if first:
        yield first
    yield from rest


def strip_bom(text: str) -> str:
    """A byte-order mark is an encoding signature, not part of the text."""
    return text[1:] if text.startswith("\ufeff") else text


def is_archive(path: Path) -> bool:
    name = path.name.lower()
    return name.endswith((".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip"))


def dataset_files(paths, suffixes: tuple[str, ...], limit: int = MAX_FILE):
    """Every file named, or found in a folder (recursively, sorted) or an archive (tar, tar.gz, zip; in its own
    order), whose name ends with one of `suffixes`: (name, bytes) or (name, InputError or OSError) for one that
    cannot be read. Files are read one at a time as they are reached, so memory stays at one file."""
    for path in map(Path, paths):
        if path.is_dir():
            for found in folder_files(path, suffixes):
                yield found, _read_or_error(found, limit)
        elif is_archive(path):
            yield from _archive_files(path, suffixes, limit)
        else:
            yield path, _read_or_error(path, limit)


def folder_files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The files under `folder` whose names end with one of `suffixes`, sorted."""
    found = []
    for root, folders, files in os.walk(folder):  # (symlinked folders are not entered: no loop, no escape)
        folders.sort()
        found += [Path(root) / name for name in sorted(files) if name.endswith(suffixes)]
    return sorted(found)


def _read_or_error(path: Path, limit: int) -> bytes | Exception:
    try:
        return read_file(path, limit)
    except (InputError, OSError) as error:
        return error


def _archive_files(path: Path, suffixes: tuple[str, ...], limit: int):
    def too_big(size: int) -> InputError:
        return InputError(f"larger than {_megabytes(limit)} ({size} bytes): not read")

    try:
        if path.name.lower().endswith(".zip"):
            with os.fdopen(_open_regular(path), "rb") as handle, zipfile.ZipFile(handle) as archive:
                for info in archive.infolist():
                    if info.is_dir() or not info.filename.endswith(suffixes):
                        continue
                    name = path / info.filename
                    if info.file_size > limit:
                        yield name, too_big(info.file_size)
                        continue
                    with archive.open(info) as member:
                        data = member.read(limit + 1)
                    yield name, too_big(len(data)) if len(data) > limit else data
            return
        with os.fdopen(_open_regular(path), "rb") as handle, \
                tarfile.open(fileobj=handle, mode="r|*") as archive:  # a stream: one member at a time
            for member in archive:
                del archive.members[:]  # a stream keeps every member it passed: a million of them, unless let go
                if not member.isreg() or not member.name.endswith(suffixes):
                    continue
                name = path / member.name
                if member.size > limit:
                    yield name, too_big(member.size)
                    continue
                content = archive.extractfile(member)
                yield name, content.read() if content is not None else InputError("cannot be read from the archive")
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error, OSError, InputError) as error:
        yield path, InputError(f"a damaged or unreadable archive: {error}")
