"""Draw a canonical `azul-state/1` table as SVG: factories, centre, bag and lid, and every player's board.

Each board is laid out as on the printed board: score, pattern lines right-aligned (line 1 holds 1 tile,
line 5 holds 5), the 5x5 wall, and the 7-space floor line with its penalties printed above it.
Colour-blind readers are served first: every tile carries its letter (B Y R K W, M for the first-player
marker), the palette is Okabe-Ito based, and each letter is black or white, whichever contrasts more.

The places that changed since an earlier state (properties.canonical.changed_places names them) can be
marked: a thick dashed outline around each, so not by colour alone, and listed in the picture's title.

The SVG is built with xml.etree (so text is always escaped), has a viewBox, no ids (many diagrams can share
one HTML page) and no randomness: the same state always gives the same bytes.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any, Callable, Collection

from .notation import COLOUR_NAMES, COLOURS, FLOOR_PENALTIES, wall_colour

FILL = {"B": "#0072B2", "Y": "#F0E442", "R": "#D55E00", "K": "#1A1A1A", "W": "#F4F8FB", "M": "#FFF3C4"}
STROKE = {"B": "#004A75", "Y": "#A89A1C", "R": "#8C3D00", "K": "#000000", "W": "#7D8A94", "M": "#8A6D00"}
SVG_NS = "http://www.w3.org/2000/svg"

TILE = 26          # side of a tile
STEP = 30          # distance between neighbouring spaces
PAD = 12           # inner margin of a board
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
BOARD_W = PAD + 5 * STEP + 18 + 5 * STEP + PAD       # pattern lines, a gap, the wall
BOARD_H = 34 + 5 * STEP + 18 + STEP + PAD           # header, lines/wall, penalties, floor
WALL_X = PAD + 5 * STEP + 18                        # the wall's left edge on a board
FLOOR_Y = 34 + 5 * STEP + 18 + 14                   # the floor spaces' top edge on a board
MARK = "#5B2C83"                                    # the outline of a changed place (dashed: not colour alone)


def _luminance(hex_colour: str) -> float:
    """Relative luminance as WCAG defines it, to pick the letter colour with the better contrast."""
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def letter_colour(fill: str) -> str:
    """Black or white, whichever has the higher contrast ratio against `fill`."""
    lum = _luminance(fill)
    on_white = 1.05 / (lum + 0.05)
    on_black = (lum + 0.05) / 0.05
    return "#FFFFFF" if on_white >= on_black else "#000000"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def _text(parent: ET.Element, x: float, y: float, text: str, size: int = 12, anchor: str = "start",
          weight: str = "normal", fill: str = "#222222", class_: str | None = None) -> ET.Element:
    attrs = {"class_": class_} if class_ else {}
    return _sub(parent, "text", text, x=x, y=y, font_size=size, text_anchor=anchor, font_weight=weight,
                fill=fill, **attrs)


def draw_tile(parent: ET.Element, x: float, y: float, letter: str, size: int = TILE) -> ET.Element:
    """A tile (or the marker, letter M) with its top-left corner at (x, y)."""
    kind = "marker" if letter == "M" else "tile"
    group = _sub(parent, "g", class_=kind, data_colour=letter)
    _sub(group, "title", COLOUR_NAMES.get(letter, letter))
    _sub(group, "rect", x=x, y=y, width=size, height=size, rx=4, fill=FILL.get(letter, "#FF00FF"),
         stroke=STROKE.get(letter, "#000000"), stroke_width=2 if letter == "M" else 1)
    _text(group, x + size / 2, y + size / 2 + size * 0.19, letter, size=int(size * 0.55), anchor="middle",
          weight="bold", fill=letter_colour(FILL.get(letter, "#FF00FF")))
    return group


def _empty_space(parent: ET.Element, x: float, y: float, class_: str, hint: str | None = None,
                 grey: bool = False) -> ET.Element:
    """An empty space: a faint colour hint on the coloured wall, grey on the grey wall, else an outline."""
    group = _sub(parent, "g", class_=class_)
    if hint:
        _sub(group, "rect", x=x, y=y, width=TILE, height=TILE, rx=4, fill=FILL[hint], fill_opacity="0.22",
             stroke=STROKE[hint], stroke_opacity="0.45", stroke_dasharray="3 2")
        _text(group, x + TILE / 2, y + TILE / 2 + 5, hint, size=13, anchor="middle", fill="#555555",
              class_="hint")
        group.set("data-hint", hint)
    else:
        dashes = {} if grey else {"stroke_dasharray": "3 2"}
        _sub(group, "rect", x=x, y=y, width=TILE, height=TILE, rx=4, fill="#D0D0D0" if grey else "#FFFFFF",
             stroke="#9A9A9A", **dashes)
    return group


def _check(state: Any) -> None:
    """Fail early with a message that says what is missing, rather than a KeyError deep in the drawing."""
    if not isinstance(state, dict):
        raise ValueError(f"a canonical state is a JSON object, not {type(state).__name__}")
    missing = [key for key in ("factories", "centre", "boards") if key not in state]
    if missing:
        raise ValueError(f"not an azul-state/1 table: missing {', '.join(missing)}")
    for seat, board in enumerate(state["boards"]):
        if not isinstance(board, dict) or "lines" not in board or "wall" not in board:
            raise ValueError(f"board {seat} needs 'lines' and 'wall'")


def _badges(state: dict, seat: int, word: Callable[..., str]) -> list[str]:
    phase = state.get("phase")
    badges = []
    if phase == "over":
        if seat in (state.get("winners") or []):
            badges.append(word("badge_winner"))
    else:
        if state.get("turn") == seat:
            badges.append(word("badge_to_move" if phase != "deal" else "badge_deals"))
        if state.get("start_player") == seat:
            badges.append(word("badge_start_player"))
    return badges


def _board(parent: ET.Element, state: dict, seat: int, x0: float, y0: float,
           changed: Collection[str] = (), word: Callable[..., str] | None = None) -> ET.Element:
    word = word or _english
    board = state["boards"][seat]
    grey = state.get("variant") == "grey"
    highlight = state.get("phase") not in ("over", None) and state.get("turn") == seat
    group = _sub(parent, "g", class_="board", data_seat=seat, transform=f"translate({x0},{y0})")
    _sub(group, "rect", x=0, y=0, width=BOARD_W, height=BOARD_H, rx=8, fill="#FBF7EF",
         stroke="#C0392B" if highlight else "#8B7D6B", stroke_width=3 if highlight else 1)
    _text(group, PAD, 22, word("board_seat", seat=seat), size=14, weight="bold")
    _text(group, PAD + 62, 22, word("board_score", score=board.get("score", 0)), size=14, class_="score")
    badges = _badges(state, seat, word)
    if badges:
        _text(group, BOARD_W - PAD, 22, " · ".join(badges), size=12, anchor="end", weight="bold",
              fill="#C0392B" if highlight else "#1B6E3A", class_="badges")
    _pattern_lines(group, board.get("lines", []), PAD, 34)
    _wall(group, board.get("wall", []), WALL_X, 34, grey)
    _floor(group, board.get("floor", ""), PAD, 34 + 5 * STEP + 18, word)
    for place in changed:
        found = _BOARD_PLACE.fullmatch(place)
        if found and int(found["seat"]) == seat and _space(found) is not None:
            _outline(group, *_space(found), place)
    return group


# A board's places as canonical.changed_places names them: a wall, pattern line or floor space, the score.
_BOARD_PLACE = re.compile(r"/boards/(?P<seat>[0-9]+)/(?:wall/(?P<row>[0-4])/(?P<column>[0-4])"
                          r"|lines/(?P<line>[0-4])/(?P<slot>[0-4])|floor/(?P<space>[0-6])|(?P<score>score))")
_TABLE_PLACE = re.compile(r"/(?:factories/(?P<factory>[0-9]+)|(?P<name>centre|marker|bag|lid))")


def _space(found: re.Match) -> tuple[float, float, float, float] | None:
    """Where a board place is drawn on its board: (x, y, width, height); None where the line has no such space."""
    if found["column"] is not None:
        return WALL_X + int(found["column"]) * STEP, 34 + int(found["row"]) * STEP, TILE, TILE
    if found["line"] is not None:
        line, slot = int(found["line"]), int(found["slot"])
        return (PAD + (4 - slot) * STEP, 34 + line * STEP, TILE, TILE) if slot <= line else None
    if found["space"] is not None:
        return PAD + int(found["space"]) * STEP, FLOOR_Y, TILE, TILE
    return PAD + 58, 6, 84, 22  # the score


def _outline(parent: ET.Element, x: float, y: float, width: float, height: float, place: str) -> None:
    """A changed place's mark: a thick dashed outline a little outside it."""
    _sub(parent, "rect", x=x - 3, y=y - 3, width=width + 6, height=height + 6, rx=6, fill="none", stroke=MARK,
         stroke_width=3, stroke_dasharray="6 3", class_="changed", data_place=place)


