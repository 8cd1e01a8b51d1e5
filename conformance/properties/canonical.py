"""Facts about canonical `azul-state/1` documents, worked out on the dicts themselves (no engine involved).

The property checks must not lean on any engine's internals, the reference's included, so what they need to
know about a position (tile counts, the move notation's candidates, whether a deal was drawable) lives here.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any, Iterator

from .. import schemas
from ..engines.base import CanonicalState
from ..notation import COLOURS, DESTINATIONS



def tiles_text(counts: Counter) -> str:
    """A multiset as a canonical string (B Y R K W order)."""
    return "".join(colour * counts[colour] for colour in COLOURS)


def places(state: CanonicalState) -> Iterator[tuple[str, str]]:
    """Every place that holds tiles, with its name: factories, centre, bag, lid, and each board's parts."""
    for i, text in enumerate(state["factories"]):
        yield f"factories[{i}]", text
    for name in ("centre", "bag", "lid"):
        yield name, state[name]
    for seat, board in enumerate(state["boards"]):
        for i, text in enumerate(board["lines"]):
            yield f"boards[{seat}].lines[{i}]", text
        for r, row in enumerate(board["wall"]):
            yield f"boards[{seat}].wall[{r}]", row
        yield f"boards[{seat}].floor", board["floor"]


def tile_counts(state: CanonicalState) -> Counter:
    """How many tiles of each colour the state holds, wherever they are (the marker and `.` are not tiles)."""
    everything = "".join(text for _, text in places(state))
    return Counter({colour: n for colour in COLOURS if (n := everything.count(colour))})


def on_offer(state: CanonicalState) -> int:
    return sum(map(len, state["factories"])) + len(state["centre"])


def candidate_moves(state: CanonicalState) -> list[str]:
    """Every move the notation can write in this position: takes from every factory of the table and the
    centre, in every colour, to every destination; and the 25 placements. The legal ones are a subset."""
    sources = [str(i + 1) for i in range(len(state["factories"]))] + ["C"]
    takes = [s + c + d for s in sources for c in COLOURS for d in DESTINATIONS]
    placements = [f"{line}@{column}" for line in range(1, 6) for column in range(1, 6)]
    return takes + placements


# -- deals ------------------------------------------------------------------------------------------------------

def draw_deal(state: CanonicalState, rng: random.Random) -> list[str]:
    """A random drawable deal for a position in phase `deal` (DEAL-1..3): four tiles per factory in turn,
    from the bag while it lasts, then from the lid poured into the bag, as far as tiles exist."""
    bag = list(state["bag"])
    lid = list(state["lid"])
    factories = []
    for _ in state["factories"]:
        drawn: list[str] = []
        for _ in range(4):
            if not bag:
                bag, lid = lid, []
                if not bag:
                    break
            drawn.append(bag.pop(rng.randrange(len(bag))))
        factories.append("".join(sorted(drawn, key=_COLOUR_ORDER.__getitem__)))  # tiles_text, without a Counter
    return factories


_COLOUR_ORDER = {colour: i for i, colour in enumerate(COLOURS)}


