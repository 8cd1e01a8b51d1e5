"""`azul publish`: a report folder into the docs, as its engine's page and matrix row."""

from __future__ import annotations

from pathlib import Path

import click

from azul_conformance.harness.publish import PublishError, publish as publish_folder


@click.command()
@click.argument("report_dir", type=click.Path(file_okay=False, exists=True), metavar="REPORT_DIR")
@click.option("--name", required=True, help="The engine's short name: the report's folder, page and matrix row "
                                            "(lower-case letters, digits, '-').")
@click.option("--upstream", default="", help="The engine's home (its repository or registry page).")
@click.option("--licence", default="", help="The engine's licence.")
@click.option("--version", "version", default="", help="The engine's version or commit the report judged.")
@click.option("--docs", type=click.Path(file_okay=False), default="docs", show_default=True,
              help="The site's docs folder (the report goes to DOCS/reports/NAME/).")
def publish(report_dir: str, name: str, upstream: str, licence: str, version: str, docs: str) -> None:
    """Publish a report folder (`azul conform --report-dir REPORT_DIR`) on the site.

    Copies its report.jsonl, report.md, junit.xml, recording and counterexamples to DOCS/reports/NAME/ with a
    published.yaml naming the engine. The next `mkdocs build` shows it as a row of the conformance matrix,
    named NAME and judged "published", and its full report as a page in the navigation, each failing case with
    the engine's boards beside the expected ones. Publishing again under the same NAME replaces it; a folder
    an adapter's run writes is never overwritten.

    \b
    Examples:
      azul conform --engine "./my-engine" --report-dir reports
      azul publish reports --name my-engine --upstream https://example.org/my-engine --licence MIT
      azul publish reports --name my-engine --docs path/to/docs    # another site's docs folder
    """
    try:
        target = publish_folder(Path(report_dir), Path(docs), name, upstream, licence, version)
    except PublishError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"published {report_dir} as {target}; build the site (mkdocs build --strict) to see its page and "
               "its row in the conformance matrix")
