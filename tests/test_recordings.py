"""Recorded engine sessions (conformance/engines/recording.py): `azul conform --record FILE` writes every exchange
with the engine while the run goes; `azul conform --recording FILE` judges the recording as the engine, giving
the live run's verdicts where the suite asks what was recorded, and `not_run` (never a pass) where it does not."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli.conform import conform
from azul_conformance.engines.recording import (FORMAT, Recorder, RecordingError, first_difference, read_recording,
                                                  start_recording)
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.readers import public_text
from azul_conformance.harness.report import read_report

ROOT = Path(__file__).resolve().parents[1]
SERVE = f"{sys.executable} -c 'from azul_conformance.cli import main; main()' serve"
FAKES = ROOT / "tests" / "fake_engines"
# a misreading gives failing cases, a diagnosis and counterexamples; the properties play random games
MISREAD = f"{SERVE} --misreading floor-penalties-flat"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(conform, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def verdicts(folder: Path) -> dict[str, str]:
    return {r.id: str(r.verdict) for r in read_report(folder / "report.jsonl").results}


def lines(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def write(path: Path, records: list[dict]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(record) + "\n" for record in records)
    return path


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, Path]:
    """A live run of a misreading reference over the protocol, on two engine processes, recorded."""
    folder = tmp_path_factory.mktemp("live")
    recording = folder / "session.jsonl.gz"
    status, output = run("--engine", MISREAD, "--report-dir", str(folder / "report"), "--examples", "4",
                         "--seed", "3", "-j", "2", "--record", str(recording), "--record-about",
                         "upstream=https://example.org/engine", "--record-about", "commit=abc123")
    assert status == 1, output  # the misreading fails cases
    return recording, folder / "report"


def test_a_recording_judged_again_gives_the_live_verdicts_case_for_case(recorded, tmp_path):
    recording, live = recorded
    status, output = run("--recording", str(recording), "--report-dir", str(tmp_path), "-j", "2")
    assert status == 1
    before, after = verdicts(live), verdicts(tmp_path)
    assert after == before and "fail" in before.values() and "pass" in before.values()
    # the same deviations, diagnosed from the recorded answers
    assert read_report(live / "report.jsonl").footer["summary"] == read_report(tmp_path / "report.jsonl").footer[
        "summary"]
    # and the report says where its answers came from, in every format
    assert "judged from the recording" in output.lower() and "abc123" in output
    header = read_report(tmp_path / "report.jsonl").header
    assert header["recording"]["file"] == str(recording) and header["recording"]["upstream"].endswith("/engine")
    assert header["seed"] == 3 and header["examples"] == 4  # taken from the recording
    assert "Judged from the recording" in (tmp_path / "report.md").read_text()


def test_the_recording_holds_a_header_then_each_exchange_under_its_case(recorded):
    recording, live = recorded
    records = lines(recording)
    header = records[0]
    # the command as the header shows it: paths in the repository relative to it (readers.public_text)
    assert header["format"] == FORMAT and header["command"] == public_text(MISREAD) and header["seed"] == 3
    assert header["hello"]["name"] == "azul-reference" and header["commit"] == "abc123" and header["date"]
    cases = {record["case"] for record in records[1:]}
    assert cases == set(verdicts(live)) - {case for case, verdict in verdicts(live).items() if verdict == "skip"}
    refused = [r for r in records[1:] if "error" in r]
    assert refused and all(r["error"]["kind"] == "rejected" for r in refused)
    ends = [r for r in records[1:] if "ended" in r]
    assert len(ends) == len(cases)  # every case finished


def test_a_case_missing_from_the_recording_is_not_run_never_a_pass(recorded, tmp_path):
    recording, live = recorded
    passing = next(case for case, verdict in verdicts(live).items()
                   if verdict == "pass" and case.startswith("floor"))
    cut = write(tmp_path / "cut.jsonl.gz", [r for r in lines(recording) if r.get("case") != passing])
    run("--recording", str(cut), "--report-dir", str(tmp_path / "out"), "--only", "FLOOR", "-j", "1")
    after = read_report(tmp_path / "out" / "report.jsonl")
    result = next(r for r in after.results if r.id == passing)
    assert str(result.verdict) == "not_run" and "holds no case" in result.message
    assert {r.id: str(r.verdict) for r in after.results if r.id != passing} == {
        case: verdict for case, verdict in verdicts(live).items() if case in {r.id for r in after.results} and
        case != passing}


def test_a_request_that_differs_is_not_run_naming_the_request_and_the_field(recorded, tmp_path):
    recording, _ = recorded
    records = lines(recording)
    target = next(r for r in records[1:] if r.get("request", {}).get("cmd") == "play")
    case = target["case"]
    target["request"]["move"] = "5K5" if target["request"]["move"] != "5K5" else "4K4"
    edited = write(tmp_path / "edited.jsonl.gz", records)
    run("--recording", str(edited), "--report-dir", str(tmp_path / "out"), "--only", case, "-j", "1")
    result = read_report(tmp_path / "out" / "report.jsonl").results[0]
    assert str(result.verdict) == "not_run"
    assert "differs from the recording" in result.message and "move:" in result.message


def test_a_case_that_asks_less_than_was_recorded_is_not_run(recorded, tmp_path):
    recording, _ = recorded
    records = lines(recording)
    case = next(r["case"] for r in records[1:] if r.get("request", {}).get("cmd") == "play" and
                not r["case"].startswith("property"))
    extra = [r for r in records if r.get("case") == case and "request" in r][-1]
    at = max(i for i, r in enumerate(records) if r.get("case") == case and "request" in r)
    records.insert(at + 1, extra)
    for record in records:
        if record.get("case") == case and "ended" in record:
            record["ended"] += 1
    longer = write(tmp_path / "longer.jsonl.gz", records)
    run("--recording", str(longer), "--report-dir", str(tmp_path / "out"), "--only", case, "-j", "1")
    result = read_report(tmp_path / "out" / "report.jsonl").results[0]
    assert str(result.verdict) == "not_run" and "the recording holds" in result.message


def test_crashes_are_recorded_and_judged_again_as_crashes(tmp_path):
    recording = tmp_path / "crash.jsonl.gz"
    engine = f"{sys.executable} {FAKES / 'crash_midgame.py'}"
    run("--engine", engine, "--only", "OFFER", "--no-properties", "-j", "1", "--record", str(recording),
        "--report-dir", str(tmp_path / "live"))
    live = verdicts(tmp_path / "live")
    assert "crash" in live.values()
    run("--recording", str(recording), "--report-dir", str(tmp_path / "again"), "-j", "1", "--only", "OFFER",
        "--no-properties")
    assert verdicts(tmp_path / "again") == live
    crashed = [r for r in lines(recording) if r.get("error", {}).get("kind") == "crash"]
    assert crashed and "fell off the table" in crashed[0]["error"]["stderr"]
    assert any(r.get("request", {}).get("cmd") == "restart" for r in lines(recording))


# -- bad input: a clear error naming the file and line, exit 2, nothing run --------------------------------

def _refused(tmp_path: Path, path: Path, *words: str) -> None:
    result = CliRunner().invoke(conform, ["--recording", str(path), "--report-dir", str(tmp_path / "out")])
    assert result.exit_code != 0 and not isinstance(result.exception, (TypeError, KeyError, AttributeError))
    for word in words:
        assert word in result.output, result.output
    assert "Traceback" not in result.output


def test_a_recording_that_is_not_one_is_refused(recorded, tmp_path):
    _, live = recorded
    _refused(tmp_path, live / "report.jsonl", "report.jsonl:1", "not an engine recording", "a conformance report")
    plain = tmp_path / "plain.txt"
    plain.write_text("hello\n")
    _refused(tmp_path, plain, "plain.txt:1:1", "not valid JSON")
    empty = tmp_path / "empty.gz"
    empty.write_bytes(b"")
    _refused(tmp_path, empty, "empty")


def test_wrong_typed_lines_are_refused_with_their_line(recorded, tmp_path):
    recording, _ = recorded
    records = lines(recording)
    for number, change in ((2, {"case": 5}), (3, {"request": "play"}), (2, {"reply": {"state": []}}),
                           (3, {"error": {"kind": "crash", "exit_code": "x"}})):
        bad = [dict(r) for r in records[:6]]
        bad[number - 1].update(change)
        if "error" in change:
            bad[number - 1].pop("reply", None)
        path = write(tmp_path / f"bad{number}.jsonl.gz", bad)
        _refused(tmp_path, path, f"bad{number}.jsonl.gz:{number}")
    hello = [dict(records[0], hello={"name": 1})] + records[1:3]
    _refused(tmp_path, write(tmp_path / "hello.jsonl.gz", hello), "hello.jsonl.gz:1", "hello")


def test_a_case_recorded_in_two_places_is_refused(recorded, tmp_path):
    recording, _ = recorded
    records = lines(recording)
    first = records[1]["case"]
    other = next(r for r in records[1:] if r["case"] != first)
    again = records + [other, dict(records[1])]
    _refused(tmp_path, write(tmp_path / "twice.jsonl.gz", again), "recorded again")


def test_a_torn_recording_keeps_the_cases_before_the_tear(recorded, tmp_path):
    recording, live = recorded
    data = recording.read_bytes()
    torn = tmp_path / "torn.jsonl.gz"
    torn.write_bytes(data[: len(data) * 2 // 3])
    read = read_recording(str(torn))
    assert read.problem and "torn" in read.problem and 0 < len(read.cases) < len(verdicts(live))
    status, output = run("--recording", str(torn), "--report-dir", str(tmp_path / "out"), "-j", "1")
    assert "torn" in output
    after = verdicts(tmp_path / "out")
    assert after.keys() == verdicts(live).keys()
    assert all(after[case] == verdicts(live)[case] for case in read.cases if read.cases[case].ended)
    missing = [case for case in after if case not in read.cases and verdicts(live)[case] != "skip"]
    assert missing and all(after[case] == "not_run" for case in missing)


def test_an_enormous_line_is_refused_in_bounded_memory(tmp_path, monkeypatch):
    import azul_conformance.engines.recording as recording

    monkeypatch.setattr(recording, "MAX_LINE", 1000)
    path = write(tmp_path / "huge.jsonl.gz", [{"format": FORMAT, "hello": {}, "pad": "x" * 5000}])
    with pytest.raises(RecordingError, match="longer than"):
        read_recording(str(path))


def test_recording_and_engine_together_are_a_usage_error(recorded, tmp_path):
    recording, _ = recorded
    result = CliRunner().invoke(conform, ["--recording", str(recording), "--engine", SERVE])
    assert result.exit_code == 2 and "without --engine" in result.output
    result = CliRunner().invoke(conform, ["--record-about", "commit=abc"])
    assert result.exit_code == 2 and "--record FILE" in result.output


def test_recording_to_a_link_is_refused(tmp_path):
    target = tmp_path / "elsewhere.gz"
    target.write_bytes(b"keep")
    link = tmp_path / "link.gz"
    link.symlink_to(target)
    status, output = run("--record", str(link), "--only", "OFFER-1", "--no-properties")
    assert status == 2 and "symbolic link" in output and target.read_bytes() == b"keep"


def test_first_difference_names_the_path_and_both_values():
    assert first_difference({"cmd": "play", "move": "1B2"}, {"cmd": "play", "move": "1B3"}) == \
        'move: "1B3" now, "1B2" recorded'
    assert first_difference({"state": {"boards": [{"score": 1}]}}, {"state": {"boards": [{"score": 2}]}}) == \
        "state.boards[0].score: 2 now, 1 recorded"
    assert first_difference({"cmd": "deal"}, {"cmd": "deal", "factories": ["BBBB"]}).startswith(
        'factories: ["BBBB"] now, absent recorded')
    assert first_difference({"a": 1}, {"a": 1}) is None


def test_gzip_members_that_end_inside_a_read_block_are_read_whole(tmp_path):
    """The reader under every recording (readers.file_lines): many gzip members, one ending mid-block with more
    output than one step gives, each line read once (it used to read the rest of such a block twice)."""
    from azul_conformance.readers import file_lines

    texts = [("".join(f'{{"n":{i},"pad":"{"ab" * (i * 97 % 5000)}"}}\n' for i in range(k * 40, k * 40 + 40)))
             for k in range(30)]
    path = tmp_path / "members.gz"
    path.write_bytes(b"".join(gzip.compress(text.encode(), mtime=0) for text in texts))
    read = [json.loads(line)["n"] for line in file_lines(path)]
    assert read == list(range(1200))


class _Interrupted(ReferenceEngine):
    """The reference engine, interrupted (Ctrl-C) while it answers its second `play`."""

    plays = 0

    def play(self, move):
        self.plays += 1
        if self.plays == 2:
            raise KeyboardInterrupt
        return super().play(move)


def test_an_interrupted_case_is_recorded_up_to_its_last_answer_and_never_as_ended(tmp_path):
    # An interrupt in the middle of an exchange left its request without reply or error (the whole recording
    # was then refused: "an exchange has either a reply or an error"), and what was asked after it was recorded.
    path = str(tmp_path / "session.jsonl.gz")
    start_recording(path)
    recorder = Recorder(_Interrupted(0), path, {"seed": 0})
    recorder.begin_case("whole")
    recorder.new_game(2)
    recorder.end_case()
    recorder.begin_case("cut")
    recorder.new_game(2)
    recorder.deal()
    first, second = recorder.legal_moves()[:2]
    recorder.play(first)
    with pytest.raises(KeyboardInterrupt):
        recorder.play(second)
    recorder.state()  # asked after the interrupt (a cleanup): its reply must not be taken for the case's
    recorder.end_case()
    recorder.close()
    read = read_recording(path)
    assert not read.problem
    assert read.cases["whole"].ended and len(read.cases["whole"].lines) == 1
    cut = read.cases["cut"]
    assert not cut.ended and cut.cut_at is None
    assert [json.loads(raw)["request"]["cmd"] for _, raw in cut.lines] == ["new_game", "deal", "legal_moves", "play"]
    assert all("reply" in json.loads(raw) for _, raw in cut.lines)


def test_a_recording_whose_case_ends_with_an_unanswered_request_judges_what_is_whole(recorded, tmp_path):
    # What an interrupted run wrote before the recorder dropped unanswered requests: it was refused whole.
    recording, live = recorded
    records = lines(recording)
    ends = [n for n, line in enumerate(records) if line.get("ended", 0) >= 3]
    cut_at = ends[len(ends) // 2]
    victim = records[cut_at]["case"]
    del records[cut_at]  # the case's end, and the reply of its last request
    del records[cut_at - 1]["reply"]
    torn = write(tmp_path / "cut.jsonl.gz", records)
    read = read_recording(str(torn))
    assert "1 case(s) cut short by an interrupt" in read.problem and f"{victim} (line {cut_at})" in read.problem
    status, output = run("--recording", str(torn), "--report-dir", str(tmp_path / "out"), "-j", "1")
    assert "cut short by an interrupt" in output
    after, before = verdicts(tmp_path / "out"), verdicts(live)
    assert after[victim] == "not_run"
    message = next(r.message for r in read_report(tmp_path / "out" / "report.jsonl").results if r.id == victim)
    assert "cut short when it was recorded" in message
    assert {case: v for case, v in after.items() if case != victim} == \
        {case: v for case, v in before.items() if case != victim}