# A changed place in words, in English, the picture's own language; a page in another language gives describe_changes
# its own words for the same keys and values.
PLACE_WORDS = {"seat": "seat {seat}", "wall": "{seat}, wall row {row}, column {column}",
               "line": "{seat}, pattern line {line}, {spaces} from the right", "floor": "{seat}, floor line, {spaces}",
               "score": "{seat}, score", "space": "space {n}", "spaces": "spaces {n}", "factory": "factory {n}",
               "centre": "centre", "marker": "first-player marker", "bag": "bag", "lid": "lid", "between": "; "}
# The drawing's own words, in English; a page in another language gives render_state its own words for these keys
# and PLACE_WORDS's (the "try it" page: spec/i18n/<lang>/site.yaml's drawing_ and place_ keys).
DRAWING_WORDS = {"board_seat": "Seat {seat}", "board_score": "score {score}", "badge_winner": "winner",
                 "badge_to_move": "to move", "badge_deals": "deals", "badge_start_player": "start player",
                 "floor_line": "floor line", "tiles_one": "{name}: {n} tile", "tiles_many": "{name}: {n} tiles",
                 "heading": "Azul · {parts}", "heading_between": " · ", "heading_colour": "colour wall",
                 "heading_grey": "grey wall", "heading_players": "{n} players", "heading_round": "round {n}",
                 "heading_phase_offer": "phase offer", "heading_phase_tiling": "phase tiling",
                 "heading_phase_deal": "phase deal", "heading_phase_over": "phase over",
                 "heading_winner": "winner: {seats}",
                 "heading_winners": "winners: {seats}", "heading_no_winner": "none",
                 "heading_turn": "turn: seat {seat}"}


