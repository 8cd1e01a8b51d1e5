"""The catalogue's readings by shape: for every rule of spec/rules, each shape of slip an engine author makes.

A reading written after meeting one engine explains that engine; the diagnosis must also reach engines nobody has
seen. So each rule's text (and the reference code implementing it) was gone through for every shape below, and
each cell of TABLE says what came of it: the catalogue's readings of that shape (those written from this table
carry `source="shape"` in the catalogue; the others were there before), or "n/a: " and why no plausible reading
of that shape exists for that rule. The readings written from the rules' text alone (clean_room/) join their cells
here, and add a column, WHERE, for the rules where the engine's move list and its check of a played move can
part. tests/test_shapes.py holds every rule to a full row and every id to the catalogue; the "Catch power" page
of the docs shows the table.
"""

from __future__ import annotations

from . import clean_room

SHAPES: dict[str, str] = {
    "comparison": "a comparison inverted, made non-strict or made on the wrong value",
    "off-by-one": "off by one: a count, an index, a bound",
    "seat": "the wrong seat: the next, the previous, seat 0, the last, the start player",
    "reset": "a reset missed (or made where none is due) between rounds",
    "once": "a step done once a game instead of once a round, or the reverse",
    "overwritten": "a value overwritten instead of checked or added",
    "order": "two steps in the wrong order",
}

NO_COMPARISON = "n/a: the rule compares nothing"
NO_COUNT = "n/a: the rule has no count, index or bound"
NO_SEAT = "n/a: the rule chooses no seat"
NO_RESET = "n/a: nothing of the rule carries over between rounds"
SAME_EVERY_ROUND = "n/a: the rule acts the same in every round; nothing is done once a game"
NOTHING_CHECKED = "n/a: the rule checks nothing that could be overwritten"
ONE_STEP = "n/a: one step, nothing to swap"

