"""Perft through the Engine interface, against counts worked out independently of any engine."""

from __future__ import annotations

import json
import sys

from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.perft import divide, perft

COLOURS = "BYRKW"


def position(factories, centre="", lines=None, wall=None, floor=""):
    """A two-player offer position built by hand; bag filled up so that 20 of each colour exist."""
    boards = [{"score": 0, "lines": lines or [""] * 5, "wall": wall or ["....."] * 5, "floor": floor},
              {"score": 0, "lines": [""] * 5, "wall": ["....."] * 5, "floor": ""}]
    used = "".join(factories) + centre + "".join(boards[0]["lines"]) + "".join(boards[0]["wall"]) + floor
    bag = "".join(c * (20 - used.count(c)) for c in COLOURS)
    first_round = 1 + max(5 - row.count(".") for row in boards[0]["wall"])  # one wall tile per row per tiling
    return {"format": "azul-state/1", "variant": "colour", "players": 2, "round": first_round, "phase": "offer",
            "turn": 0, "start_player": 0, "marker": "centre", "factories": factories, "centre": centre,
            "bag": bag, "lid": "", "boards": boards, "winners": None}


def takes(state, seat):
    """Independent move generator on canonical dicts (the rules, written out again for this test)."""
    board = state["boards"][seat]
    sources = [(str(i + 1), f) for i, f in enumerate(state["factories"])] + [("C", state["centre"])]
    moves = []
    for name, tiles in sources:
        for colour in sorted(set(tiles)):
            for line in range(5):
                held = board["lines"][line]
                fits = (not held and colour not in board["wall"][line]) or (held[:1] == colour and len(held) <= line)
                if fits:
                    moves.append((name, colour, line))
            moves.append((name, colour, None))
    return moves


def apply(state, seat, move):
    """Just enough of a take for perft at depth 2 within one round: the tiles leave the source, the rest of a
    factory goes to the centre, the line fills (overflow ignored: only line choice matters next)."""
    name, colour, line = move
    new = {**state, "factories": list(state["factories"]),
           "boards": [dict(b, lines=list(b["lines"])) for b in state["boards"]]}
    if name == "C":
        new["centre"] = state["centre"].replace(colour, "")
    else:
        i = int(name) - 1
        rest = state["factories"][i].replace(colour, "")
        new["factories"][i] = ""
        new["centre"] = "".join(sorted(state["centre"] + rest, key=COLOURS.index))
    if line is not None:
        count = (state["factories"][int(name) - 1] if name != "C" else state["centre"]).count(colour)
        held = new["boards"][seat]["lines"][line]
        new["boards"][seat]["lines"][line] = (held + colour * count)[:line + 1]
    return new


def test_depth_one_counted_by_hand():
    # factory 1 BBRK: blue, red, black, each to 5 lines or the floor = 3 x 6 = 18; factory 2 YYYY: 6; no more
    state = position(["BBRK", "YYYY", "", "", ""])
    engine = ReferenceEngine()
    assert perft(engine, state, 1) == 24
    assert divide(engine, state, 1)["1B1"] == 1


def test_depth_one_with_wall_and_full_line_restrictions():
    # line 1 holds B (full); wall row 2 has Y. Factory 1 YYBW: Y -> lines 3,4,5 + floor (not 1: full, not 2: wall)
    # = 4; B -> lines 2..5 + floor = 5 (line 1 is full); W -> lines 2..5 + floor = 5. Total 14.
    state = position(["YYBW", "", "", "", ""], lines=["B", "", "", "", ""],
                     wall=[".....", "..Y..", ".....", ".....", "....."])
    assert perft(ReferenceEngine(), state, 1) == 14


def test_depth_two_against_an_independent_brute_force():
    state = position(["BBRK", "YYWW", "RRRK", "", ""], centre="")
    expected = sum(len(takes(apply(state, 0, move), 1)) for move in takes(state, 0))
    assert perft(ReferenceEngine(), state, 2) == expected


def test_perft_stops_at_the_end_of_the_offer():
    # Factory 1 BBRK, nothing else: the offer is three takes, then the round ends. Seat 0 takes a colour (3) to a
    # line or the floor (6): 18. The other two colours are in the centre; seat 1 takes one of them with the
    # marker (2 colours x 6 places on an empty board): 12. Seat 0 takes the last colour: to the floor or any line
    # but the one its first take filled with another colour, so 6 after a take to the floor, 5 after one to a
    # line. 3 x (1 x 12 x 6 + 5 x 12 x 5) = 1116, at depth 3 and at any depth beyond it.
    state = position(["BBRK", "", "", "", ""])
    engine = ReferenceEngine()
    assert perft(engine, state, 1) == 18 and perft(engine, state, 2) == 18 * 12
    assert perft(engine, state, 3) == perft(engine, state, 10) == 1116 and perft(engine, state, 0) == 1


def test_cli_refuses_a_state_file_that_is_no_state(tmp_path):
    from click.testing import CliRunner

    from azul_conformance.cli.perft import perft as perft_cli

    bad = tmp_path / "state.json"
    bad.write_text('{"format": 1}', encoding="utf-8")
    result = CliRunner().invoke(perft_cli, ["--state", str(bad), "--depth", "1"])
    assert result.exit_code == 1
    assert "state.json: not a canonical state" in result.output and "Traceback" not in result.output


# -- azul perft --engine: the engine's counts beside the reference's --------------------------------------------

SERVE = f"{sys.executable} -c 'import sys; from azul_conformance.cli import main; sys.exit(main())' serve"


def _perft_cli(*args: str):
    from click.testing import CliRunner

    from azul_conformance.cli.perft import perft as perft_cli

    result = CliRunner().invoke(perft_cli, list(args), catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def _small_position(tmp_path):
    # Seat 0 to move: factory 1 BBYR, factory 2 KKWW, the rest empty: 5 colour-sources, each to 5 lines or the
    # floor: 30 takes. After 1B1 (seat 0's line 1 full of blue), seat 1 has factory 2's K and W and the
    # centre's Y and R: 4 sources x 6 = 24 takes.
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position(["BBYR", "KKWW", "", "", ""])), encoding="utf-8")
    return path


def test_perft_engine_agrees_with_the_reference_at_every_depth(tmp_path):
    result = _perft_cli("--engine", SERVE, "--state", str(_small_position(tmp_path)), "--depth", "2")
    assert result.exit_code == 0, result.output
    assert "perft(1): engine 30, reference 30" in result.output
    assert "The same counts as the reference at every depth from 1 to 2." in result.output


def test_perft_engine_names_the_first_position_where_the_move_lists_part(tmp_path):
    # offer-listed-for-seat-0: the moves listed are seat 0's whoever is to move. After 1B1 seat 0's line 1 is
    # full, so the engine lists none of seat 1's four takes to line 1: 20 takes where the rules give 24.
    state = str(_small_position(tmp_path))
    result = _perft_cli("--engine", f"{SERVE} --misreading offer-listed-for-seat-0", "--state", state, "--depth", "3")
    assert result.exit_code == 1
    assert "perft(1): engine 30, reference 30" in result.output
    assert "perft(2):" in result.output and "<- differs" in result.output and "perft(3)" not in result.output
    assert "First parting, after 1B1: the engine lists 20 moves, the reference 24." in result.output
    assert "only the engine lists:    none" in result.output
    assert "only the reference lists: 2K1 2W1 CR1 CY1" in result.output
