"""Hostile-input fuzzing of every reader of documents we did not write (and of the protocol server) (used by
tests/test_file_fuzz.py and by benchmarks/fuzz_files.py): a seed file per reader, hypothesis strategies that
mutate it, and a check that a reader either reads the text or raises its own located error: never anything else.
"""

from __future__ import annotations

import json
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from hypothesis import strategies as st

from hostile_runs import state_seed

# A well-formed scenario for the hostile-file tests to bend.
BASE_SCENARIO = """\
- id: hostile-base
  title: a well-formed scenario to bend
  rules: [OFFER-1]
  level: rule
  given: |
    factories:
      1: BBYR
  steps: |
    1B1
  expect: |
    board 0 line 1 = B
"""

# Fragments that have broken readers before: YAML aliases and anchors, deep nesting, huge numbers and counts,
# NaN, control characters, a lone surrogate escape, markup, a byte-order mark.
HOSTILE = ["&a [x, x]", "*a", "[" * 200, "{" * 200, "9" * 5000, "400000000B", "NaN", "1e400", "\x00", "\x1b[2J",
           "\\ud800", "\ud800", "<script>", "```", "\ufeff", "\t", "\r", "- - - -", ": :", "'", '"', "#", "|", "\\",
           "M", "@", "->", "[%score 9 9]", "{", "}", "\n\n"]


def mutate(seed: str, rnd: random.Random) -> str:
    """A text near `seed`: one to four edits, each a replacement, insertion or deletion of a short piece, or a
    line repeated."""
    text = seed
    for _ in range(rnd.randint(1, 4)):
        text = _edit(text, rnd)
    return text


def _edit(text: str, rnd: random.Random) -> str:
    at = rnd.randrange(len(text) + 1)
    kind = rnd.randrange(4)
    piece = rnd.choice(HOSTILE) if rnd.random() < 0.5 else "".join(
        chr(rnd.choice([rnd.randrange(32, 127), rnd.randrange(0, 32), rnd.randrange(0x80, 0x3000)]))
        for _ in range(rnd.randrange(1, 6)))
    if kind == 0:
        return text[:at] + piece + text[at:]
    if kind == 1:
        return text[:at] + text[at + rnd.randrange(1, 20):]
    if kind == 2:
        return text[:at] + piece + text[at + len(piece):]
    lines = text.splitlines(keepends=True)
    if not lines:
        return piece
    i = rnd.randrange(len(lines))
    return "".join(lines[:i] + [lines[i]] * rnd.randrange(2, 40) + lines[i + 1:])


def mutations(seed: str) -> st.SearchStrategy[str]:
    """`mutate` as a hypothesis strategy (the random seed is drawn, so failures replay)."""
    return st.integers(0, 2**32 - 1).map(lambda n: mutate(seed, random.Random(n)))


@dataclass(frozen=True)
class Reader:
    """One reader under fuzz: where its seed comes from, how to call it, which errors are its own."""

    seed: Callable[[], str]
    read: Callable[[str], object]
    own_errors: tuple[type[BaseException], ...]

    def check(self, text: str, must_read: bool = False) -> None:
        try:
            self.read(text)
        except self.own_errors as error:
            if must_read:
                raise AssertionError(f"the seed itself was refused: {error}") from None
            located = str(error)
            assert located.strip(), "an error without a message"
        except Exception as error:  # noqa: BLE001 - this is what the fuzzer looks for
            raise AssertionError(f"{type(error).__name__} instead of a located error: {error!r}"[:500]) from error


def _scenario_seed() -> str:
    from azul_conformance.scenario.loader import scenario_files

    return min(scenario_files(), key=lambda p: p.stat().st_size).read_text(encoding="utf-8")


def _read_scenarios(text: str) -> object:
    from azul_conformance.scenario.loader import load_text

    return load_text(text, "fuzz.yaml")


def _record_seed() -> str:
    from azul_conformance.records import sample_paths

    return sample_paths()[0].read_text(encoding="utf-8")


def _read_record(text: str) -> object:
    from azul_conformance.records import parse_record

    return parse_record(text, "fuzz.azr")


def _read_record_both_ways(text: str) -> object:
    """The fast reader gives what the grammar gives, or defers (None); where the grammar refuses, it defers."""
    from azul_conformance.records import RecordSyntaxError, parse_record
    from azul_conformance.records.fast_parse import parse_fast

    fast = parse_fast(text, "fuzz.azr")
    try:
        slow = parse_record(text, "fuzz.azr")
    except RecordSyntaxError:
        assert fast is None, "the fast reader took a text the grammar refuses"
        raise
    assert fast is None or fast == slow, "the fast reader read a text otherwise than the grammar"
    return slow