# rule -> shape -> the readings of that shape (ids of the catalogue), or "n/a: why"
TABLE: dict[str, dict[str, tuple[str, ...] | str]] = {
    # set-up
    "SETUP-1": {"comparison": NO_COMPARISON, "off-by-one": NO_COUNT, "seat": "n/a: one side for every seat",
                "reset": "n/a: the side is chosen once, at set-up", "once": "n/a: turning the boards each round "
                "has no source in any text", "overwritten": ("setup-unknown-variant-coloured",), "order": ONE_STEP},
    "SETUP-2": {"comparison": NO_COMPARISON, "off-by-one": "n/a: a start at 1 has no source in any text",
                "seat": "n/a: every seat starts alike", "reset": "n/a: scores set to 0 every round were considered: "
                "implausible, the score track is a running total",
                "once": "n/a: the same reading as the reset, considered there",
                "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "SETUP-3": {"comparison": "n/a: the count is looked up by the number of players, not compared",
                "off-by-one": ("setup-two-factories-a-player", "setup-factories-one-too-many"), "seat": NO_SEAT,
                "reset": "n/a: the factories are set out once", "once": "n/a: the count is the same every round",
                "overwritten": ("setup-nine-factories-always",), "order": ONE_STEP},
    "SETUP-4": {"comparison": NO_COMPARISON, "off-by-one": ("setup-22-per-colour",), "seat": NO_SEAT,
                "reset": "n/a: the bag is filled once, before the first deal",
                "once": ("deal-bag-refilled-every-round",), "overwritten": NOTHING_CHECKED,
                "order": ("setup-tiles-start-in-lid",)},
    "SETUP-5": {"comparison": ("setup-start-seat-modulo",), "off-by-one": ("setup-seats-from-1",),
                "seat": ("setup-seat-0-starts", "setup-first-turn-left-of-start-player"),
                "reset": "n/a: the marker's return between rounds is OFFER-1's",
                "once": ("round-same-start-player",), "overwritten": NOTHING_CHECKED,
                "order": ONE_STEP},
    "SETUP-6": {"comparison": ("setup-five-players-accepted", "setup-any-player-count"),
                "off-by-one": ("setup-four-players-refused", "setup-solo-allowed"), "seat": NO_SEAT,
                "reset": NO_RESET, "once": "n/a: checked once, at set-up",
                "overwritten": ("setup-player-count-clamped",), "order": ONE_STEP},
    # the deal
    "DEAL-1": {"comparison": "n/a: a factory is filled to four; running short is DEAL-3's",
               "off-by-one": ("deal-three-tiles-a-factory",), "seat": "n/a: the dealer is ROUND-2's",
               "reset": "n/a: the factories are always empty when a deal is due (OFFER-14)",
               "once": ("deal-at-new-game",), "overwritten": ("deal-unchecked", "deal-tiles-stay-in-bag"),
               "order": ("deal-any-time",)},
    "DEAL-2": {"comparison": ("deal-poured-when-short",),
               "off-by-one": ("deal-poured-per-factory", "deal-refill-between-factories"), "seat": NO_SEAT,
               "reset": ("deal-lid-copied",),
               "once": ("deal-lid-poured-every-round-end",), "overwritten": NOTHING_CHECKED,
               "order": ("deal-early-refill", "deal-refill-before-deal", "deal-refill-after-deal")},
    "DEAL-3": {"comparison": ("deal-short-ends-game",), "off-by-one": ("deal-partial-factory-back",),
               "seat": NO_SEAT, "reset": NO_RESET, "once": SAME_EVERY_ROUND,
               "overwritten": ("deal-short-any-factories",), "order": ("deal-short-round-robin",)},
    "DEAL-4": {"comparison": NO_COMPARISON, "off-by-one": "n/a: the counts are TILING-2's and FLOOR-2's",
               "seat": "n/a: the lid is shared by every seat", "reset": ("deal-bag-refilled-every-round",),
               "once": ("deal-lid-poured-every-round-end",), "overwritten": NOTHING_CHECKED,
               "order": "n/a: the readings of this rule send tiles elsewhere (tiling-rest-to-bag, floor-tiles-to-bag, "
               "floor-overflow-to-bag), not in another order"},
    # the factory offer
    "OFFER-1": {"comparison": "n/a: the turn passes by seat, nothing is compared",
                "off-by-one": "n/a: a wrap one seat early or late reaches a seat that does not exist: an engine "
                "fault, not a reading",
                "seat": ("offer-counterclockwise", "offer-seat-0-opens", "offer-wrap-to-start-player"),
                "reset": ("offer-marker-kept-by-holder", "offer-turns-run-on"), "once": SAME_EVERY_ROUND,
                "overwritten": NOTHING_CHECKED, "order": "n/a: the turn passed before a take's tiles are placed puts "
                "every take on the next board, against the engine's own list of moves: no engine plays that way"},
    "OFFER-2": {"comparison": "n/a: every tile of the colour, nothing compared",
                "off-by-one": ("offer-one-tile-taken",),
                "seat": "n/a: whose board is OFFER-15's", "reset": "n/a: a factory is empty after each take",
                "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED,
                "order": "n/a: the take and the rest's move to the centre are OFFER-3's"},
    "OFFER-3": {"comparison": NO_COMPARISON, "off-by-one": NO_COUNT, "seat": NO_SEAT,
                "reset": ("offer-rest-stays",), "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED,
                "order": ("offer-factory-pushed-to-centre-first",)},
    "OFFER-4": {"comparison": NO_COMPARISON, "off-by-one": NO_COUNT, "seat": NO_SEAT,
                "reset": "n/a: the marker's return is OFFER-1's", "once": SAME_EVERY_ROUND,
                "overwritten": ("offer-marker-to-each-centre-taker",), "order": ONE_STEP},
    "OFFER-5": {"comparison": ("offer-marker-with-first-take",),
                "off-by-one": "n/a: the leftmost free space; a space further is FLOOR-1's",
                "seat": ("offer-marker-to-the-next-seat",), "reset": ("offer-marker-kept-by-holder",),
                "once": ("offer-marker-first-round-only",), "overwritten": ("offer-it2-marker-first-box",),
                "order": ("offer-marker-after-tiles",)},
    "OFFER-6": {"comparison": ("offer-empty-take-passes", "offer-empty-take-empties-source"),
                "off-by-one": "n/a: at least one tile; 'at least two' has no source in any text", "seat": NO_SEAT,
                "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "OFFER-7": {"comparison": NO_COMPARISON, "off-by-one": "n/a: lines of N - 1 spaces leave line 1 with none, and "
                "N + 1 has no source: no engine could play", "seat": "n/a: whose board is OFFER-15's",
                "reset": "n/a: what a line keeps between rounds is TILING-3's", "once": SAME_EVERY_ROUND,
                "overwritten": ("offer-line-overwritten",), "order": ONE_STEP},
    "OFFER-8": {"comparison": ("offer-mixed-colours",), "off-by-one": NO_COUNT, "seat": NO_SEAT,
                "reset": ("tiling-line-colour-kept",), "once": SAME_EVERY_ROUND,
                "overwritten": ("offer-other-colour-replaces-line", "offer-other-colour-to-floor",
                                "offer-other-colour-recolours-line"), "order": ONE_STEP},
    "OFFER-9": {"comparison": ("offer-row-limit-printed-space", "offer-pt-colour-anywhere-on-wall"),
                "off-by-one": ("offer-row-limit-row-above", "offer-row-limit-row-below"), "seat": NO_SEAT,
                "reset": "n/a: a wall row is never emptied", "once": SAME_EVERY_ROUND,
                "overwritten": ("offer-row-limit-ignored",), "order": ONE_STEP},
    "OFFER-10": {"comparison": ("offer-only-what-fits",),
                 "off-by-one": "n/a: one tile more or fewer to the floor leaves a line over- or under-full, which "
                 "no engine could tile", "seat": NO_SEAT, "reset": NO_RESET, "once": SAME_EVERY_ROUND,
                 "overwritten": ("offer-overflow-whole-take-to-floor",), "order": ONE_STEP},
    "OFFER-11": {"comparison": ("offer-floor-only-overflow",), "off-by-one": NO_COUNT, "seat": NO_SEAT,
                 "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "OFFER-12": {"comparison": ("offer-last-space-refused", "offer-full-line-choosable"),
                 "off-by-one": "n/a: the full line's bound is the comparison's", "seat": NO_SEAT, "reset": NO_RESET,
                 "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "OFFER-13": {"comparison": ("offer-one-line-per-colour",), "off-by-one": NO_COUNT, "seat": NO_SEAT,
                 "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "OFFER-14": {"comparison": ("offer-ends-with-factories", "offer-ends-when-centre-empties"),
                 "off-by-one": "n/a: an offer ending a tile early or late leaves a tile or needs a move nobody has",
                 "seat": NO_SEAT, "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED,
                 "order": ("tiling-when-complete",)},
    "OFFER-15": {"comparison": ("offer-phase-unchecked",), "off-by-one": NO_COUNT,
                 "seat": ("offer-listed-for-seat-0", "offer-listed-for-start-player",
                          "offer-listed-for-previous-seat"), "reset": NO_RESET,
                 "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED,
                 "order": "n/a: the turn passed before the take is OFFER-1's order, considered there"},
    "OFFER-16": {"comparison": ("offer-empty-take-passes",), "off-by-one": NO_COUNT, "seat": NO_SEAT,
                 "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    # the floor line
    "FLOOR-1": {"comparison": NO_COMPARISON, "off-by-one": ("floor-six-spaces", "floor-eight-spaces"),
                "seat": NO_SEAT, "reset": ("floor-not-cleared",), "once": SAME_EVERY_ROUND,
                "overwritten": ("offer-it2-marker-first-box",), "order": ("floor-latest-first",)},
    "FLOOR-2": {"comparison": ("floor-unbounded",), "off-by-one": "n/a: the bound is FLOOR-1's seven spaces",
                "seat": NO_SEAT, "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED,
                "order": ONE_STEP},
    "FLOOR-3": {"comparison": NO_COMPARISON,
                "off-by-one": ("floor-penalties-shifted", "floor-first-space-free", "floor-one-space-short-charged"),
                "seat": NO_SEAT, "reset": NO_RESET, "once": SAME_EVERY_ROUND,
                "overwritten": ("floor-last-space-value",), "order": ONE_STEP},
    "FLOOR-4": {"comparison": ("floor-marker-free",), "off-by-one": ("floor-marker-takes-no-space",),
                "seat": "n/a: the marker is on its holder's floor (OFFER-5)", "reset": NO_RESET,
                "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ("offer-marker-after-tiles",)},
    "FLOOR-5": {"comparison": ("floor-full-marker-stays",), "off-by-one": NO_COUNT, "seat": NO_SEAT,
                "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": ("floor-full-marker-bumps-tile",),
                "order": ONE_STEP},
    "FLOOR-6": {"comparison": NO_COMPARISON, "off-by-one": NO_COUNT, "seat": ("round-same-start-player",),
                "reset": ("floor-not-cleared", "floor-tiles-lost"), "once": SAME_EVERY_ROUND,
                "overwritten": NOTHING_CHECKED,
                "order": ("floor-cleared-before-penalties", "floor-cleared-at-the-deal")},
    # scoring
    "SCORE-1": {"comparison": ("score-lone-test-or",), "off-by-one": ("score-lone-tile-2", "score-lone-tile-0"),
                "seat": NO_SEAT, "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED,
                "order": ONE_STEP},
    "SCORE-2": {"comparison": ("score-pair-no-run", "score-lone-direction-counted", "score-lone-test-or"),
                "off-by-one": ("score-first-column-not-reached", "score-last-column-not-reached",
                               "score-tile-counted-once", "score-touching-tiles-only"),
                "seat": NO_SEAT, "reset": NO_RESET, "once": SAME_EVERY_ROUND,
                "overwritten": ("score-longer-run-only", "score-either-run"),
                "order": ONE_STEP},
    "SCORE-3": {"comparison": NO_COMPARISON, "off-by-one": NO_COUNT, "seat": NO_SEAT, "reset": NO_RESET,
                "once": ("score-wall-at-game-end",), "overwritten": ("score-assigned-not-added",),
                "order": ("score-all-at-once", "score-round-start-wall")},
    "SCORE-4": {"comparison": ("score-floor-only-with-placement", "score-floor-only-after-adjacent-tile"),
                "off-by-one": NO_COUNT, "seat": "n/a: each board pays its own floor; charging another's has no "
                "source in any text", "reset": ("score-floor-kept-until-a-placement",),
                "once": ("score-floor-with-each-tile", "score-no-line-no-scoring"),
                "overwritten": ("score-floor-adds",), "order": ("score-floor-before-wall",)},
    "SCORE-5": {"comparison": ("score-no-clamp", "score-unpayable-floor-waived"), "off-by-one": NO_COUNT,
                "seat": NO_SEAT, "reset": NO_RESET, "once": ("score-clamped-at-game-end", "score-round-clamped"),
                "overwritten": NOTHING_CHECKED, "order": ("end-bonuses-before-the-floor",)},
    # wall tiling
    "WALL-1": {"comparison": NO_COMPARISON, "off-by-one": ("wall-rows-from-1",), "seat": NO_SEAT,
               "reset": "n/a: the layout is printed", "once": "n/a: the layout is printed",
               "overwritten": "n/a: a tile on a filled space is OFFER-9's", "order": ("wall-mirrored",
                                                                                     "wall-rows-from-the-bottom")},
    "TILING-1": {"comparison": ("tiling-line-one-short-complete",), "off-by-one": ("tiling-line-one-short-complete",),
                 "seat": ("end-with-the-first-board",), "reset": NO_RESET, "once": ("tiling-when-complete",),
                 "overwritten": NOTHING_CHECKED, "order": ("tiling-bottom-to-top",)},
    "TILING-2": {"comparison": NO_COMPARISON, "off-by-one": ("tiling-whole-line-to-lid", "tiling-rest-one-short"),
                 "seat": NO_SEAT, "reset": ("tiling-line-not-emptied", "tiling-line-colour-kept"),
                 "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "TILING-3": {"comparison": NO_COMPARISON, "off-by-one": NO_COUNT, "seat": NO_SEAT,
                 "reset": ("tiling-incomplete-discarded", "tiling-incomplete-lost", "tiling-incomplete-to-floor"),
                 "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    # the grey wall
    "GREY-1": {"comparison": NO_COMPARISON, "off-by-one": "n/a: the column's number is the notation's, read by the "
               "protocol", "seat": ("grey-placement-asked-of-start-player",), "reset": NO_RESET,
               "once": SAME_EVERY_ROUND, "overwritten": ("grey-leftmost-column", "grey-coloured-layout",
                                                         "grey-occupied-space-unchecked"),
               "order": ONE_STEP},
    "GREY-2": {"comparison": ("grey-column-checked-above",), "off-by-one": ("grey-column-checked-from-row-2",),
               "seat": NO_SEAT, "reset": "n/a: a wall column is never emptied", "once": SAME_EVERY_ROUND,
               "overwritten": ("grey-no-column-rule",), "order": ("grey-column-rule-unlisted",)},
    "GREY-3": {"comparison": ("grey-single-space-unfit",), "off-by-one": ("grey-unfit-one-tile-to-floor",),
               "seat": NO_SEAT, "reset": ("grey-unfit-line-kept",), "once": SAME_EVERY_ROUND,
               "overwritten": NOTHING_CHECKED,
               "order": ("grey-unfit-lines-fall-last", "grey-unfit-lines-judged-first")},
    "GREY-4": {"comparison": ("grey-refuse-unplaceable",), "off-by-one": NO_COUNT, "seat": NO_SEAT,
               "reset": NO_RESET, "once": SAME_EVERY_ROUND, "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "GREY-5": {"comparison": NO_COMPARISON, "off-by-one": NO_COUNT,
               "seat": ("grey-seat-0-places-first",), "reset": NO_RESET, "once": SAME_EVERY_ROUND,
               "overwritten": NOTHING_CHECKED, "order": ("grey-lines-in-any-order", "grey-placed-in-the-offer")},
    # the next round
    "ROUND-1": {"comparison": NO_COMPARISON, "off-by-one": ("round-counted-at-the-deal",
                                                           "round-counted-before-end-check"),
                "seat": NO_SEAT, "reset": NO_RESET, "once": ("round-not-counted",),
                "overwritten": NOTHING_CHECKED, "order": ("end-round-counted",)},
    "ROUND-2": {"comparison": NO_COMPARISON, "off-by-one": ("round-seat-after-holder", "round-seat-before-holder"),
                "seat": ("round-start-rotates", "round-last-taker-starts", "round-dealer-passes-first-turn"),
                "reset": ("offer-marker-kept-by-holder",), "once": ("round-same-start-player",),
                "overwritten": ("offer-marker-to-each-centre-taker",), "order": ("round-same-start-player",)},
    "ROUND-3": {"comparison": NO_COMPARISON, "off-by-one": NO_COUNT,
                "seat": ("round-unclaimed-next-seat", "round-unclaimed-seat-0", "round-unclaimed-after-last-taker",
                         "round-unclaimed-last-taker-starts", "round-unclaimed-seat-after-next"),
                "reset": NO_RESET, "once": SAME_EVERY_ROUND,
                "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    # the end of the game
    "END-1": {"comparison": ("end-column-ends-game", "end-row-or-column-ends-game", "end-fifth-line-ends-game"),
              "off-by-one": ("end-row-of-four-ends-game",), "seat": ("end-with-the-first-board",),
              "reset": NO_RESET, "once": "n/a: checked after every tiling; checking only once has no source",
              "overwritten": ("end-last-board-decides",),
              "order": ("end-checked-before-tiling", "end-before-the-floor", "end-it2-at-the-fifth-tile",
                        "end-mid-tiling")},
    "END-2": {"comparison": NO_COMPARISON, "off-by-one": ("end-row-bonus-at-four",), "seat": NO_SEAT,
              "reset": NO_RESET, "once": ("end-bonuses-when-completed", "end-it2-bonus-once"),
              "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "END-3": {"comparison": ("end-bonuses-for-row-owners",), "off-by-one": ("end-partial-column",),
              "seat": NO_SEAT, "reset": NO_RESET, "once": ("end-bonuses-every-round",),
              "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "END-4": {"comparison": ("end-colour-on-printed-spaces",), "off-by-one": ("end-colour-at-four",),
              "seat": NO_SEAT, "reset": NO_RESET, "once": ("end-bonuses-every-round",),
              "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "END-5": {"comparison": ("end-rows-before-points", "end-lowest-score-wins"), "off-by-one": NO_COUNT,
              "seat": NO_SEAT,
              "reset": NO_RESET, "once": "n/a: decided once, at the end", "overwritten": NOTHING_CHECKED,
              "order": ("end-winner-before-bonuses",)},
    "END-6": {"comparison": ("end-fewest-rows-wins", "end-highest-seat-wins-tie", "end-tie-break-counts-columns",
                             "end-rows-of-everybody", "end-most-rows-of-all-on-a-tie"),
              "off-by-one": NO_COUNT, "seat": ("end-lowest-seat-wins-tie", "end-first-two-tied-compared"),
              "reset": NO_RESET, "once": "n/a: decided once, at the end",
              "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "END-7": {"comparison": ("end-remaining-tie-by-columns",),
              "off-by-one": "n/a: 'exactly one winner' for 'at least one' was considered: it leaves a finished game "
              "with no winner, which the state cannot hold (a malformed reply, not a reading)",
              "seat": ("end-first-seat-wins-tie", "end-last-seat-wins-tie"), "reset": NO_RESET,
              "once": "n/a: decided once, at the end", "overwritten": NOTHING_CHECKED, "order": ONE_STEP},
    "END-8": {"comparison": ("end-empty-bag-ends-game", "end-empty-deal-deals-on"),
              "off-by-one": NO_COUNT, "seat": NO_SEAT, "reset": NO_RESET, "once": SAME_EVERY_ROUND,
              "overwritten": NOTHING_CHECKED, "order": ("end-empty-deal-unscored",)},
}


# Where the engine applies a rule is a dimension of its own, gone through in the clean room (clean_room/): in the
# legal-move list only, in the check of a played move only, or in both alike. Its cells are those of the readings
# written there; a rule without one is one where its authors found no plausible reading of that kind.
WHERE = "where"
WHERE_TEXT = "applied in one place only: the move list, or the check of a played move (or both read wrong alike)"


def _with_the_text(table: dict[str, dict[str, tuple[str, ...] | str]]) -> dict[str, dict[str, tuple[str, ...] | str]]:
    """TABLE with the readings written from the rules' text alone (clean_room.cells()) added to their cells. A cell
    that said "n/a" takes them instead: its author found a plausible reading of that shape after all."""
    for rule, cells in clean_room.cells().items():
        row = table[rule]
        for shape, ids in cells.items():
            key = shape if shape in SHAPES else WHERE  # "list", "check", "both"
            cell = row.get(key)
            row[key] = (cell if isinstance(cell, tuple) else ()) + tuple(ids)
    return table


TABLE = _with_the_text(TABLE)


def shapes_of(reading: str) -> list[tuple[str, str]]:
    """The (rule, shape) cells of TABLE that list `reading`."""
    return [(rule, shape) for rule, row in TABLE.items() for shape, cell in row.items()
            if not isinstance(cell, str) and reading in cell]
