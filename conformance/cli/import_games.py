"""`azul import`: games recorded by other software, written as game records (.azr) that `azul replay` checks.

Files, folders (searched for the format's files) and archives of them are read one file, and for JSON Lines one
game, at a time, so memory stays flat however big the dataset. Every record written is read back by the strict
reader first (the fast reader, the grammar where it defers). Nothing in the output folder is replaced without
--force, and nothing there is followed: a record is created as a new file (O_EXCL), never written through a
symlink; two inputs whose names would give the same record get distinct names (`games.2-001.azr`). An archive
is written under a temporary name beside it and given its name only when whole: an import that fails (a worker
process that died, a record that cannot be written, Ctrl-C) leaves no archive.
"""

from __future__ import annotations

import collections
import contextlib
import io
import os
import tarfile
import time
from pathlib import Path

import click
from rich.console import Console

from azul_conformance.harness.progress import RunProgress
from azul_conformance import fuzz as fuzzing  # its names load when first used: --help loads no campaign
from azul_conformance.importers import FORMATS, import_file, to_records
from azul_conformance.readers import InputError, dataset_files, file_lines, folder_files, is_archive
from azul_conformance.processes import Pending, WorkerLost
from azul_conformance.records import RecordError, parse_record, write_record
from ..cli.replay import replay_batch
from ..records.fast_parse import parse_fast
from azul_conformance.cli.numbers import JOBS, Number

LINES_PER_TASK = 250  # games of a JSON Lines file converted in one task on -j N
MAX_INPUT = 4 * 2**30  # a dataset file read whole (a fixture, an archive's member): JSON Lines stream instead