def _english(key: str, **values: object) -> str:
    return (PLACE_WORDS[key] if key in PLACE_WORDS else DRAWING_WORDS[key]).format(**values)


def describe_changes(places: Collection[str], word: Callable[..., str] = _english) -> str:
    """The changed places in words, in the order given, `between` them: rows, lines, columns and spaces
    counted from 1 as on the printed board, the spaces of one pattern line or floor line together ("seat 0,
    pattern line 3, spaces 1-3 from the right"); a field the picture does not mark (the turn) is left out.
    `word(key, **values)`: the words of PLACE_WORDS's keys."""
    parts: list[str | tuple[str, str, int]] = []
    spaces: dict[tuple[str, str, int], list[int]] = {}  # (pattern line or floor, seat, line) -> its spaces
    for place in places:
        found = _BOARD_PLACE.fullmatch(place)
        if found:
            seat = word("seat", seat=found["seat"])
            if found["column"] is not None:
                parts.append(word("wall", seat=seat, row=int(found["row"]) + 1, column=int(found["column"]) + 1))
            elif found["score"]:
                parts.append(word("score", seat=seat))
            else:
                line = ("line", seat, int(found["line"]) + 1) if found["line"] is not None else ("floor", seat, 0)
                parts += [] if line in spaces else [line]
                spaces.setdefault(line, []).append(int(found["slot"] or found["space"]) + 1)
        elif found := _TABLE_PLACE.fullmatch(place):
            parts.append(word("factory", n=int(found["factory"]) + 1) if found["factory"] else word(found["name"]))
    texts = [part if isinstance(part, str) else
             word(part[0], seat=part[1], line=part[2], spaces=word("space" if len(spaces[part]) == 1 else "spaces",
                                                                   n=_numbers(spaces[part])))
             for part in parts]
    return word("between").join(dict.fromkeys(texts))


def _numbers(numbers: list[int]) -> str:
    """1, 2, 3 as "1-3" (an en dash); others listed: "1, 3"."""
    numbers = sorted(set(numbers))
    if len(numbers) > 2 and numbers[-1] - numbers[0] == len(numbers) - 1:
        return f"{numbers[0]}\u2013{numbers[-1]}"
    return ", ".join(map(str, numbers))


def _pattern_lines(parent: ET.Element, lines: list[str], x0: float, y0: float) -> None:
    group = _sub(parent, "g", class_="pattern-lines")
    for row in range(5):
        content = lines[row] if row < len(lines) else ""
        for slot_from_right in range(row + 1):
            x = x0 + (4 - slot_from_right) * STEP
            y = y0 + row * STEP
            # Lines fill right to left, so the k-th tile sits k spaces from the right end.
            if slot_from_right < len(content):
                draw_tile(group, x, y, content[slot_from_right])
            else:
                _empty_space(group, x, y, "space")


