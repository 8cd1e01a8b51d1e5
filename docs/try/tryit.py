"""The "try it" page's side in Python: it runs in the reader's browser (Pyodide) on the reference engine as
packaged (azul_reference), and answers the page's script in JSON. Every answer is worked out by the engine; this
file only says, rule by rule, what a step changed (the tiling's account is conformance/tiling_account.py's, the
one the replay's explanations use).

Loaded by docs/try/tryit.js; docs/hooks/docgen_tryit.py bundles it with the engine."""

from __future__ import annotations

import copy
import json
import random
import re

from azul_conformance.notation import COLOURS, FLOOR_SPACES, MARKER, wall_colour
from azul_conformance.render_svg import render_state
from azul_conformance.tiling_account import accounts, after_take
from azul_reference import AzulError, Game, InvalidState, from_state, parse_move, problems, to_state

_RULE = re.compile(r"\b[A-Z]+-\d+\b")
# The page's words in its language (the `try_` keys of spec/i18n/site.yaml or spec/i18n/<lang>/site.yaml), given
# by the page (Table.set_words): every text below is said in them. The engine's own messages (a refusal's
# reason, a position's problems) stay in English, as the engine words them: an answer refused in our words says
# `ours`, so that the page marks only the engine's as English.
WORDS: dict[str, str] = {}


def say(key: str, **values) -> str:
    return WORDS["try_" + key].format(**values)


def draw(state: dict) -> str:
    """The table drawn by render_svg in the page's words (its `drawing_` and `place_` keys)."""
    def word(key: str, **values) -> str:
        return WORDS.get("drawing_" + key, WORDS.get("place_" + key, "")).format(**values)

    return render_state(state, word=word)