def _judge_record(text: str) -> object:
    """`azul replay` over a folder: a verdict for any bytes, the same as the readable path's."""
    from azul_conformance.records.batch import judge, judge_readably

    data = text.encode("utf-8", "surrogatepass")
    verdict = judge("fuzz.azr", data)
    if verdict.verdict != "invalid" or "UTF-8" not in verdict.details.get("message", ""):
        assert verdict == judge_readably("fuzz.azr", data.decode("utf-8")), "the fast path judged otherwise"
    return verdict


def _ludometer_seed() -> str:
    fixture = {"games": [{"moves": [{"state": {"round": 0, "first_player": 0, "current_player": 0, "scores": [0, 0],
                                               "factories": [[1, 1, 1, 1, 0], [0, 2, 0, 1, 1], [0, 0, 2, 1, 1],
                                                             [3, 0, 0, 1, 0], [0, 1, 1, 0, 2]]},
                                     "action": 93, "legal": [93]}],
                          "scores": [0, 0], "outcome": 0.0, "rounds": 1, "seed": 4}]}
    return json.dumps(fixture)


def _faience_seed() -> str:
    return (Path(__file__).resolve().parent / "fixtures" / "faience" / "sample.jsonl").read_text(encoding="utf-8")


def _importer(format_name: str, suffix: str) -> Callable[[str], object]:
    def read(text: str) -> object:
        """Every game a record or a problem (ImportProblem), never an exception, and what is imported reads back."""
        from azul_conformance.importers import ImportProblem, import_file
        from azul_conformance.records import parse_record, write_record

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"fuzz{suffix}"
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            out = list(import_file(format_name, path))
        for record, problem in out:
            assert (record is None) != (problem is None) and (problem is None or isinstance(problem, ImportProblem))
            if record is not None:
                parse_record(write_record(record))
        return out
    return read


def _state_seed() -> str:
    from azul_reference import Game, to_state

    game = Game(2)
    game.deal(rng=random.Random(1))
    game.play(str(game.legal_moves()[0]))
    return json.dumps(to_state(game), indent=1)


def _read_state(text: str) -> object:
    from azul_reference import from_state

    from azul_conformance.readers import json_document

    return from_state(json_document(text))


def _report_seed() -> str:
    root = Path(__file__).resolve().parent.parent / "docs" / "reports" / "reference" / "report.jsonl"
    if root.exists():
        return "\n".join(root.read_text(encoding="utf-8").splitlines()[:6]) + "\n"
    return '{"type": "header", "engine": {"name": "x"}}\n{"type": "case", "id": "a", "verdict": "pass"}\n'


def _read_report(text: str) -> object:
    from azul_conformance.harness import read_report

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        return read_report(path)


def _read_fuzz_state(text: str) -> object:
    """A state file read back as `azul fuzz` resumes it, then its findings reported as after the campaign
    (counterexamples written, nothing shrunk): a state the reader takes must not crash the report."""
    from azul_conformance.fuzz.campaign import CampaignSpec, close_engines
    from azul_conformance.fuzz.report import results_of
    from azul_conformance.fuzz.state import StateFile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz-state.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        state = StateFile(path, CampaignSpec())
        try:
            results = results_of(state.spec, state.findings, str(Path(folder) / "counterexamples"), 0)
        finally:
            state.close()
            close_engines()
        assert all(Path(folder) in Path(p).parents for p in Path(folder).rglob("*"))
        return results


def _read_compare(text: str) -> object:
    """An earlier report as `azul conform --compare` takes it, then compared and printed as after the run."""
    import io

    from rich.console import Console

    from azul_conformance.harness.report import compare
    from azul_conformance.harness.session import earlier_report
    from azul_conformance.harness.terminal import print_comparison
    from azul_conformance.results import CaseKind, CaseResult, Verdict

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "old.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        old, problem = earlier_report(str(path))
    if old is not None:
        new = [CaseResult("setup-new-game-two-players", CaseKind.SCENARIO, Verdict.FAIL)]
        print_comparison(Console(file=io.StringIO()), compare(old.results, new), str(path))
    return problem


def _recording_seed() -> str:
    """The header and the first case of a committed recording, as plain JSON lines (a recording may be plain)."""
    import gzip

    path = Path(__file__).resolve().parent.parent / "docs" / "reports" / "azul-ai-go" / "recording.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        lines = [handle.readline() for _ in range(12)]
    return "".join(lines)


def _play_recording(text: str) -> object:
    """A recording read as `azul conform --recording` reads it, then each case's recorded requests asked again:
    every answer is the recorded one, a recorded error, or the case's not being recorded."""
    from azul_conformance.engines.base import EngineError
    from azul_conformance.engines.recording import NotInRecording, Playback, read_recording

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "recording.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        recording = read_recording(str(path))
    engine = Playback(recording)
    for case, tape in list(recording.cases.items())[:3]:
        engine.begin_case(case)
        for _, raw in tape.lines:
            request = json.loads(raw)["request"]
            ask = {"restart": engine.restart, "hello": engine.hello,
                   "new_game": lambda r=request: engine.new_game(r.get("players"), r.get("variant"),
                                                                 r.get("start_player")),
                   "deal": lambda r=request: engine.deal(r.get("factories")),
                   "load_state": lambda r=request: engine.load_state(r.get("state")),
                   "legal_moves": engine.legal_moves, "state": engine.state,
                   "play": lambda r=request: engine.play(r.get("move")),
                   "play_game": lambda r=request: engine.play_game(
                       r.get("players"), r.get("variant"), r.get("start_player"), r.get("steps") or [],
                       r.get("states") or [], bool(r.get("moves")))}.get(request["cmd"])
            try:
                if ask is not None:
                    ask()
            except (EngineError, NotInRecording):
                pass
        engine.end_case()
    return recording