def _wall(parent: ET.Element, wall: list[str], x0: float, y0: float, grey: bool) -> None:
    group = _sub(parent, "g", class_="wall")
    for row in range(5):
        cells = wall[row] if row < len(wall) else "....."
        for column in range(5):
            x, y = x0 + column * STEP, y0 + row * STEP
            letter = cells[column] if column < len(cells) else "."
            if letter in COLOURS:
                draw_tile(group, x, y, letter)
            elif grey:
                _empty_space(group, x, y, "space", grey=True)
            else:
                _empty_space(group, x, y, "space", hint=wall_colour(row, column))


def _floor(parent: ET.Element, floor: str, x0: float, y0: float, word: Callable[..., str]) -> None:
    group = _sub(parent, "g", class_="floor")
    for slot, penalty in enumerate(FLOOR_PENALTIES):
        x = x0 + slot * STEP
        _text(group, x + TILE / 2, y0 + 10, str(-penalty), size=11, anchor="middle", fill="#7A1F1F",
              class_="penalty")
        if slot < len(floor):
            draw_tile(group, x, y0 + 14, floor[slot])
        else:
            _empty_space(group, x, y0 + 14, "space")
    _text(group, x0 + 7 * STEP + 6, y0 + 14 + TILE / 2 + 4, word("floor_line"), size=11, fill="#6B6B6B")


def _factory(parent: ET.Element, index: int, content: str, cx: float, cy: float,
             word: Callable[..., str]) -> None:
    group = _sub(parent, "g", class_="factory", data_factory=index + 1)
    _sub(group, "circle", cx=cx, cy=cy, r=34, fill="#EFE6D5", stroke="#8B7D6B")
    small = 22
    for k, letter in enumerate(content[:4]):
        dx = -small - 1 if k % 2 == 0 else 1
        dy = -small - 1 if k < 2 else 1
        draw_tile(group, cx + dx, cy + dy, letter, size=small)
    _text(group, cx, cy + 48, word("factory", n=index + 1), size=11, anchor="middle", fill="#555555")


