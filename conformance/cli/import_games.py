"""`azul import`: games recorded by other software, written as game records (.azr) that `azul replay` checks."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from azul_conformance.importers import FORMATS, import_file
from azul_conformance.records import RecordError, parse_record, write_record
from ..cli.replay import replay_batch


def _formats_help() -> str:
    return "\n".join(f"  {name:<10} {module.SUMMARY}" for name, module in FORMATS.items())


def _file_name(stem: str, source: str) -> str:
    """`games-007.azr` for "games.json.gz, game 7": the game's number in its file, zero-padded to sort."""
    number = source.rsplit(" ", 1)[-1]
    return f"{stem}-{int(number):03d}.azr" if number.isdigit() else f"{stem}.azr"


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (".json.gz", ".jsonl", ".json", ".gz"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


@click.command(name="import", epilog="Formats:\n\n\b\n" + _formats_help())
@click.argument("format_name", metavar="FORMAT", type=click.Choice(sorted(FORMATS)))
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--output", "-o", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the records (created if needed); one FILE-NNN.azr per game.")
@click.option("--replay", "then_replay", is_flag=True,
              help="Then replay every record written, as `azul replay OUT_DIR` would.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems and the summary.")
def import_games(format_name: str, files: tuple[Path, ...], out_dir: Path, then_replay: bool, quiet: bool) -> None:
    """Convert recorded games into annotated game records (.azr).

    Each record has the deals, the takes, the start player of each round as [%start s], the scores the
    source gives after each round as [%score ...], the final scores and winners as [%final ...] and
    [%winners ...], the rules in which the source is known to differ as [%differs RULE "how"], and headers
    naming the source. A game that lacks something a replay needs, or contradicts itself, is reported with
    the field at fault and skipped; the others are imported (exit status 1 if any was skipped).

    \b
    Examples:
      azul import ludometer ../shared/engines/ludometer/web/player/test/fixtures/games.json.gz -o games/
      azul import faience dataset/games/2026-*/*.jsonl -o faience/ --replay
      azul replay games/
    """
    console = Console(stderr=True, highlight=False)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    problems = 0
    for path in files:
        for record, problem in import_file(format_name, path):
            if problem is not None:
                problems += 1
                console.print(f"skipped {problem}", markup=False, soft_wrap=True)
                continue
            text = write_record(record)
            target = out_dir / _file_name(_stem(path), record.source)
            try:
                parse_record(text, str(target))  # the strict reader takes what the importer writes
            except RecordError as error:  # a bug of ours, not of the source: say so, keep going
                problems += 1
                console.print(f"skipped {record.source}: the record written does not read back: {error}",
                              markup=False, soft_wrap=True)
                continue
            target.write_text(text, encoding="utf-8")
            written.append(target)
            if not quiet:
                console.print(f"wrote {target} ({record.source})", markup=False, soft_wrap=True)
    click.echo(f"{len(written)} game{'' if len(written) == 1 else 's'} imported into {out_dir}, {problems} skipped.")
    if then_replay and written:
        if not replay_batch(written, quiet).ok:
            raise SystemExit(1)
    if problems:
        raise SystemExit(1)