def _diagnose_seed() -> str:
    """A small report with one failing case (a misreading of FLOOR-3 served over the protocol)."""
    return (Path(__file__).resolve().parent / "fixtures" / "reports" / "one-misreading.jsonl").read_text(
        encoding="utf-8")


def _diagnose_report(text: str) -> object:
    """`azul diagnose --write` on the report: exit 0 or 1 with what it did, or 2 with why it cannot, never a
    traceback; nothing written outside the folder, and a rewrite never holds fewer cases than the file had."""
    from click.testing import CliRunner

    from azul_conformance.cli.diagnose import diagnose

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        rows = text.count('"type":"case"')
        result = CliRunner().invoke(diagnose, [folder, "-j", "1", "--write"])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert result.exit_code in (0, 1, 2), result.output
        assert {p.parent for p in Path(folder).rglob("*")} <= {Path(folder), Path(folder) / "counterexamples"}
        if "rewritten" in result.output:
            assert path.read_text(encoding="utf-8").count('"type":"case"') >= rows - 1, result.output
        return result.output


def _request_seed() -> str:
    return json.dumps({"id": 7, "cmd": "deal", "factories": ["BBYR", "YYRK", "KKWW", "BRKW", "BYRW"]})


_PROTOCOL = {}


def _answer_request(text: str) -> object:
    """The reference server's answer to one mutated request line, after a game was set up: always a reply, in
    strict JSON, with an integer, string or null id."""
    from azul_reference.protocol import Server, reply_to

    server = _PROTOCOL.setdefault("server", Server(seed=1))
    reply_to(server, b'{"id": 1, "cmd": "new_game", "players": 2}')
    reply = reply_to(server, text.encode("utf-8", "surrogatepass"))
    if reply is None:  # quit
        return None
    line = json.dumps(reply, allow_nan=False)
    assert reply["id"] is None or isinstance(reply["id"], (int, str)) and not isinstance(reply["id"], bool), line
    return reply


def _own_errors() -> dict[str, tuple[type[BaseException], ...]]:
    from azul_reference import AzulError

    from azul_conformance.fuzz.campaign import CampaignError
    from azul_conformance.readers import JsonError
    from azul_conformance.records import RecordError
    from azul_conformance.scenario.errors import ScenarioError

    from azul_conformance.engines.recording import RecordingError

    return {"scenario": (ScenarioError,), "record": (RecordError,), "state": (JsonError, AzulError),
            "report": (), "fuzz-state": (CampaignError,), "recording": (RecordingError,)}


def _readers() -> dict[str, Reader]:
    own = _own_errors()
    return {
        "scenario": Reader(_scenario_seed, _read_scenarios, own["scenario"]),
        "record": Reader(_record_seed, _read_record, own["record"]),
        "record-fast": Reader(_record_seed, _read_record_both_ways, own["record"]),
        "record-replay": Reader(_record_seed, _judge_record, ()),  # never raises: every record gets a verdict
        "import-ludometer": Reader(_ludometer_seed, _importer("ludometer", ".json"), ()),
        "import-faience": Reader(_faience_seed, _importer("faience", ".jsonl"), ()),
        "state": Reader(_state_seed, _read_state, own["state"]),
        "report": Reader(_report_seed, _read_report, own["report"]),  # never raises: problems are listed
        "protocol": Reader(_request_seed, _answer_request, ()),  # never raises: every line gets a reply
        "fuzz-state": Reader(state_seed, _read_fuzz_state, own["fuzz-state"]),
        "compare": Reader(_report_seed, _read_compare, ()),  # never raises: what is wrong is returned
        "recording": Reader(_recording_seed, _play_recording, own["recording"]),
        "diagnose": Reader(_diagnose_seed, _diagnose_report, ()),  # never raises: a verdict or a refusal
    }


READERS = _readers()


def gzip_bomb(path: Path, inflated: int, newlines: bool = False) -> Path:
    """A small gzip file that inflates to `inflated` bytes of zeros (or of newlines), written without holding them."""
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = (b"\n" if newlines else b"\0") * 2**20
    with path.open("wb") as out:
        for _ in range(inflated // len(block)):
            out.write(packer.compress(block))
        out.write(packer.flush())
    return path
