"""`azul import`: games recorded by other software, written as game records (.azr) that `azul replay` checks.

Files, folders (searched for the format's files) and archives of them are read one file, and for JSON Lines one
game, at a time, so memory stays flat however big the dataset. Every record written is read back by the strict
reader first (the fast reader, the grammar where it defers). Nothing in the output folder is replaced without
--force, and nothing there is followed: a record is created as a new file (O_EXCL), never written through a
symlink; two inputs whose names would give the same record get distinct names (`games.2-001.azr`).
"""

from __future__ import annotations

import os
from pathlib import Path

import click
from rich.console import Console

from azul_conformance.harness.progress import RunProgress
from azul_conformance.importers import FORMATS, import_file
from azul_conformance.readers import dataset_files, folder_files, is_archive
from azul_conformance.records import RecordError, parse_record, write_record
from azul_conformance.records.fast_parse import parse_fast

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
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags, 0o644)
    except FileExistsError:
        if not force:
            raise
        os.unlink(target)
        fd = os.open(target, flags, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)


def _read_back(text: str, source: str) -> None:
    """The strict reader takes what the importer writes (RecordError if not: a bug of ours)."""
    if parse_fast(text, source) is None:
        parse_record(text, source)


@click.command(name="import", epilog="Formats:\n\n\b\n" + _formats_help())
@click.argument("format_name", metavar="FORMAT", type=click.Choice(sorted(FORMATS)))
@click.argument("files", metavar="FILE|FOLDER|ARCHIVE...", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--output", "-o", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the records (created if needed); one FILE-NNN.azr per game.")
@click.option("--force", is_flag=True, help="Replace records already in the output folder (without it, a folder "
              "that holds .azr files is refused).")
@click.option("--replay", "then_replay", is_flag=True,
              help="Then replay every record written, as `azul replay OUT_DIR` would.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems and the summary.")
def import_games(format_name: str, files: tuple[Path, ...], out_dir: Path, force: bool, then_replay: bool,
                 quiet: bool) -> None:
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
      azul import faience dataset.tar.gz -o faience/ -q
      azul replay games/
    """
    console = Console(stderr=True, highlight=False)
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise click.UsageError(f"--output {out_dir} must be a folder (not a symlink)")
    if not force and out_dir.is_dir() and any(out_dir.glob("*.azr")):
        raise click.UsageError(f"{out_dir} already holds records: give an empty or new folder, or --force to "
                               f"replace the records it holds")
    out_dir.mkdir(parents=True, exist_ok=True)
    names = _Names()
    written = problems = 0
    progress = RunProgress(console, None, label="import", unit="game", bad_unit="problem")

    def problem(message: str) -> None:
        nonlocal problems
        problems += 1
        progress.count(written + problems, problems)
        console.print(message, markup=False, soft_wrap=True)

    with progress:
        for path, data in _inputs(format_name, files):
            if isinstance(data, Exception):
                problem(f"skipped {path}: cannot be read: {getattr(data, 'strerror', None) or data}")
                continue
            for record, found in import_file(format_name, path, data):
                if found is not None:
                    problem(f"skipped {found}")
                    continue
                text = write_record(record)
                target = out_dir / names.name(path, record.source)
                try:
                    _read_back(text, str(target))
                except RecordError as error:  # a bug of ours, not of the source: say so, keep going
                    problem(f"skipped {record.source}: the record written does not read back: {error}")
                    continue
                try:
                    write_new(target, text, force)
                except FileExistsError:
                    raise click.ClickException(f"{target} already exists: refusing to replace it (--force "
                                               f"replaces it); {written} records written before it") from None
                except OSError as error:
                    raise click.ClickException(f"{target}: {error.strerror or error}; {written} records written "
                                               f"before it") from None
                written += 1
                progress.count(written + problems, problems)
                if not quiet:
                    console.print(f"wrote {target} ({record.source})", markup=False, soft_wrap=True)
    click.echo(f"{written} game{'' if written == 1 else 's'} imported into {out_dir}, {problems} skipped.")
    if then_replay and written:
        from azul_conformance.cli.replay import replay_batch

        if not replay_batch([out_dir], quiet).ok:
            raise SystemExit(1)
    if problems:
        raise SystemExit(1)