def _centre(parent: ET.Element, state: dict, x0: float, y0: float, width: float,
            word: Callable[..., str]) -> float:
    """The centre with its tiles and, while nobody has taken it, the marker; returns the height used."""
    tiles = ("M" if state.get("marker") == "centre" else "") + state.get("centre", "")
    per_row = max(1, int((width - 2 * PAD) // STEP))
    rows = max(1, -(-len(tiles) // per_row))
    height = 28 + rows * STEP + 6
    group = _sub(parent, "g", class_="centre")
    _sub(group, "rect", x=x0, y=y0, width=width, height=height, rx=10, fill="#EFE6D5", stroke="#8B7D6B")
    _text(group, x0 + PAD, y0 + 18, word("centre"), size=12, weight="bold", fill="#555555")
    for k, letter in enumerate(tiles):
        draw_tile(group, x0 + PAD + (k % per_row) * STEP, y0 + 26 + (k // per_row) * STEP, letter)
    return height


def _count_line(name: str, content: str, word: Callable[..., str] = _english) -> str:
    counts = Counter(content)
    detail = ", ".join(f"{c} {counts[c]}" for c in COLOURS if counts[c])
    return (word("tiles_one" if len(content) == 1 else "tiles_many", name=word(name), n=len(content))
            + (f" ({detail})" if detail else ""))


def _heading(state: dict, word: Callable[..., str] = _english) -> str:
    variant = state.get("variant", "colour")
    parts = [word(f"heading_{variant}") if variant in ("colour", "grey") else f"{variant} wall",
             word("heading_players", n=len(state["boards"]))]
    if state.get("round") is not None:
        parts.append(word("heading_round", n=state["round"]))
    phase = state.get("phase")
    if phase:
        known = phase in ("offer", "tiling", "deal", "over")
        parts.append(word(f"heading_phase_{phase}") if known else f"phase {phase}")
    if phase == "over":
        winners = state.get("winners") or []
        seats = ", ".join(word("seat", seat=w) for w in winners) or word("heading_no_winner")
        parts.append(word("heading_winner" if len(winners) == 1 else "heading_winners", seats=seats))
    elif state.get("turn") is not None:
        parts.append(word("heading_turn", seat=state["turn"]))
    return word("heading", parts=word("heading_between").join(parts))


def _svg(width: float, height: float, label: str) -> ET.Element:
    root = ET.Element("svg", {"xmlns": SVG_NS, "viewBox": f"0 0 {width} {height}", "width": str(width),
                              "height": str(height), "role": "img", "aria-label": label,
                              "font-family": FONT, "class": "azul-diagram"})
    _sub(root, "title", label)
    # An opaque background keeps the drawing readable on a dark page.
    _sub(root, "rect", x=0, y=0, width="100%", height="100%", fill="#FFFFFF", class_="background")
    return root


def _serialise(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode")


def render_state(state: dict, changed: Collection[str] = (), word: Callable[..., str] = _english) -> str:
    """The whole table of a canonical state as one SVG document (a string); `changed`: the places to mark as
    changed since an earlier state (canonical.changed_places), outlined and listed in the title; `word(key,
    **values)`: the drawing's words (DRAWING_WORDS's and PLACE_WORDS's keys), English unless given."""
    _check(state)
    factories = state["factories"]
    columns = 2 if len(state["boards"]) > 1 else 1
    width = max(columns * BOARD_W + (columns + 1) * PAD, len(factories) * 84 + 2 * PAD)
    label = _heading(state, word)
    marked = marked_places(state, changed)
    root = _svg(width, 0, label)
    _text(root, PAD, 22, label, size=14, weight="bold", class_="heading")
    for index, content in enumerate(factories):
        _factory(root, index, content, PAD + 42 + index * 84, 34 + 38, word)
        if f"/factories/{index}" in marked:
            _sub(root, "circle", cx=PAD + 42 + index * 84, cy=34 + 38, r=39, fill="none", stroke=MARK,
                 stroke_width=3, stroke_dasharray="6 3", class_="changed", data_place=f"/factories/{index}")
    y = 34 + 90
    height = _centre(root, state, PAD, y, width - 2 * PAD, word)
    for place in ("/centre", "/marker"):  # the marker, while nobody has taken it, is drawn in the centre
        if place in marked:
            _outline(root, PAD, y, width - 2 * PAD, height, place)
    y += height + 8
    supply = _sub(root, "g", class_="supply")
    for name, x in (("bag", PAD), ("lid", width / 2)):
        text = _count_line(name, state.get(name, ""), word)
        _text(supply, x, y + 12, text, size=12, class_=name)
        if f"/{name}" in marked:  # about 6.5 units a character at size 12
            _outline(supply, x, y, len(text) * 6.5, 16, f"/{name}")
    y += 24
    for seat in range(len(state["boards"])):
        row, column = divmod(seat, columns)
        _board(root, state, seat, PAD + column * (BOARD_W + PAD), y + row * (BOARD_H + PAD), marked, word)
    rows = -(-len(state["boards"]) // columns)
    height = y + rows * (BOARD_H + PAD)
    root.set("viewBox", f"0 0 {width} {height}")
    root.set("height", str(height))
    if marked:  # named in the order they are drawn: the table, then each board
        label += " · changed, outlined with dashes: " + describe_changes(
            [mark.get("data-place") for mark in root.iter() if mark.get("class") == "changed"])
        root.set("aria-label", label)
        root.find("title").text = label
    return _serialise(root)


def marked_places(state: dict, changed: Collection[str]) -> list[str]:
    """The changed places the picture of `state` marks, once each: a space of a seat it has, a factory it has,
    the centre...; not the fields drawn as words in the heading (the turn, the round, the phase)."""
    def drawn(place: str) -> bool:
        found = _BOARD_PLACE.fullmatch(place)
        if found:
            return int(found["seat"]) < len(state["boards"]) and _space(found) is not None
        found = _TABLE_PLACE.fullmatch(place)
        return bool(found) and (found["factory"] is None or int(found["factory"]) < len(state["factories"]))
    return [place for place in dict.fromkeys(changed) if drawn(place)]


def render_board(state: dict, seat: int) -> str:
    """One player's board as a standalone SVG document."""
    _check(state)
    if not isinstance(seat, int) or not 0 <= seat < len(state["boards"]):
        raise ValueError(f"no seat {seat!r}: the state has {len(state['boards'])} boards (seats from 0)")
    label = f"Azul · seat {seat} · {state.get('variant', 'colour')} wall"
    root = _svg(BOARD_W, BOARD_H, label)
    _board(root, state, seat, 0, 0)
    return _serialise(root)
