"""The SVG board renderer and `azul render`: what a reader must be able to see in the picture."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from azul_conformance.cli.render import render
from azul_conformance.render_svg import letter_colour, render_board, render_state

NS = {"svg": "http://www.w3.org/2000/svg"}

# A position completed by hand: 32 tiles on the table, the marker on seat 0's floor.
STATE = {
    "format": "azul-state/1", "variant": "colour", "players": 2, "round": 2,
    "phase": "offer", "turn": 1, "start_player": 0, "marker": 0,
    "factories": ["BBRK", "", "KKKK", "BRWW", ""], "centre": "YYW",
    "bag": "BBBBBYYYRRRK", "lid": "RRKW",
    "boards": [
        {"score": 7, "lines": ["", "R", "", "KKK", ""],
         "wall": ["B....", ".....", "..B..", ".....", "....."], "floor": "MR"},
        {"score": 12, "lines": ["W", "", "YYY", "", "BB"],
         "wall": ["BY...", "W....", ".....", "...B.", "....."], "floor": ""},
    ],
    "winners": None,
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def tiles(element: ET.Element) -> list[ET.Element]:
    return element.findall(".//svg:g[@class='tile']", NS)


def letter(group: ET.Element) -> str:
    return group.find("svg:text", NS).text


def test_every_tile_on_the_table_is_drawn_once_with_its_letter():
    root = parse(render_state(STATE))
    drawn = tiles(root)
    # factories 4+4+4, centre 3, seat 0: lines 1+3, wall 2, floor 1 (R), seat 1: lines 1+3+2, wall 4
    assert len(drawn) == 12 + 3 + 7 + 10
    assert all(letter(t) == t.get("data-colour") for t in drawn)
    colours = "".join(sorted(t.get("data-colour") for t in drawn))
    assert colours == "".join(sorted("BBRK" "KKKK" "BRWW" "YYW" "RKKK" "BB" "R" "WYYYBB" "BYWB"))


def test_the_marker_is_drawn_as_m_on_the_floor_of_its_holder_and_not_as_a_tile():
    root = parse(render_state(STATE))
    markers = root.findall(".//svg:g[@class='marker']", NS)
    assert [letter(m) for m in markers] == ["M"]
    seat0_floor = root.find(".//svg:g[@data-seat='0']/svg:g[@class='floor']", NS)
    assert [g.get("data-colour") for g in seat0_floor.findall("svg:g[@data-colour]", NS)] == ["M", "R"]
    centre = root.find(".//svg:g[@class='centre']", NS)
    assert centre.findall("svg:g[@class='marker']", NS) == []


def test_the_marker_stands_in_the_centre_until_taken():
    state = copy.deepcopy(STATE)
    state["marker"] = "centre"
    state["boards"][0]["floor"] = "R"
    centre = parse(render_state(state)).find(".//svg:g[@class='centre']", NS)
    assert [g.get("data-colour") for g in centre.findall("svg:g[@data-colour]", NS)] == ["M", "Y", "Y", "W"]


def test_floor_penalties_are_printed_above_the_seven_spaces_of_each_board():
    root = parse(render_state(STATE))
    for seat in (0, 1):
        floor = root.find(f".//svg:g[@data-seat='{seat}']/svg:g[@class='floor']", NS)
        penalties = [t.text for t in floor.findall("svg:text[@class='penalty']", NS)]
        assert penalties == ["-1", "-1", "-2", "-2", "-2", "-3", "-3"]
        assert len(floor.findall("svg:g", NS)) == 7


def test_pattern_lines_are_right_aligned_and_hold_one_to_five():
    root = parse(render_state(STATE))
    lines = root.find(".//svg:g[@data-seat='1']/svg:g[@class='pattern-lines']", NS)
    assert len(lines.findall("svg:g", NS)) == 1 + 2 + 3 + 4 + 5
    # Line 5 holds BB: its two tiles sit at the right end, sharing the x of line 1's single space.
    line1_x = float(lines.find("svg:g[@data-colour='W']/svg:rect", NS).get("x"))
    blue_x = sorted(float(g.find("svg:rect", NS).get("x")) for g in lines.findall("svg:g[@data-colour='B']", NS))
    assert blue_x[-1] == line1_x
    assert blue_x[0] < line1_x


def test_coloured_wall_hints_follow_the_printed_pattern():
    wall = parse(render_state(STATE)).find(".//svg:g[@data-seat='0']/svg:g[@class='wall']", NS)
    cells = wall.findall("svg:g", NS)
    assert len(cells) == 25
    hints = [c.get("data-hint") or c.get("data-colour") for c in cells]
    # Row 1 reads W B Y R K; row 4 reads Y R K W B (docs/reference/state.md: column (c + r) mod 5, order B Y R K W).
    assert "".join(hints[5:10]) == "WBYRK"
    assert "".join(hints[20:25]) == "YRKWB"


def test_grey_wall_has_no_colour_hints():
    state = copy.deepcopy(STATE)
    state["variant"] = "grey"
    root = parse(render_state(state))
    assert root.findall(".//svg:g[@data-hint]", NS) == []
    assert "grey wall" in root.get("aria-label")


def test_whose_turn_phase_bag_and_lid_are_shown():
    root = parse(render_state(STATE))
    heading = root.find("svg:text[@class='heading']", NS).text
    assert "round 2" in heading and "phase offer" in heading and "turn: seat 1" in heading
    assert root.find(".//svg:text[@class='bag']", NS).text == "bag: 12 tiles (B 5, Y 3, R 3, K 1)"
    assert root.find(".//svg:text[@class='lid']", NS).text == "lid: 4 tiles (R 2, K 1, W 1)"
    badges = root.find(".//svg:g[@data-seat='1']/svg:text[@class='badges']", NS).text
    assert "to move" in badges


def test_winners_are_named_once_the_game_is_over():
    state = copy.deepcopy(STATE)
    state.update(phase="over", winners=[0, 1])
    root = parse(render_state(state))
    assert "winners: seat 0, seat 1" in root.find("svg:text[@class='heading']", NS).text
    for seat in (0, 1):
        assert root.find(f".//svg:g[@data-seat='{seat}']/svg:text[@class='badges']", NS).text == "winner"


def test_a_full_table_of_a_hundred_tiles_accounts_for_every_tile():
    state = copy.deepcopy(STATE)
    state["bag"] = ""
    state["lid"] = ""
    state["factories"] = ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"]
    placed = len(tiles(parse(render_state(state))))
    assert placed == 20 + 3 + 7 + 10


def test_output_is_deterministic_has_a_viewbox_and_escapes_text():
    state = copy.deepcopy(STATE)
    state["variant"] = "<odd & \"quoted\">"
    svg = render_state(state)
    assert svg == render_state(copy.deepcopy(state))
    root = parse(svg)  # raises if the text was not escaped
    assert root.get("viewBox").startswith("0 0 ")
    assert "<odd & \"quoted\"> wall" in root.get("aria-label")


def test_letters_contrast_with_their_tile():
    assert letter_colour("#0072B2") == "#FFFFFF"   # blue: white letter
    assert letter_colour("#F0E442") == "#000000"   # yellow: black letter
    assert letter_colour("#1A1A1A") == "#FFFFFF"   # black: white letter
    assert letter_colour("#F4F8FB") == "#000000"   # white tile: black letter


def test_render_board_draws_one_board():
    root = parse(render_board(STATE, 1))
    assert len(root.findall(".//svg:g[@class='board']", NS)) == 1
    assert len(tiles(root)) == 10
    with pytest.raises(ValueError, match="no seat 2"):
        render_board(STATE, 2)


def test_not_a_state_is_refused_with_a_message():
    with pytest.raises(ValueError, match="missing factories"):
        render_state({"boards": [], "centre": ""})


def test_cli_writes_svg_from_a_file_and_from_stdin(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(STATE))
    runner = CliRunner()
    out = tmp_path / "out.svg"
    result = runner.invoke(render, [str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(tiles(parse(out.read_text()))) == 32
    result = runner.invoke(render, ["-", "--seat", "0"], input=json.dumps(STATE))
    assert result.exit_code == 0
    assert len(parse(result.output).findall(".//svg:g[@class='board']", NS)) == 1


def test_cli_names_file_line_and_column_of_bad_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "azul-state/1",\n "boards": [,]}')
    result = CliRunner().invoke(render, [str(path)])
    assert result.exit_code == 1
    assert f"{path}:2:13: not valid JSON" in result.output
    assert '    2 |  "boards": [,]}\n      |             ^' in result.output
    assert "Traceback" not in result.output


def test_cli_refuses_json_that_is_not_a_state():
    result = CliRunner().invoke(render, ["-"], input='{"hello": 1}')
    assert result.exit_code == 1
    assert "<stdin>: not a canonical state" in result.output


def test_cli_names_a_file_that_is_not_text(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x00\xdc\xff binary")
    result = CliRunner().invoke(render, [str(junk)])
    assert result.exit_code == 1
    assert "junk.json: not UTF-8 text" in result.output and "Traceback" not in result.output


# Seat 1 takes factory 3's four blacks onto pattern line 2, worked out by hand: line 2 holds 2 (both of its
# spaces), the other 2 fall to the floor's first two spaces; factory 3 is left empty (no other colour goes to
# the centre) and the turn passes to seat 0. Nothing else changes.
AFTER_3K2 = copy.deepcopy(STATE)
AFTER_3K2.update(turn=0, factories=["BBRK", "", "", "BRWW", ""])
AFTER_3K2["boards"][1].update(lines=["W", "KK", "YYY", "", "BB"], floor="KK")


def marks(root: ET.Element) -> list[str]:
    return [mark.get("data-place") for mark in root.iter(f"{{{NS['svg']}}}rect") if mark.get("class") == "changed"] \
        + [mark.get("data-place") for mark in root.iter(f"{{{NS['svg']}}}circle") if mark.get("class") == "changed"]


def test_the_places_a_move_changed_are_outlined_on_the_picture_and_named_in_its_title():
    from azul_conformance.properties.canonical import changed_places

    places = changed_places(STATE, AFTER_3K2)
    assert sorted(places) == ["/boards/1/floor/0", "/boards/1/floor/1", "/boards/1/lines/1/0",
                              "/boards/1/lines/1/1", "/factories/2", "/turn"]
    root = parse(render_state(AFTER_3K2, places))
    assert sorted(marks(root)) == sorted(set(places) - {"/turn"})  # the turn is in the heading, not a place
    line_2 = root.find(".//svg:g[@data-seat='1']", NS).findall("svg:rect[@class='changed']", NS)
    assert {(float(rect.get("x")) + 3, float(rect.get("y")) + 3) for rect in line_2} \
        == {(12 + 4 * 30, 34 + 30), (12 + 3 * 30, 34 + 30), (12, 34 + 5 * 30 + 32), (12 + 30, 34 + 5 * 30 + 32)}
    # dashed and thick: told apart by its shape, not by its colour alone
    assert all(rect.get("stroke-dasharray") and int(rect.get("stroke-width")) >= 3 for rect in line_2)
    title = root.find("svg:title", NS).text
    assert title.endswith("changed, outlined with dashes: factory 3; seat 1, pattern line 2, spaces 1, 2 from the "
                          "right; seat 1, floor line, spaces 1, 2")
    assert root.get("aria-label") == title
    assert render_state(AFTER_3K2) == render_state(AFTER_3K2, ())  # unmarked unless asked
    assert "changed" not in render_state(AFTER_3K2)


def test_a_wall_space_a_score_the_centre_and_the_supply_are_marked_where_they_are_drawn():
    places = ["/boards/0/wall/2/3", "/boards/0/score", "/centre", "/marker", "/bag", "/lid", "/round",
              "/boards/5/score", "/boards/0/lines/0/3", "/factories/9"]  # the last four: no such place drawn
    root = parse(render_state(STATE, places))
    assert sorted(marks(root)) == sorted(places[:6])
    wall = root.find(".//svg:g[@data-seat='0']/svg:rect[@data-place='/boards/0/wall/2/3']", NS)
    assert (float(wall.get("x")) + 3, float(wall.get("y")) + 3) == (12 + 5 * 30 + 18 + 3 * 30, 34 + 2 * 30)
    # named in the order drawn: the table, then each board (its places in the order given)
    assert root.find("svg:title", NS).text.endswith("changed, outlined with dashes: centre; first-player marker; "
                                                    "bag; lid; seat 0, wall row 3, column 4; seat 0, score")


def test_the_spaces_of_one_line_are_said_together_in_the_words_a_page_gives():
    from azul_conformance.render_svg import describe_changes

    places = ["/boards/1/lines/4/2", "/turn", "/boards/1/wall/4/0", "/boards/1/lines/4/0", "/boards/1/lines/4/1",
              "/boards/0/floor/3", "/boards/0/floor/5", "/factories/0"]
    assert describe_changes(places) == ("seat 1, pattern line 5, spaces 1\u20133 from the right; seat 1, wall row 5, "
                                        "column 1; seat 0, floor line, spaces 4, 6; factory 1")
    french = {"seat": "siège {seat}", "line": "{seat}, rangée de motifs {line}, {spaces} depuis la droite",
              "wall": "{seat}, mur, rangée {row}, colonne {column}", "floor": "{seat}, rangée de sol, {spaces}",
              "space": "emplacement {n}", "spaces": "emplacements {n}", "factory": "tuile Usine {n}", "between": " ; "}
    assert describe_changes(places[:3], lambda key, **values: french[key].format(**values)) == (
        "siège 1, rangée de motifs 5, emplacement 3 depuis la droite ; siège 1, mur, rangée 5, colonne 1")