class Table:
    """The game on the page: the position, the positions before it (to step back) and what each step did."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.back: list[Game] = []
        self.replayed: list = []  # a record's replay steps, and the claims each one's notes make
        self.claims: list[list[str]] = []
        self.draft: dict | None = None  # the position being edited: a state document, checked only when loaded

    @staticmethod
    def set_words(text: str) -> None:
        WORDS.clear()
        WORDS.update(json.loads(text))

    def load(self, text: str) -> str:
        """A state document pasted or taken from the link: refused with every problem, each naming its rule."""
        try:
            document = json.loads(text)
        except ValueError as error:
            return _answer(refused=say("not_json", error=error), rules=[], ours=True)
        found = problems(document)
        if found:
            return _answer(refused=say("impossible"), ours=True, problems=found,
                           rules=sorted({r for p in found for r in _RULE.findall(p)}))
        try:
            self.game = from_state(document)
        except InvalidState as error:  # problems() found none, so this is only a safeguard
            return _answer(refused=str(error), problems=error.problems, rules=[])
        self.back = []
        return self.view()

    def new_game(self, players: int, variant: str, start_player: int) -> str:
        try:
            self.game = Game(players, variant, start_player)
        except AzulError as error:
            return _answer(refused=str(error), rules=[error.rule] if error.rule else [])
        self.back = []
        return self.view()

    def view(self) -> str:
        game = self.game
        state = to_state(game)
        moves = [str(move) for move in game.legal_moves()] if game.phase in ("offer", "tiling") else []
        return _answer(state=state, svg=draw(state), moves=moves, link=json.dumps(state, separators=(",", ":")))

    def deal(self, factories: list[str]) -> str:
        """A deal step: the factories given (a scenario's), or drawn from the bag (a fixed seed: the same link
        deals the same tiles)."""
        before = self.game.copy()
        try:
            if factories:
                self.game.deal(factories=list(factories))
            else:
                self.game.deal(rng=random.Random(0))
        except AzulError as error:
            return _answer(refused=str(error), rules=[error.rule] if error.rule else [])
        self.back.append(before)
        return _answer(effects=[{"text": say("dealt", factories=" ".join(to_state(self.game)["factories"])),
                                 "rules": ["DEAL-1"]}])

    def play(self, text: str) -> str:
        """Play one move typed or clicked; an illegal one is refused with the rule that forbids it."""
        game = self.game
        before_state = to_state(game)
        before = game.copy()
        try:
            game.play(parse_move(text.strip()))
        except AzulError as error:
            return _answer(refused=str(error), rules=[error.rule] if error.rule else [])
        self.back.append(before)
        return _answer(effects=effects(before_state, text.strip(), to_state(game)))

    def edit_start(self) -> str:
        """Edit the position on the board: a copy of it, changed by `edit` and checked by `edit_done`."""
        self.draft = to_state(self.game)
        return self.drawn()

    def edit_new(self, players: int, variant: str) -> str:
        """A new table to edit: the players and the wall chosen, its first round dealt (a fixed seed)."""
        try:
            game = Game(players, variant, 0)
            game.deal(rng=random.Random(0))
        except AzulError as error:
            return _answer(refused=str(error), rules=[error.rule] if error.rule else [])
        self.draft = to_state(game)
        return self.drawn()

    def drawn(self) -> str:
        return _answer(state=self.draft, svg=draw(self.draft))

    def edit(self, target: str, tile: str) -> str:
        """One click on the board being edited: `target` names what was clicked ("wall SEAT ROW COLUMN", "line
        SEAT ROW", "floor SEAT SPACE", "factory INDEX", "centre", "score SEAT N", "turn SEAT", "round N"), `tile`
        the tile in hand (a colour letter, M for the marker, or "" to clear). The tiles come from the bag and go
        back to it, so that every colour keeps its 20 tiles (SETUP-4); whether the position could happen in a
        game is for the engine to say when it is loaded."""
        draft = copy.deepcopy(self.draft)  # a refused click changes nothing
        try:
            edit_draft(draft, target.split(), tile)
        except EditRefused as refusal:
            return _answer(refused=str(refusal), rules=refusal.rules, ours=True)
        except (ValueError, IndexError, TypeError):
            return _answer(refused=say("nothing_there", target=repr(target)), rules=[], ours=True)
        self.draft = draft
        return self.drawn()

    def edit_done(self) -> str:
        """The edited position checked by the engine: refused with every problem and its rule, or played on."""
        return self.load(json.dumps(self.draft))

    def open_record(self, text: str, name: str) -> str:
        """A game record (.azr) replayed as `azul replay` replays it: every claim checked, and where the record
        and our rules part ways, the rule and both sides' values. Needs records.zip (loaded for records only)."""
        from azul_conformance.records import RecordError, explain, parse_record, replay  # deferred: records.zip
        from azul_conformance.records.model import Claim
        from azul_conformance.spec_data import rule_titles

        # Naming the catalogued misreading behind a false claim replays the game under each mutant through the
        # suite's harness (rich, fastjsonschema, engine processes), which the page does not load: here a false
        # claim is explained by the step's own account and rule, as `azul replay` explains it when no misreading
        # reproduces the record.
        explain._misreadings = lambda claim, steps: []

        try:
            record = parse_record(text, name)
        except RecordError as error:
            return _answer(refused=str(error), rules=[error.rule] if error.rule else [])
        failure = None
        try:
            result = replay(record, text=text)
        except RecordError as error:
            failure, result = error, getattr(error, "result", None)
        self.replayed = list(result.steps) if result is not None else []
        self.claims = [[str(note) for note in getattr(step.item, "notes", ()) if isinstance(note, Claim)]
                       for step in self.replayed]
        answer = {"steps": len(self.replayed), "claims_checked": result.claims_checked if result else 0}
        if failure is not None:
            found = getattr(failure, "disagreement", None)
            answer["failure"] = str(failure)
            answer["detail"] = found.lines(rule_titles()) if found is not None else []
            rule = found.rule if found is not None else failure.rule
            answer["rules"] = [rule] if rule else []
        return _answer(**answer)

    @staticmethod
    def samples() -> str:
        """The published example records (conformance/records/samples): name -> text."""
        from azul_conformance.records import sample_paths  # deferred: records.zip

        return _answer(**{path.name: path.read_text(encoding="utf-8") for path in sample_paths()})

    def record_step(self, index: int) -> str:
        """The table after step `index` of the record opened, and the claims that step's notes make."""
        step = self.replayed[index]
        state = step.state
        label = say("record_start") if step.kind == "start" else say("record_round", round=step.round, label=step.label)
        self.game = from_state(state)  # play on from here if the reader wants to
        self.back = []
        return _answer(state=state, svg=draw(state), label=label, claims=self.claims[index])

    def undo(self) -> str:
        if self.back:
            self.game = self.back.pop()
        return self.view()


def effects(before: dict, move: str, after: dict) -> list[dict]:
    """What one move did, each line with the rules that decide it."""
    out = []
    seat = before["turn"]
    if move[0] in "123456789C" and len(move) == 3:
        out += _take_effects(before, move, seat)
    else:
        out.append({"text": say("place", seat=seat, line=move[1], column=move[3]),
                    "rules": ["GREY-1", "GREY-2"]})
    tiled = after["round"] != before["round"] or after["phase"] == "over"
    if tiled and before["phase"] == "offer":
        out += _tiling_effects(before, move, after)
    if after["phase"] == "over":
        out += _end_effects(after)
    elif after["round"] != before["round"]:
        rule = "ROUND-3" if before["marker"] == "centre" and "M" not in "".join(
            b["floor"] for b in after_take(before, move)) else "ROUND-2"
        out.append({"text": say("round_starts", round=after["round"], seat=after["start_player"]), "rules": [rule]})
    return out


def _take_effects(before: dict, move: str, seat: int) -> list[dict]:
    source, colour, line = move[0], move[1], move[2]
    pool = before["centre"] if source == "C" else before["factories"][int(source) - 1]
    count = pool.count(colour)
    where = say("from_centre") if source == "C" else say("from_factory", factory=source)
    to = say("to_floor") if line == "F" else say("to_line", line=line)
    rules = ["OFFER-4" if source == "C" else "OFFER-2", "OFFER-11" if line == "F" else "OFFER-7"]
    out = [{"text": say("take", seat=seat, count=count, colour=colour, source=where, target=to), "rules": rules}]
    if source != "C" and len(pool) > count:
        out.append({"text": say("rest", source=where, tiles="".join(c for c in pool if c != colour)),
                    "rules": ["OFFER-3"]})
    if source == "C" and before["marker"] == "centre":
        out.append({"text": say("takes_marker", seat=seat), "rules": ["OFFER-5"]})
    board = after_take(before, move)[seat]
    old = before["boards"][seat]
    extra = len(board["floor"]) - len(old["floor"]) - (1 if source == "C" and before["marker"] == "centre" else 0)
    if line != "F" and extra > 0:
        out.append({"text": say("overflow", count=extra), "rules": ["OFFER-10"]})
    return out


def _tiling_effects(before: dict, move: str, after: dict) -> list[dict]:
    found = accounts(before, move, after)
    if found is None:  # never an account that does not add up to the engine's scores: only the scores then
        return [{"text": say("scores_only", seat=seat, before=old["score"], after=new["score"]), "rules": []}
                for seat, (old, new) in enumerate(zip(before["boards"], after["boards"]))]
    return [{"text": text, "rules": list(dict.fromkeys(_RULE.findall(text)))}
            for seat, account in enumerate(found) for text in account_lines(account, seat)]


def account_lines(account, seat: int) -> list[str]:
    """A tiling's account (conformance/tiling_account.py) in the page's words: its lines are those of
    Account.lines, which the replay's explanations print in English."""
    out = [say("before", seat=seat, score=account.before)]
    for row, column, colour, across, down in account.tiles:
        out.append(say("tile_scored", colour=colour, row=row + 1, column=column + 1,
                       points=account.points(across, down), rule="SCORE-1" if across == down == 1 else "SCORE-2",
                       across=across, down=down))
    if account.floor:
        out.append(say("floor_scored", tiles=account.floor, points=account.penalty(),
                       rules="FLOOR-3, FLOOR-4" if "M" in account.floor else "FLOOR-3"))
    raw = account.before + account.tile_points() - account.penalty()
    if raw < 0:
        out.append(say("below_zero", raw=raw))
    for value, what in zip(account.bonuses(), ("rows", "columns", "colours")):
        if value:
            out.append(say("bonus_" + what, points=value))
    out.append(say("total", score=account.total()))
    return out


def _end_effects(after: dict) -> list[dict]:
    complete = [seat for seat, board in enumerate(after["boards"]) if any("." not in row for row in board["wall"])]
    if complete:
        out = [{"text": say("end_row", seats=", ".join(map(str, complete))),
                "rules": ["END-1"]}]
    else:
        out = [{"text": say("end_tiles"), "rules": ["END-8"]}]
    winners = after["winners"] or []
    out.append({"text": say("winner", seats=say("and").join(map(str, winners))), "rules": ["END-5", "END-6", "END-7"]})
    return out


class EditRefused(Exception):
    def __init__(self, text: str, rules: list[str]) -> None:
        super().__init__(text)
        self.rules = rules


def edit_draft(state: dict, target: list[str], tile: str) -> None:
    """Change the state document as one click on the board asks (see Table.edit)."""
    kind, numbers = target[0], [int(n) for n in target[1:]]
    if kind in ("score", "turn", "round"):
        if kind == "score":
            state["boards"][numbers[0]]["score"] = numbers[1]
        else:
            state[kind] = numbers[0]
        return
    if tile not in COLOURS + MARKER + "":
        raise EditRefused(say("nothing_there", target=repr(tile)), [])
    if kind == "wall":
        _edit_wall(state, *numbers, tile)
    elif kind == "line":
        seat, row = numbers
        lines = state["boards"][seat]["lines"]
        held = lines[row]
        _to_bag(state, held)
        if tile in ("", MARKER) or (held and held[0] == tile and len(held) == row + 1):
            lines[row] = ""  # a full line clicked with its colour again empties it
        else:
            lines[row] = ""
            count = len(held) + 1 if held and held[0] == tile else 1
            lines[row] = _from_bag(state, tile, count)
    elif kind == "floor":
        seat, space = numbers
        floor = state["boards"][seat]["floor"]
        if space < len(floor):  # a tile on the floor clicked: taken off (the marker back to the centre)
            removed, state["boards"][seat]["floor"] = floor[space], floor[:space] + floor[space + 1:]
            if removed == MARKER:
                state["marker"] = "centre"
            else:
                _to_bag(state, removed)
        elif tile == MARKER:
            _take_marker(state)
            state["boards"][seat]["floor"] += MARKER
            state["marker"] = seat
        elif tile and len(floor) < FLOOR_SPACES:
            state["boards"][seat]["floor"] += _from_bag(state, tile, 1)
    elif kind == "factory":
        (index,) = numbers
        held = state["factories"][index]
        if not tile or len(held) == 4:  # clearing, or a full factory clicked: it starts again empty
            _to_bag(state, held)
            held = state["factories"][index] = ""
        if tile and tile != MARKER:
            state["factories"][index] = held + _from_bag(state, tile, 1)
    elif kind == "centre":
        if tile == MARKER:
            _take_marker(state)
            state["marker"] = "centre"
        elif tile:
            state["centre"] = _sorted(state["centre"] + _from_bag(state, tile, 1))
        else:
            _to_bag(state, state["centre"])
            state["centre"] = ""
    else:
        raise EditRefused(say("nothing_there", target=repr(" ".join(target))), [])


def _edit_wall(state: dict, seat: int, row: int, column: int, tile: str) -> None:
    wall = state["boards"][seat]["wall"]
    cells = list(wall[row])
    if cells[column] != ".":
        _to_bag(state, cells[column])
        cells[column] = "."
    else:
        # the coloured wall shows which colour goes where (WALL-1); on the grey wall the tile in hand is placed
        colour = wall_colour(row, column) if state["variant"] == "colour" else tile
        if colour in ("", MARKER):
            return
        cells[column] = _from_bag(state, colour, 1)
    wall[row] = "".join(cells)


def _take_marker(state: dict) -> None:
    for board in state["boards"]:
        board["floor"] = board["floor"].replace(MARKER, "")


def _from_bag(state: dict, colour: str, count: int) -> str:
    """`count` tiles of `colour` out of the bag (then the lid): every tile placed comes from one of them."""
    wanted = count
    for place in ("bag", "lid"):
        while count and colour in state[place]:
            state[place] = state[place].replace(colour, "", 1)
            count -= 1
    if count:
        raise EditRefused(say("no_tile", colour=colour), ["SETUP-4"])
    return colour * wanted


def _to_bag(state: dict, tiles: str) -> None:
    state["bag"] = _sorted(state["bag"] + tiles.replace(MARKER, ""))


def _sorted(tiles: str) -> str:
    return "".join(sorted(tiles, key=COLOURS.index))


def _answer(**fields) -> str:
    return json.dumps(fields)


table = Table()
