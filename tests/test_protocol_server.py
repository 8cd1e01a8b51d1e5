"""`azul serve` as a subprocess: whole games over protocol v1, then garbage it must survive.

Every read has a timeout; every line the server prints must be one JSON reply (stdout is the protocol's).
"""

from __future__ import annotations

import json
import queue
import random
import subprocess
import sys
import threading
from typing import Any

import pytest

TIMEOUT = 15  # seconds per reply: generous for a loaded machine; a reply normally takes well under 1 ms
LAUNCH = [sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())", "serve"]


class Server:
    """The server process, with a reader thread so that no read can block the test forever."""

    def __init__(self, seed: int = 1) -> None:
        self.process = subprocess.Popen(LAUNCH + ["--seed", str(seed)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(b"")  # end of output

    def send_raw(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def reply(self) -> dict[str, Any]:
        line = self.lines.get(timeout=TIMEOUT)
        assert line, "the server closed its output"
        reply = json.loads(line)  # nothing but JSON on stdout
        assert isinstance(reply, dict) and "ok" in reply and "id" in reply, line
        return reply

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        request = {"id": self.next_id, **request}
        self.send_raw(json.dumps(request).encode() + b"\n")
        reply = self.reply()
        assert reply["id"] == self.next_id
        return reply

    def ok(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = self.ask(request)
        assert reply["ok"] is True, reply
        return reply

    def close(self) -> int:
        if self.process.poll() is None:
            try:
                self.send_raw(b'{"cmd":"quit"}\n')
            except BrokenPipeError:
                pass
        try:
            return self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(timeout=TIMEOUT)


@pytest.fixture
def server():
    started = Server()
    yield started
    started.close()


def play_to_the_end(server: Server, players: int, variant: str, seed: int) -> dict[str, Any]:
    picks = random.Random(seed)
    state = server.ok({"cmd": "new_game", "players": players, "variant": variant, "start_player": 1})["state"]
    assert state["phase"] == "deal"
    for _ in range(5000):
        if state["phase"] == "over":
            return state
        if state["phase"] == "deal":
            state = server.ok({"cmd": "deal"})["state"]
            continue
        moves = server.ok({"cmd": "legal_moves"})["moves"]
        assert moves and len(moves) == len(set(moves))
        state = server.ok({"cmd": "play", "move": picks.choice(moves)})["state"]
    raise AssertionError("the game did not end within 5000 steps")


def test_hello(server):
    reply = server.ok({"cmd": "hello", "protocol": 1})
    assert reply["protocol"] == 1 and reply["name"]
    assert reply["capabilities"] == {"players": [2, 3, 4], "variants": ["colour", "grey"], "load_state": True,
                                     "deal": True, "play_game": True}


@pytest.mark.parametrize(("players", "variant"), [(2, "colour"), (3, "grey"), (4, "colour")])
def test_a_whole_game_over_the_protocol(server, players, variant):
    state = play_to_the_end(server, players, variant, seed=players)
    assert state["winners"] and state["round"] >= 5  # a row takes five rounds at least
    assert server.ok({"cmd": "state"})["state"] == state
    assert server.ok({"cmd": "legal_moves"})["moves"] == []


def test_a_given_deal_and_a_loaded_state(server):
    server.ok({"cmd": "new_game", "players": 2})
    state = server.ok({"cmd": "deal", "factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"]})["state"]
    assert state["factories"] == ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"] and state["phase"] == "offer"
    state = server.ok({"cmd": "play", "move": "1B4"})["state"]
    assert state["boards"][0]["lines"][3] == "BBBB"
    loaded = server.ok({"cmd": "load_state", "state": state})["state"]
    assert loaded == state


def assert_refused(server: Server, request: dict[str, Any], code: str, rule: str | None = None) -> dict:
    reply = server.ask(request)
    assert reply["ok"] is False and reply["error"]["code"] == code, reply
    assert reply["error"]["message"]
    if rule:
        assert reply["error"]["rule"] == rule
    return reply


def test_requests_before_a_game_are_bad_requests(server):
    for command in ({"cmd": "legal_moves"}, {"cmd": "state"}, {"cmd": "deal"}, {"cmd": "play", "move": "1B1"}):
        assert_refused(server, command, "bad_request")
    server.ok({"cmd": "hello"})


@pytest.mark.parametrize("request_", [
    {"cmd": "dance"},
    {"cmd": 7},
    {},
    {"cmd": "hello", "protocol": 2},
    {"cmd": "new_game"},
    {"cmd": "new_game", "players": "2"},
    {"cmd": "new_game", "players": 5},
    {"cmd": "new_game", "players": 2, "variant": "purple"},
    {"cmd": "new_game", "players": 2, "start_player": True},
    {"cmd": "new_game", "players": 2, "start_player": 2},
    {"cmd": "load_state"},
    {"cmd": "load_state", "state": "azul"},
    {"cmd": "load_state", "state": {"format": "azul-state/1", "players": [2]}},
])
def test_malformed_requests_are_bad_requests_and_the_server_goes_on(server, request_):
    assert_refused(server, request_, "bad_request")
    assert server.ok({"cmd": "hello"})["protocol"] == 1


def test_refusals_in_a_game_leave_the_state_unchanged(server):
    server.ok({"cmd": "new_game", "players": 2})
    assert_refused(server, {"cmd": "play", "move": "1B1"}, "illegal_move", "OFFER-15")  # no take during the deal
    assert_refused(server, {"cmd": "deal", "factories": "BBBB"}, "bad_request")
    assert_refused(server, {"cmd": "deal", "factories": ["BBBB"] * 4}, "bad_request", "SETUP-3")  # schema: 5-9
    assert_refused(server, {"cmd": "deal", "factories": ["BBBB"] * 7}, "illegal_move", "SETUP-3")  # 3 players' count
    assert_refused(server, {"cmd": "deal", "factories": ["BBBBB", "YYY", "RRRR", "KKKK", "WWWW"]}, "bad_request",
                   "DEAL-1")  # the schema limits a factory to 4 tiles
    state = server.ok({"cmd": "deal", "factories": ["BBBR", "YYYY", "RRRR", "KKKK", "WWWW"]})["state"]
    assert_refused(server, {"cmd": "play", "move": "1Y1"}, "illegal_move", "OFFER-6")
    assert_refused(server, {"cmd": "play", "move": "1B6"}, "bad_request")
    assert_refused(server, {"cmd": "play", "move": 11}, "bad_request")
    assert_refused(server, {"cmd": "play"}, "bad_request")
    bad = json.loads(json.dumps(state))
    bad["boards"][0]["floor"] = "BBBBBBBB"
    reply = assert_refused(server, {"cmd": "load_state", "state": bad}, "bad_request")
    assert "boards[0].floor" in reply["error"]["message"]
    assert server.ok({"cmd": "state"})["state"] == state


@pytest.mark.parametrize("line", [
    b'{"id": 1, "cmd":\n',
    b"[1, 2]\n",
    b'"hello"\n',
    b"\xff\xfe{}\n",
    b'{"id": NaN, "cmd": "hello"}\n',
    b"[" * 100_000 + b"\n",
])
def test_lines_that_are_not_a_json_object_are_bad_requests(server, line):
    server.send_raw(line)
    reply = server.reply()
    assert reply["id"] is None and reply["error"]["code"] == "bad_request"
    assert server.ok({"cmd": "hello"})


def test_a_request_without_an_id_is_a_bad_request(server):
    server.send_raw(b'{"cmd": "hello"}\n')
    reply = server.reply()
    assert reply["id"] is None and reply["error"]["code"] == "bad_request"


def test_the_error_echoes_string_and_integer_ids_only(server):
    server.send_raw(b'{"id": "abc", "cmd": "dance"}\n')
    assert server.reply()["id"] == "abc"
    # ids the schema does not allow are refused with `"id": null`: echoed, they would break the reply itself
    # (1e400 reads as infinity, which strict JSON cannot write).
    for raw in (b"[1, {}]", b'{"x": null}', b"true", b"1.5", b"1e400"):
        server.send_raw(b'{"id": ' + raw + b', "cmd": "hello", "protocol": 1}\n')
        reply = server.reply()
        assert reply["id"] is None and reply["error"]["code"] == "bad_request", raw
        assert "id" in reply["error"]["message"]


@pytest.mark.parametrize("protocol", ["true", "1.0", '"1"', "2"])
def test_hello_wants_the_integer_1(server, protocol):
    server.send_raw(b'{"id": 7, "cmd": "hello", "protocol": ' + protocol.encode() + b"}\n")
    reply = server.reply()
    assert reply["id"] == 7 and reply["error"]["code"] == "bad_request"
    assert protocol in reply["error"]["message"]


def test_an_absurdly_long_line_is_refused_and_skipped(server):
    server.send_raw(b'{"id": 9, "cmd": "hello", "pad": "' + b"x" * (2 << 20) + b'"}\n')
    reply = server.reply()
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
    assert server.ok({"cmd": "hello"})  # the rest of the long line was not read as a request


def test_blank_lines_are_ignored(server):
    server.send_raw(b"\n   \n")
    assert server.ok({"cmd": "hello"})


def test_quit_exits_zero_and_prints_nothing():
    started = Server()
    started.ok({"cmd": "hello"})
    started.send_raw(b'{"cmd": "quit"}\n')
    assert started.process.wait(timeout=TIMEOUT) == 0
    assert started.lines.get(timeout=TIMEOUT) == b""


def test_end_of_input_exits_zero():
    started = Server()
    started.process.stdin.close()
    assert started.process.wait(timeout=TIMEOUT) == 0