def _formats_help() -> str:
    return "\n".join(f"  {name:<10} {module.SUMMARY}" for name, module in FORMATS.items())


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (".json.gz", ".jsonl.gz", ".jsonl", ".json", ".gz"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


class _Names:
    """Record names, one per game: `games-007.azr` for "games.json.gz, game 7" (the game's number in its file,
    zero-padded to sort); an input whose stem an earlier input had gets `games.2-007.azr`, so nothing is
    written twice under one name."""

    def __init__(self) -> None:
        self.stems: dict[Path, str] = {}
        self.used: set[str] = set()

    def stem(self, path: Path) -> str:
        if path not in self.stems:
            base = stem = _stem(path)
            copy = 1
            while stem in self.used:
                copy += 1
                stem = f"{base}.{copy}"
            self.used.add(stem)
            self.stems[path] = stem
        return self.stems[path]

    def name(self, path: Path, source: str) -> str:
        number = source.rsplit(" ", 1)[-1]
        stem = self.stem(path)
        return f"{stem}-{int(number):03d}.azr" if number.isdigit() else f"{stem}.azr"


def _inputs(format_name: str, paths: tuple[Path, ...]):
    """(path, bytes or None) of every input file: None for a file named or found in a folder (the importer reads
    it, line by line where it can), bytes for an archive's member (or the error that kept it from being read)."""
    suffixes = FORMATS[format_name].SUFFIXES
    for path in paths:
        if path.is_dir():
            yield from ((found, None) for found in folder_files(path, suffixes))
        elif is_archive(path):
            yield from dataset_files([path], suffixes, MAX_INPUT)
        else:
            yield path, None


def write_new(target: Path, text: str, force: bool) -> None:
    """Create `target` with `text`: a new file, never through a symlink (O_EXCL); with `force`, an existing one
    (or a symlink) is removed first, not written through. FileExistsError without `force`."""
    with os.fdopen(_create(target, force), "w", encoding="utf-8", newline="\n") as out:
        out.write(text)


def _create(path: Path, force: bool) -> int:
    """A descriptor of `path` created new (O_EXCL: never through a symlink); `force` removes what is there first."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(path, flags, 0o644)
    except FileExistsError:
        if not force:
            raise
        os.unlink(path)
        return os.open(path, flags, 0o644)


class _Folder:
    """Records as files of a folder, each created new (whole: each is written at once)."""

    def __init__(self, folder: Path, force: bool) -> None:
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise click.UsageError(f"--output {folder} must be a folder (not a symlink) or an archive (.tar, .tar.gz)")
        if not force and folder.is_dir() and any(folder.glob("*.azr")):
            raise click.UsageError(f"{folder} already holds records: give an empty or new folder, or --force to "
                                   f"replace the records it holds")
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.force = folder, force

    def target(self, name: str) -> Path:
        return self.folder / name

    def write(self, name: str, text: str) -> None:
        write_new(self.folder / name, text, self.force)

    def close(self) -> None:
        pass

    def discard(self) -> None:
        pass  # the records written are whole files, and said so


class _Archive:
    """Records as members of a tar archive (gzipped for .tar.gz, .tgz), written as a stream: one file for a whole
    dataset, which `azul replay ARCHIVE` reads the same way (a hundred thousand small files cost more to create
    than to import). It is written as a hidden file beside `path` and takes its name once whole (`close`), or
    is removed (`discard`)."""

    def __init__(self, path: Path, force: bool) -> None:
        if not path.name.lower().endswith((".tar", ".tar.gz", ".tgz")):
            raise click.UsageError(f"--output {path}: records are written to a folder or a .tar or .tar.gz archive")
        if not force and (path.exists() or path.is_symlink()):
            raise click.UsageError(f"{path} already exists: --force replaces it")
        self.partial = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            fd = _create(self.partial, True)
        except OSError as error:
            raise click.UsageError(f"{path}: {error.strerror or error}") from None
        self.force = force
        self.file = os.fdopen(fd, "wb")
        gzipped = path.name.lower().endswith((".gz", ".tgz"))
        self.archive = tarfile.open(fileobj=self.file, mode="w|gz" if gzipped else "w|")
        name = path.name
        for suffix in (".tar.gz", ".tgz", ".tar"):
            name = name.removesuffix(suffix)
        self.path, self.folder = path, name  # the members' folder: `corpus/` in corpus.tar.gz
        self.now = time.time()

    def target(self, name: str) -> Path:
        return self.path / self.folder / name

    def write(self, name: str, text: str) -> None:
        data = text.encode("utf-8")
        info = self.archive.tarinfo(f"{self.folder}/{name}")
        setattr(info, "mtime", self.now)  # (TarInfo's fields are set by name: vulture sees no reader of them)
        info.size, info.mode = len(data), 0o644
        self.archive.addfile(info, io.BytesIO(data))
        del self.archive.members[:]  # (tarfile keeps every member it wrote: let them go, memory stays flat)

    def close(self) -> None:
        try:
            self.archive.close()
            self.file.close()
        except OSError as error:  # the end of the stream could not be written (a full disk)
            self.discard()
            raise click.ClickException(f"{self.path}: {error.strerror or error}; nothing written") from None
        _put_in_place(self.partial, self.path, self.force)

    def discard(self) -> None:
        try:
            self.archive.close()  # (else tarfile ends the stream when collected: a write to a closed file)
        except (OSError, ValueError, tarfile.TarError):
            pass
        finally:
            self.file.close()
            self.partial.unlink(missing_ok=True)


def _put_in_place(partial: Path, path: Path, force: bool) -> None:
    """`partial`, whole, renamed `path`: replacing what is there with `force` (a symlink itself, never what it
    points to), else only when nothing is (a hard link fails on a name taken meanwhile)."""
    try:
        if force:
            os.replace(partial, path)
            return
        try:
            os.link(partial, path, follow_symlinks=False)
        except FileExistsError:
            raise click.ClickException(f"{path} was created meanwhile: refusing to replace it (--force replaces "
                                       "it)") from None
        except OSError:  # a file system without hard links
            if path.exists() or path.is_symlink():
                raise click.ClickException(f"{path} was created meanwhile: refusing to replace it (--force "
                                           "replaces it)") from None
            os.replace(partial, path)
    except OSError as error:
        raise click.ClickException(f"{path}: {error.strerror or error}") from None
    finally:
        partial.unlink(missing_ok=True)


def _read_back(text: str, source: str) -> None:
    """The strict reader takes what the importer writes (RecordError if not: a bug of ours)."""
    if parse_fast(text, source) is None:
        parse_record(text, source)


def convert(items) -> list[tuple[str, str | None, str | None]]:
    """(source, record text, None) for each game converted and read back, (source, None, problem) for the others."""
    out = []
    for record, found in items:
        if found is not None:
            out.append((found.game, None, str(found)))
            continue
        text = write_record(record)
        try:
            _read_back(text, record.source)
        except RecordError as error:  # a bug of ours, not of the source: say so, keep going
            out.append((record.source, None, f"{record.source}: the record written does not read back: {error}"))
            continue
        out.append((record.source, text, None))
    return out


def convert_lines(format_name: str, file_name: str, first: int, lines: list[bytes]) -> list:
    """`convert` for a chunk of a JSON Lines file's lines, line `first` first (the task of a worker process)."""
    module = FORMATS[format_name]
    games = (item for number, line in enumerate(lines, first) for item in module.read_line(file_name, number, line))
    return convert(to_records(games))


def _converted(format_name: str, files: tuple[Path, ...], executor):
    """(input path, source, record text, None) or (input path, source, None, problem) for every game, in order:
    here, or for the lines of JSON Lines files on `executor`'s processes, a few chunks in flight."""
    module = FORMATS[format_name]
    for path, data in _inputs(format_name, files):
        if isinstance(data, Exception):
            yield path, str(path), None, f"{path}: cannot be read: {getattr(data, 'strerror', None) or data}"
            continue
        if executor is None or data is not None or not hasattr(module, "read_line"):
            for source, text, found in convert(import_file(format_name, path, data)):
                yield path, source, text, found
            continue
        in_flight: collections.deque = collections.deque()
        number = 0
        try:
            chunk: list[bytes] = []
            for number, line in enumerate(file_lines(path), 1):
                chunk.append(line)
                if len(chunk) == LINES_PER_TASK:
                    in_flight.append(executor.submit(convert_lines, format_name, path.name, number - len(chunk) + 1,
                                                     chunk))
                    chunk = []
                    while len(in_flight) >= 2 * executor.workers:
                        yield from ((path, *item) for item in in_flight.popleft().result())
            if chunk:
                in_flight.append(executor.submit(convert_lines, format_name, path.name, number - len(chunk) + 1,
                                                 chunk))
        except (InputError, OSError) as error:
            reason = getattr(error, "strerror", None) or error
            problem = f"{path.name}, line {number + 1}: (file): {reason}"
            in_flight.append(Pending.done_with([(path.name, None, problem)]))
        while in_flight:
            yield from ((path, *item) for item in in_flight.popleft().result())




@contextlib.contextmanager
def _closing(output):
    """The output, closed (an archive: given its name) when the import ends well, else discarded."""
    try:
        yield output
    except BaseException:
        output.discard()
        raise
    output.close()


@click.command(name="import", epilog="Formats:\n\n\b\n" + _formats_help())
@click.argument("format_name", metavar="FORMAT", type=click.Choice(sorted(FORMATS)))
@click.argument("files", metavar="FILE|FOLDER|ARCHIVE...", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--output", "-o", "out_dir", type=click.Path(path_type=Path), required=True,
              help="Folder for the records (created if needed), one FILE-NNN.azr per game; or an archive to create "
                   "(.tar, .tar.gz) holding them, for big datasets.")
@click.option("--force", is_flag=True, help="Replace records already in the output folder, or the archive (without "
              "it, a folder that holds .azr files or an existing archive is refused).")
@click.option("--replay", "then_replay", is_flag=True,
              help="Then replay every record written, as `azul replay OUT_DIR` would.")
@click.option("--jobs", "-j", "workers", type=Number(int, 1, JOBS), default=1, show_default=True,
              help="Convert the games of JSON Lines files (faience) on this many processes; the records are "
                   "written here, in order.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems and the summary.")
def import_games(format_name: str, files: tuple[Path, ...], out_dir: Path, force: bool, then_replay: bool,
                 workers: int, quiet: bool) -> None:
    """Convert recorded games into annotated game records (.azr).

    Each record has the deals, the takes, the start player of each round as [%start s], the scores the
    source gives after each round as [%score ...], the final scores and winners as [%final ...] and
    [%winners ...], the rules in which the source is known to differ as [%differs RULE "how"], and headers
    naming the source. A game that lacks something a replay needs, or contradicts itself, is reported with
    the field at fault and skipped; the others are imported (exit status 1 if any was skipped).

    FILE may be a folder (searched for the format's files: .json and .json.gz for ludometer, .jsonl and
    .jsonl.gz for faience) or an archive of them (.tar, .tar.gz, .zip).

    \b
    Examples:
      azul import ludometer ../shared/engines/ludometer/web/player/test/fixtures/games.json.gz -o games/
      azul import faience dataset/games/2026-*/*.jsonl -o faience/ --replay
      azul import faience dataset.tar.gz -o faience.tar -q
      azul replay faience.tar -j 2
      azul replay games/
    """
    console = Console(stderr=True, highlight=False)
    if any(out_dir.resolve() == path.resolve() for path in files):
        raise click.UsageError(f"--output {out_dir} is one of the inputs")
    output = _Archive(out_dir, force) if is_archive(out_dir) and not out_dir.is_dir() else _Folder(out_dir, force)
    names = _Names()
    written = problems = 0
    # quiet: no progress line in a log either, only the problems and the summary (a terminal's live line leaves
    # nothing behind)
    progress = RunProgress(console, None, label="import", unit="game", bad_unit="problem",
                           plain_every=0 if quiet else None)

    def problem(message: str) -> None:
        nonlocal problems
        problems += 1
        progress.count(written + problems, problems)
        console.print(message, markup=False, soft_wrap=True)

    executor = fuzzing.LocalExecutor(workers) if workers > 1 else None

    def kept() -> str:
        return "nothing written" if isinstance(output, _Archive) else f"{written} records written before it"

    try:
        with progress, _closing(output):
            for path, source, text, found in _converted(format_name, files, executor):
                if found is not None:
                    problem(f"skipped {found}")
                    continue
                name = names.name(path, source)
                target = output.target(name)
                try:
                    output.write(name, text)
                except FileExistsError:
                    raise click.ClickException(f"{target} already exists: refusing to replace it (--force "
                                               f"replaces it); {kept()}") from None
                except OSError as error:
                    raise click.ClickException(f"{target}: {error.strerror or error}; {kept()}") from None
                written += 1
                progress.count(written + problems, problems)
                if not quiet:
                    console.print(f"wrote {target} ({source})", markup=False, soft_wrap=True)
    except WorkerLost as lost:
        raise click.ClickException(f"a worker process converting games died (exit status {lost.ended.exit_code}): "
                                   f"{out_dir}: {kept()}") from None
    finally:
        if executor is not None:
            executor.close()
    if not written and not problems:  # an empty file or a folder without the format's files: not a clean import
        raise click.ClickException(f"no {format_name} game in {', '.join(map(str, files))} (a folder is searched for "
                                   f"{' and '.join(FORMATS[format_name].SUFFIXES)} files)")
    click.echo(f"{written} game{'' if written == 1 else 's'} imported into {out_dir}, {problems} skipped.")
    if then_replay and written:
        if not replay_batch([out_dir], quiet).ok:
            raise SystemExit(1)
    if problems:
        raise SystemExit(1)
