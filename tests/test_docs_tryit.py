"""The "try it" page's engine bundle (docs/hooks/docgen_tryit.py) and its Python side (docs/try/tryit.py), without
a browser: the bundle holds the repository's own files, and the page's answers are the engine's. The page in a
real browser is tested in tests/test_docs_site.py."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import docgen_tryit  # noqa: E402


def test_the_bundled_engine_is_the_repositorys_reference_impl_file_for_file():
    archive = zipfile.ZipFile(io.BytesIO(docgen_tryit.zipped(docgen_tryit.bundled_files())))
    members = {name: archive.read(name) for name in archive.namelist()}
    engine = {f"azul_reference/{path.name}": path.read_bytes() for path in (ROOT / "reference_impl").glob("*.py")}
    assert engine and {name: data for name, data in members.items() if name.startswith("azul_reference/")} == engine
    for name in docgen_tryit.CONFORMANCE_MODULES:
        assert members[f"azul_conformance/{name}"] == (ROOT / "conformance" / name).read_bytes(), name
    assert set(members) == set(engine) | {f"azul_conformance/{n}" for n in docgen_tryit.CONFORMANCE_MODULES}


def test_the_record_bundle_holds_the_repositorys_replay_grammar_rules_and_samples():
    files = docgen_tryit.record_files()
    for path in (ROOT / "conformance").rglob("*.py"):
        name = "azul_conformance/" + path.relative_to(ROOT / "conformance").as_posix()
        assert files[name] == path.read_bytes(), name
    assert files["azul_spec/grammar/record.lark"] == (ROOT / "spec" / "grammar" / "record.lark").read_bytes()
    assert files["azul_spec/rules/offer.yaml"] == (ROOT / "spec" / "rules" / "offer.yaml").read_bytes()
    assert "azul_conformance/records/samples/two-player.azr" in files and "lark/lark.py" in files


def test_the_bundled_conformance_modules_need_nothing_but_the_notation_and_the_standard_library():
    # The page's runtime has no lark, yaml or jsonschema: a bundled module importing one would fail only there.
    for name in docgen_tryit.CONFORMANCE_MODULES:
        tree = ast.parse((ROOT / "conformance" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.module in ("notation",), (name, node.module)
            elif isinstance(node, ast.ImportFrom):
                assert node.module.split(".")[0] in sys.stdlib_module_names | {"__future__"}, (name, node.module)
            elif isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] in sys.stdlib_module_names for a in node.names), name


def _page_side(tmp_path: Path, script: str, lang: str = "en") -> list:
    """Run the page's Python side on the bundle alone (isolated from the installed packages), as the browser
    does, and return what `script` prints, one JSON document a line."""
    zipfile.ZipFile(io.BytesIO(docgen_tryit.zipped(docgen_tryit.bundled_files()))).extractall(tmp_path)
    (tmp_path / "tryit.py").write_bytes((ROOT / "docs" / "try" / "tryit.py").read_bytes())
    words = json.dumps(docgen_tryit.words(lang))  # the page gives its words first, as tryit.js does
    result = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
                             f"from tryit import table\ntable.set_words({words!r})\n" + script],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_refused_move_names_the_rule_that_forbids_it(tmp_path):
    opened, dealt, refused, wrong = _page_side(tmp_path, "print(table.new_game(2, 'colour', 0))\n"
                                                   "print(table.deal(['BBBB', 'YYYY', 'RRRR', 'KKKK', 'WWWW']))\n"
                                                   "print(table.play('1R1'))\nprint(table.play('9B1'))")
    assert opened["state"]["phase"] == "deal" and opened["svg"].startswith("<svg")
    assert dealt["effects"][0]["rules"] == ["DEAL-1"]
    assert refused == {"refused": "1R1: factory 1 holds no R tile", "rules": ["OFFER-6"]}
    assert wrong["rules"] == ["SETUP-3"]


def test_a_tiling_is_itemized_with_its_rules_and_adds_up_to_the_engines_score(tmp_path):
    # Seat 0 completes pattern line 2 with the centre's last blue. On the coloured wall blue goes to row 2,
    # column 2, beside the yellow at row 2 column 3 and under the yellow at row 1 column 2: 2 across + 2 down = 4
    # (SCORE-2); its floor holds one tile, -1 (FLOOR-3): 3 + 4 - 1 = 6.
    state = {"format": "azul-state/1", "variant": "colour", "players": 2, "round": 2, "phase": "offer", "turn": 0,
             "start_player": 1, "marker": 1, "factories": ["", "", "", "", ""], "centre": "B",
             "bag": "", "lid": "",
             "boards": [{"score": 3, "lines": ["", "B", "", "", ""], "wall": [".Y...", "..Y..", ".....", ".....",
                                                                               "....."], "floor": "K"},
                        {"score": 0, "lines": ["", "", "", "", ""], "wall": ["....."] * 5, "floor": "M"}],
             "winners": None}
    state["bag"] = "B" * 18 + "Y" * 18 + "R" * 20 + "K" * 19 + "W" * 20
    loaded, played, view = _page_side(tmp_path, f"print(table.load({json.dumps(json.dumps(state))}))\n"
                                                "print(table.play('CB2'))\nprint(table.view())")
    assert "refused" not in loaded, loaded
    texts = [effect["text"] for effect in played["effects"]]
    assert "B to wall row 2, column 2: +4 (SCORE-2: 2 across, 2 down, as the wall stands then: SCORE-3)" in texts
    assert ["SCORE-2", "SCORE-3"] in [effect["rules"] for effect in played["effects"]]
    assert "floor K: -1 (FLOOR-3)" in texts and "= 6" in texts and view["state"]["boards"][0]["score"] == 6


def test_an_impossible_position_is_refused_with_every_problem_and_its_rule(tmp_path):
    (answer,) = _page_side(tmp_path, "import json\nstate = json.loads(table.new_game(2, 'colour', 0))['state']\n"
                                     "state['boards'][0]['score'] = -3\nprint(table.load(json.dumps(state)))")
    assert answer["refused"] == "an impossible position" and answer["rules"] == ["SCORE-5"]
    assert any("SCORE-5" in problem for problem in answer["problems"])


def test_without_the_npm_runtime_the_build_writes_the_engine_but_no_runtime(tmp_path, monkeypatch):
    # A plain `mkdocs build` (no `npm ci`): the page's own files are written and the runtime folder is not, so
    # the page says the runtime is not bundled; another language's build (no try/index.html) writes nothing.
    (tmp_path / "try").mkdir()
    (tmp_path / "try" / "index.html").write_text("<html></html>", encoding="utf-8")
    (tmp_path / "fr").mkdir()
    monkeypatch.setattr(docgen_tryit, "RUNTIME", tmp_path / "no-node-modules" / "pyodide")
    docgen_tryit.on_post_build({"site_dir": str(tmp_path)})
    docgen_tryit.on_post_build({"site_dir": str(tmp_path / "fr")})
    written = sorted(path.name for path in (tmp_path / "try").iterdir())
    languages = ("de", "es", "fr", "it", "pt", "uk")
    assert written == sorted(["engine.zip", "index.html", "records.zip", "rules.json", "scenarios.json",
                              *[f"rules.{lang}.json" for lang in languages],
                              *[f"scenarios.{lang}.json" for lang in languages]])
    french = json.loads((tmp_path / "try" / "scenarios.fr.json").read_text(encoding="utf-8"))
    assert french["deal-given-factories"].startswith("Une préparation donnée")
    assert list((tmp_path / "fr").iterdir()) == []
    rules = json.loads((tmp_path / "try" / "rules.json").read_text(encoding="utf-8"))
    assert rules["OFFER-5"] == ["The first centre take also takes the marker", "../rules/offer/#OFFER-5"]
    scenarios = json.loads((tmp_path / "try" / "scenarios.json").read_text(encoding="utf-8"))
    grey = scenarios["grey-column-taken-in-same-tiling"]
    assert grey["given"]["state"]["format"] == "azul-state/1" and grey["steps"][0] == {"kind": "move", "move": "CW5"}


def test_a_position_edited_click_by_click_is_checked_by_the_engine_and_scores_as_worked_out_by_hand(tmp_path):
    # From a fresh deal: seat 0's wall gets K and W in row 3 (columns 1, 2) and R, Y, K in column 3 (rows 1, 2,
    # 5), its pattern line 3 three B; the factories are emptied and the centre holds one R beside the marker.
    # Seat 0 takes CR5: the marker goes to its floor (OFFER-5), the offer ends, and B goes to row 3, column 3
    # (WALL-1): 3 across (columns 1-3) and 3 down (rows 1-3; row 5 is cut off by the empty row 4), +6 (SCORE-2);
    # the marker on the floor -1 (FLOOR-3, FLOOR-4): 10 + 6 - 1 = 15. Counting the tile once would give 14, the
    # whole column 16, one direction 12.
    clicks = ["score 0 10", *[f"factory {i}" for i in range(5)], "centre"]
    script = ("import json\nprint(table.new_game(2, 'colour', 0))\nprint(table.deal([]))\n"
              "print(table.edit_start())\n"
              + "".join(f"table.edit({click!r}, '')\n" for click in clicks)
              + "table.edit('centre', 'R')\n"
              + "".join(f"table.edit('wall 0 {r} {c}', '')\n" for r, c in ((2, 0), (2, 1), (0, 2), (1, 2), (4, 2)))
              + "table.edit('line 0 2', 'B')\ntable.edit('line 0 2', 'B')\nprint(table.edit('line 0 2', 'B'))\n"
              "print(table.edit('line 0 2', 'Q'))\nprint(table.edit('wall 0 9 9', ''))\n"
              "print(table.edit_done())\nprint(table.edit('round 3', ''))\nprint(table.edit_done())\n"
              "print(table.play('CR5'))\nprint(table.view())")
    _, _, _, drawn, bad_tile, bad_place, refused, _, loaded, played, view = _page_side(tmp_path, script)
    board = drawn["state"]["boards"][0]
    assert board["wall"] == ["..R..", "..Y..", "KW...", ".....", "..K.."] and board["lines"][2] == "BBB"
    assert drawn["state"]["factories"] == [""] * 5 and drawn["state"]["centre"] == "R" and board["score"] == 10
    everything = "".join(drawn["state"]["factories"]) + drawn["state"]["centre"] + drawn["state"]["bag"] + "".join(
        "".join(b["lines"]) + "".join(b["wall"]) + b["floor"] for b in drawn["state"]["boards"])
    assert all(everything.count(colour) == 20 for colour in "BYRKW")  # every tile placed came out of the bag
    assert "refused" in bad_tile and bad_place["refused"].startswith("nothing to edit")
    # round 1 cannot have a wall row with two tiles: the engine refuses it with the rule that forbids it
    assert refused["refused"] == "an impossible position" and refused["rules"] == ["TILING-1"]
    assert "refused" not in loaded, loaded
    texts = [effect["text"] for effect in played["effects"]]
    assert "B to wall row 3, column 3: +6 (SCORE-2: 3 across, 3 down, as the wall stands then: SCORE-3)" in texts
    assert "floor M: -1 (FLOOR-3, FLOOR-4)" in texts and "= 15" in texts
    assert [b["score"] for b in view["state"]["boards"]] == [15, 0]


def test_an_edit_takes_its_tiles_from_the_bag_and_refuses_a_colour_it_has_none_of(tmp_path):
    state = {"format": "azul-state/1", "variant": "grey", "players": 2, "round": 2, "phase": "offer", "turn": 0,
             "start_player": 0, "marker": "centre", "factories": ["", "", "", "", ""], "centre": "BBBB",
             "bag": "", "lid": "Y" * 20 + "R" * 20 + "K" * 20 + "W" * 20,
             "boards": [{"score": 0, "lines": ["B", "BB", "BBB", "BBBB", "BBBBB"], "wall": ["....."] * 5,
                         "floor": "B"},
                        {"score": 0, "lines": ["", "", "", "", ""], "wall": ["....."] * 5, "floor": ""}],
             "winners": None}
    script = (f"print(table.load({json.dumps(json.dumps(state))}))\ntable.edit_start()\n"
              "print(table.edit('wall 0 0 0', 'B'))\nprint(table.edit('line 0 0', ''))\n"
              "print(table.edit('wall 0 1 3', 'R'))\nprint(table.edit('floor 1 0', 'M'))\n"
              "print(table.edit('floor 0 0', ''))")
    loaded, no_blue, cleared, grey, marker, floor = _page_side(tmp_path, script)
    assert "refused" not in loaded, loaded
    assert no_blue["rules"] == ["SETUP-4"] and "no B tile" in no_blue["refused"]
    assert cleared["state"]["boards"][0]["lines"][0] == "" and cleared["state"]["bag"] == "B"
    # the grey wall takes the tile in hand; the red came from the lid, the bag being empty of red
    assert grey["state"]["boards"][0]["wall"][1] == "...R." and grey["state"]["lid"].count("R") == 19
    assert marker["state"]["marker"] == 1 and marker["state"]["boards"][1]["floor"] == "M"
    assert floor["state"]["boards"][0]["floor"] == "" and floor["state"]["bag"] == "BB"


def test_the_english_page_draws_the_board_in_the_words_azul_render_draws_it_in():
    from azul_conformance.render_svg import DRAWING_WORDS, PLACE_WORDS

    words = docgen_tryit.words("en")
    assert {key[len("drawing_"):]: text for key, text in words.items() if key.startswith("drawing_")} == DRAWING_WORDS
    assert {key[len("place_"):]: text for key, text in words.items() if key.startswith("place_")} == PLACE_WORDS


def test_the_page_side_draws_the_board_in_the_page_s_language(tmp_path):
    from azul_conformance.render_svg import render_state

    (french,) = _page_side(tmp_path, "print(table.new_game(2, 'colour', 0))", "fr")
    svg = french["svg"]
    for text in ("Siège 0", "Siège 1", "score 0", "tuile Usine 1", "centre de la table", "rangée de sol",
                 "sac : 100 tuiles", "Azul · mur coloré · 2 joueurs · manche 1 · mise en place"):
        assert f">{text}" in svg, text
    assert ">Seat 0<" not in svg and ">floor line<" not in svg
    (english,) = _page_side(tmp_path, "print(table.new_game(2, 'colour', 0))")
    assert english["svg"] == render_state(english["state"])  # as `azul render` draws it


def test_a_new_table_to_edit_has_the_players_and_the_wall_chosen(tmp_path):
    grey, refused = _page_side(tmp_path, "table.new_game(2, 'colour', 0)\ntable.edit_start()\n"
                                         "print(table.edit_new(4, 'grey'))\nprint(table.edit_new(5, 'colour'))")
    state = grey["state"]
    assert state["variant"] == "grey" and len(state["boards"]) == 4 and state["phase"] == "offer"
    assert len(state["factories"]) == 9 and all(len(factory) == 4 for factory in state["factories"])  # SETUP-3
    assert refused["rules"] == ["SETUP-6"], refused  # 2 to 4 players
