"""`azul publish`: a report folder (`azul conform --report-dir`) into the docs, as its engine's published report.

The folder's files are copied to docs/reports/NAME/ beside a `published.yaml` saying who the engine is (the name
given, its home, licence and version) and when it was published. The site's build (docs/hooks) then gives the
engine its row in the conformance matrix, named NAME and judged "published", and its full report a page in the
navigation. A folder that an adapter's run writes (one without `published.yaml`) is never overwritten."""

from __future__ import annotations

import datetime
import re
import shutil
from pathlib import Path

import yaml

from azul_conformance import readers
from azul_conformance.harness.report import engine_title, read_report

NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")  # a folder name and a URL part, as the committed reports' are
MARK = "published.yaml"
# What a report folder holds that its page links to or CI can judge again; anything else is left behind.
FILES = ("report.jsonl", "report.md", "junit.xml", "recording.jsonl.gz")
FOLDERS = ("counterexamples",)


class PublishError(Exception):
    """A report folder that cannot be published, or a target that must not be overwritten: the message says which."""


def publish(source: Path, docs: Path, name: str, upstream: str = "", licence: str = "", version: str = "") -> Path:
    """Copy the report folder `source` to `docs`/reports/`name` with its published.yaml; the folder written."""
    if not NAME.match(name):
        raise PublishError(f"--name {name!r}: lower-case letters, digits and '-', starting with a letter or digit "
                           "(it names the report's folder and page)")
    for needed in ("report.jsonl", "report.md"):
        if not (source / needed).is_file():
            raise PublishError(f"{source / needed}: missing; `azul conform --report-dir {source}` writes it")
    report = read_report(source / "report.jsonl")
    if report.problems or not report.header or not report.results:
        said = "; ".join(report.problems[:3]) or "no header or no case"
        raise PublishError(f"{source / 'report.jsonl'}: not a whole conformance report ({said})")
    target = docs / "reports" / name
    if target.exists() and not (target / MARK).is_file():
        raise PublishError(f"{target}: already holds a report that was not published by `azul publish` (an "
                           "adapter's, which adapters/run_all.py writes): choose another --name")
    if not (docs / "reports").is_dir():
        raise PublishError(f"{docs / 'reports'}: no such folder: --docs names the site's docs folder")
    if target.exists():
        shutil.rmtree(target)  # published before: replaced whole, so no file of the old report stays
    target.mkdir()
    for file in FILES:
        if (source / file).is_file():
            shutil.copyfile(source / file, target / file)
    for folder in FOLDERS:
        if (source / folder).is_dir():
            shutil.copytree(source / folder, target / folder)
    about = {"name": name, "engine": engine_title(report.header), "upstream": upstream, "licence": licence,
             "version": version, "published": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
             "cases": len(report.results)}
    (target / MARK).write_text(yaml.safe_dump({k: v for k, v in about.items() if v != ""}, sort_keys=False,
                                              allow_unicode=True), encoding="utf-8")
    return target


def read_published(folder: Path) -> dict | None:
    """A report folder's published.yaml, read (None where there is none); a damaged one raises PublishError."""
    path = folder / MARK
    if not path.is_file():
        return None
    try:
        data = readers.load(readers.read_file(path, 1 << 16).decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError, readers.InputError, OSError) as error:
        raise PublishError(f"{path}: cannot be read: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise PublishError(f"{path}: not what `azul publish` writes (a mapping with a `name`)")
    return {key: str(value) for key, value in data.items()}
