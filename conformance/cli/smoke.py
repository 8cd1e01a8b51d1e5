"""`azul smoke`: check an engine's protocol basics, one clear line per check, before a full run."""

from __future__ import annotations

import functools
import json
from typing import Callable

import click

from .engine_option import ENGINE
from .numbers import DAY, Number

from azul_conformance.engines.base import EngineError, Rejected
from azul_conformance.notation import FACTORIES_BY_PLAYERS, PLAYER_COUNTS, VARIANTS
from azul_conformance.readers import safe_text
from azul_conformance.engines.subprocess import ProcessEngine
from azul_conformance.results import Verdict, engine_trouble


def _checks(engine) -> list[tuple[str, Callable[[], str]]]:
    memo: dict = {}

    def hello():
        info = engine.hello()
        caps = info.capabilities
        memo["game"] = _game_offered(caps)
        return f"{info.name} {info.version}, protocol {info.protocol}; capabilities {json.dumps(caps.to_json())}"

    def new_game():
        players, variant = memo.get("game") or _game_offered(engine.info.capabilities)
        state = engine.new_game(players, variant, 0)
        _expect(state["phase"] == "deal", f"phase {state['phase']!r}, expected 'deal'")
        _expect(len(state["bag"]) == 100, f"{len(state['bag'])} tiles in the bag, expected 100")
        memo["players"] = players
        return f"{players} players, {variant} wall (as hello offers): phase deal, 100 tiles in the bag"

    def deal():
        state = engine.deal()
        sizes = [len(f) for f in state["factories"]]
        factories = FACTORIES_BY_PLAYERS[memo.get("players", 2)]
        _expect(sizes == [4] * factories, f"factory sizes {sizes}, expected {factories} factories of 4")
        _expect(state["phase"] == "offer", f"phase {state['phase']!r} after the deal, expected 'offer'")
        return f"factories {' '.join(state['factories'])}"

    def legal_moves():
        moves = engine.legal_moves()
        _expect(bool(moves), "no legal move at the start of a round")
        _expect(len(moves) == len(set(moves)), "a move is listed twice")
        memo["moves"] = sorted(moves)
        return f"{len(moves)} moves ({', '.join(memo['moves'][:4])}, ...)"

    def play():
        move = memo["moves"][0]
        state = engine.play(move)
        _expect(state["turn"] == 1, f"after {move} the turn is {state['turn']}, expected 1")
        return f"{move} accepted; seat 1 to move"

    def state():
        got = engine.state()
        return f"round {got['round']}, phase {got['phase']}, turn {got['turn']}"

    def illegal():
        before = engine.state()
        try:
            engine.play("1BF")  # the first move emptied factory 1 (OFFER-3): nothing can be taken from it
        except Rejected as error:
            _expect(error.code == "illegal_move", f"refused with {error.code}, expected illegal_move")
            _expect(engine.state() == before, "the refused move changed the state")
            return f"1BF (factory 1 is empty) refused: {error.code}{' ' + error.rule if error.rule else ''}"
        raise SmokeFailure("1BF was accepted although factory 1 is empty (OFFER-6)")

    return [("hello", hello), ("new_game", new_game), ("deal", deal), ("legal_moves", legal_moves),
            ("play", play), ("state", state), ("illegal move", illegal)] + [
        (name, functools.partial(_refused, engine, *request)) for name, *request in REFUSED]


def _game_offered(caps) -> tuple[int, str]:
    """The game smoke plays: two players on the coloured wall when hello offers them, else what it offers
    (the fewest players, the first wall named): a grey-wall-only or four-player-only engine is checked too."""
    players = [n for n in PLAYER_COUNTS if n in caps.players]
    variants = [v for v in VARIANTS if v in caps.variants]
    if not players or not variants:
        raise SmokeFailure(f"hello offers no game to play: players {list(caps.players)}, variants "
                           f"{list(caps.variants)} (protocol v1: players among 2, 3, 4; variants colour, grey)")
    return players[0], variants[0]


# Requests every engine must refuse with bad_request: the check's name, the raw line, the id the refusal must
# carry (... when any), what it means if the engine accepts, and what a passing check shows.
REFUSED = (
    ("bad request", b'{"id": 999, "cmd": "fly_to_the_moon"}', 999, "an unknown command was not refused",
     "unknown command refused with bad_request"),
    ("no id", b'{"cmd": "state"}', None, "a request without an id was answered as if it were valid",
     "a request without an id refused with bad_request and id null"),
    ("protocol 2", b'{"id": 998, "cmd": "hello", "protocol": 2}', ...,
     "hello for protocol 2 was accepted (this engine speaks protocol 1)",
     "hello for protocol 2 refused with bad_request"),
) + tuple(  # an id is an integer or a string (protocol.md); 1e400 reads as infinity in most JSON libraries
    (f"id {shown}", b'{"id": %s, "cmd": "state"}' % value, None,
     f"a request with id {shown} was answered as if it were valid", f"id {shown} refused with bad_request and id null")
    for shown, value in (("a list", b"[1]"), ("an object", b'{"n": 1}'), ("a boolean", b"true"), ("1.5", b"1.5"),
                         ("1e400", b"1e400")))