def deal_problems(before: CanonicalState, after: CanonicalState) -> list[tuple[str, str]]:
    """Why `after` (the state a deal produced) could not come from drawing from `before`; (rule, message)."""
    found: list[tuple[str, str]] = []
    bag, lid = Counter(before["bag"]), Counter(before["lid"])
    available = sum(bag.values()) + sum(lid.values())
    wanted = min(4 * len(before["factories"]), available)
    sizes = [len(f) for f in after["factories"]]
    full, rest = divmod(wanted, 4)
    expected = [4] * full + ([rest] if rest else [])
    expected += [0] * (len(sizes) - len(expected))
    if sizes != expected:
        rule = "DEAL-3" if wanted < 4 * len(sizes) else "DEAL-1"
        found.append((rule, f"factory sizes {sizes}: with {available} tiles in bag and lid the deal fills "
                            f"the factories in order, 4 each while tiles last: {expected}"))
    dealt = Counter("".join(after["factories"]))
    new_bag, new_lid = Counter(after["bag"]), Counter(after["lid"])
    if sum(dealt.values()) <= sum(bag.values()):
        if dealt - bag:
            found.append(("DEAL-1", f"the deal {tiles_text(dealt)!r} is not in the bag {tiles_text(bag)!r}"))
        elif new_bag != bag - dealt or new_lid != lid:
            found.append(("DEAL-1", f"after dealing {tiles_text(dealt)!r} from bag {tiles_text(bag)!r}, the bag "
                                    f"must hold {tiles_text(bag - dealt)!r} and the lid stay {tiles_text(lid)!r}; "
                                    f"got bag {after['bag']!r}, lid {after['lid']!r}"))
    else:
        pool = bag + lid
        if bag - dealt:
            found.append(("DEAL-2", f"the deal {tiles_text(dealt)!r} took tiles from the lid while the bag still held "
                                    f"{tiles_text(bag - dealt)!r} (bag {before['bag']!r}, lid {before['lid']!r})"))
        elif dealt - pool:
            found.append(("DEAL-1", f"the deal {tiles_text(dealt)!r} is not in bag and lid {tiles_text(pool)!r}"))
        elif new_bag != pool - dealt or new_lid:
            found.append(("DEAL-2", f"after the lid was poured into the bag and {tiles_text(dealt)!r} drawn, the bag "
                                    f"must hold {tiles_text(pool - dealt)!r} and the lid nothing; got bag "
                                    f"{after['bag']!r}, lid {after['lid']!r}"))
    return found


def _free_fields() -> dict[str, frozenset[str]]:
    """Phase -> the state's fields no rule decides in that phase, as the state schema declares them (`x-free-in`)."""
    free: dict[str, set[str]] = {}
    for name, field in schemas.schema("state.schema.json")["properties"].items():
        for phase in field.get("x-free-in", ()):
            free.setdefault(phase, set()).add(name)
    return {phase: frozenset(names) for phase, names in free.items()}


# Once the game is over, `turn`, `start_player` and `marker` mean nothing: an engine may leave anything there,
# so no comparison of states looks at them then (docs/reference/state.md, "Fields").
FREE_FIELDS = _free_fields()


def state_diff(expected: CanonicalState, actual: CanonicalState, prefix: str = "") -> list[tuple[str, Any, Any]]:
    """Every leaf where two states differ: (path, expected, actual). Multisets compare as strings (canonical).
    The fields free in the phase both states are in (FREE_FIELDS) are left out: the one comparison of states
    that the suite makes, wherever it compares them."""
    if not prefix and isinstance(expected, dict) and isinstance(actual, dict) \
            and expected.get("phase") == actual.get("phase") and expected.get("phase") in FREE_FIELDS:
        free = FREE_FIELDS[expected["phase"]]
        expected = {key: value for key, value in expected.items() if key not in free}
        actual = {key: value for key, value in actual.items() if key not in free}
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in list(expected) + [k for k in actual if k not in expected]:
            out += state_diff(expected.get(key), actual.get(key), f"{prefix}/{key}")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual) \
            and not (prefix.endswith("winners")):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += state_diff(e, a, f"{prefix}/{i}")
        return out
    if prefix.endswith("winners") and isinstance(expected, list) and isinstance(actual, list):
        return [] if sorted(expected) == sorted(actual) else [(prefix, expected, actual)]
    return [] if expected == actual else [(prefix, expected, actual)]


# The fields that hold one tile a space, drawn space by space: a wall row, a pattern line, the floor line.
_SPACES = re.compile(r"/boards/[0-9]+/(wall/[0-9]|lines/[0-9]|floor)")


def changed_places(before: CanonicalState, after: CanonicalState) -> list[str]:
    """The places of the table that differ between two states, named as state_diff names them and down to the
    space where a field holds one tile a space: a wall space (`/boards/0/wall/1/2`: row 2, column 3), a pattern
    line's (`/boards/0/lines/2/0`: line 3's first space, counted from its right end, where it fills) or the
    floor's (`/boards/1/floor/3`); any other field whole (`/factories/0`, `/centre`, `/boards/0/score`)."""
    places = []
    for path, old, new in state_diff(before, after):
        if _SPACES.fullmatch(path) and isinstance(old, str) and isinstance(new, str):
            places += [f"{path}/{k}" for k in range(max(len(old), len(new))) if old[k:k + 1] != new[k:k + 1]]
        else:
            places.append(path)
    return places