def _refused(engine, line: bytes, want_id, accepted: str, shown: str) -> str:
    if not hasattr(engine, "send_raw"):
        return "skipped (in-process engine)"
    answer = engine.send_raw(line)
    try:
        reply = json.loads(answer)
    except (ValueError, RecursionError):
        raise SmokeFailure(f"the answer is not JSON: {safe_text(answer.decode('utf-8', 'replace'), 120)!r}")
    _expect(isinstance(reply, dict), f"the answer is not a JSON object: {safe_text(answer, 120)!r}")
    _expect(reply.get("ok") is False, accepted)
    code = reply["error"].get("code") if isinstance(reply.get("error"), dict) else None
    _expect(code == "bad_request", f"error code {code!r}, expected bad_request")
    if want_id is not ... and not ("id" in reply and reply["id"] == want_id):
        carried = f"id {json.dumps(reply['id'])}" if "id" in reply else "no id"
        raise SmokeFailure(f"the refusal carries {carried}, expected id {json.dumps(want_id)}")
    return shown


class SmokeFailure(Exception):
    pass


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


@click.command(context_settings={"max_content_width": 100})
@click.option("--engine", "engine_command", type=ENGINE, metavar="CMD", required=True,
              help="Command that starts the engine.")
@click.option("--timeout", type=Number(float, 0.05, DAY), default=5.0, show_default=True, help="Seconds per request.")
def smoke(engine_command: str, timeout: float) -> None:
    """Check an engine's protocol basics: hello, new_game (two players on the coloured wall, or the game hello
    offers: the fewest players, the grey wall for a grey-only engine), deal, legal_moves, play, state, an illegal move,
    a bad request, a request without an id, a hello for another protocol, requests whose id is a list, an
    object, a boolean, a fraction or 1e400 (each refused with id null), quit. One line per check; the exit
    status is 1 if any fails.

    \b
    Example:
      azul smoke --engine "./my-engine"
      azul smoke --engine "azul serve"
    """
    if engine_command.startswith("py:"):  # an in-process engine speaks no protocol to check
        raise click.UsageError("azul smoke checks an engine that speaks protocol v1; a py: engine runs in-process "
                               f"and needs no protocol: run azul conform --engine {engine_command}")
    try:
        engine = ProcessEngine(engine_command, timeout=timeout)
    except EngineError as error:
        _line(engine_trouble(error)["verdict"], "start", f"{error.message}{_tail(error)}")
        raise SystemExit(1)
    failed = 0
    for name, check in _checks(engine):
        try:
            _line(Verdict.PASS, name, check())
        except (SmokeFailure, Rejected, KeyError, TypeError, IndexError) as error:
            failed += 1
            _line(Verdict.FAIL, name, _why(error))
        except EngineError as error:
            failed += 1
            _line(engine_trouble(error)["verdict"], name, f"{error.message}{_tail(error)}")
            break
    failed += not _quit(engine)
    click.echo(f"{'all checks passed' if not failed else f'{failed} check(s) failed'}")
    raise SystemExit(1 if failed else 0)


def _quit(engine) -> bool:
    process = engine.process
    if process is None:
        _line(Verdict.FAIL, "quit", "the engine is not running any more")
        return False
    engine.close()
    code = process.returncode
    _line(Verdict.PASS if code == 0 else Verdict.FAIL, "quit",
          f"exited with status {code}" if code is not None else "did not exit; killed")
    return code == 0


def _why(error: Exception) -> str:
    if isinstance(error, Rejected):
        return f"refused: {error.code}: {error.message}"
    if isinstance(error, KeyError):
        return f"the reply has no {error.args[0]!r}"
    if isinstance(error, (TypeError, IndexError)):
        return f"the reply is not shaped as the protocol says ({error})"
    return str(error)


def _tail(error: EngineError) -> str:
    """The engine's stderr as the error kept it (its last lines, bounded: engines/subprocess.py), every line: the
    cause of a failed start ("Cannot find module ...") is seldom its last line."""
    lines = error.stderr.strip().splitlines()
    return "\n        stderr:" + "".join(f"\n          {line}" for line in lines) if lines else ""


def _line(verdict: Verdict, name: str, detail: str) -> None:
    """One check's line, in the suite's verdicts (results.Verdict): `ok` for a pass, else the verdict (an engine
    that crashed or hung is a crash or a timeout, as in a report)."""
    mark = click.style("ok  ", fg="green") if not verdict.bad else click.style(f"{verdict.upper():<4}", fg="red",
                                                                                bold=True)
    click.echo(f"{mark} {name:<12} {safe_text(detail)}")
