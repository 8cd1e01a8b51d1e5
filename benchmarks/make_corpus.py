"""A synthetic corpus of recorded games for the import and replay benchmarks: seeded random two-player games on
the reference engine's fast path, written as a dataset to import or as game records to replay.

    faience   one gzipped JSON Lines file in the Faïence dataset's format (faience-game/1: seed, human_seat,
              moves in ludometer's action encoding, deals as colour counts, final scores and outcome), what
              `azul import faience` reads
    azr       a .tar.gz of game records (.azr), each with its deals, takes, [%start s] per round, [%score ...]
              after every round and [%final ...] [%winners ...] at the end: what `azul replay` reads

Games are played, not copied: every deal is drawn from random.Random(seed of the game) and every take picked
uniformly among the legal ones, so the corpus is the same on every machine and nothing big is committed.

    python benchmarks/make_corpus.py --games 100000 --format faience -o /tmp/corpus.jsonl.gz
    python benchmarks/make_corpus.py --games 10000 --format azr -o /tmp/corpus.tar.gz
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import tarfile
import time
from pathlib import Path
from typing import Any

from azul_reference.fast import FastGame
from azul_reference.moves import CENTRE, FLOOR

from azul_conformance.importers.game import ImportedGame, ImportedRound, to_record
from azul_conformance.notation import COLOURS
from azul_conformance.records import write_record

PLAYERS = 2


def play(seed: int, max_rounds: int = 100) -> dict[str, Any]:
    """One random game: per round its factories (counts by colour), bag and lid after the deal, start player, takes
    (seat, source, colour, line) and scores after it; then the final scores and winners (None if unfinished)."""
    game, deals, picks = FastGame(PLAYERS), random.Random(seed), random.Random(f"{seed}/moves")
    rounds: list[dict[str, Any]] = []
    while not game.is_over() and game.round <= max_rounds:
        game.deal(deals)
        factories = [list(game.sources[source][:5]) for source in range(1, game.factories + 1)]
        current = {"factories": factories, "bag": game.bag[:], "lid": game.lid[:], "start": game.start_player,
                   "takes": []}
        while game.phase == "offer":
            seat = game.turn
            legal = game.legal_moves()
            take = legal[picks.randrange(len(legal))]
            current["takes"].append((seat, take.source, take.colour, take.line))
            game.play(take)
        current["scores"] = game.scores()
        rounds.append(current)
    return {"seed": seed, "rounds": rounds, "final": game.scores() if game.is_over() else None,
            "winners": game.winners}


def _action(source: int, colour: int, line: int) -> int:
    """ludometer's action id: source 0-4 the factories, 5 the centre; dest 0-4 pattern lines, 5 the floor."""
    return (5 if source == CENTRE else source - 1) * 30 + colour * 6 + (5 if line == FLOOR else line - 1)


def faience_line(played: dict[str, Any], human: int) -> dict[str, Any]:
    moves, deals = [], []
    for index, round_ in enumerate(played["rounds"]):
        deals.append({"round": index, "factories": round_["factories"], "bag": round_["bag"], "lid": round_["lid"]})
        for seat, source, colour, line in round_["takes"]:
            moves.append({"ply": len(moves) + 1, "player": seat, "action": _action(source, colour, line)})
    scores = played["final"] or played["rounds"][-1]["scores"]
    outcome = "draw" if scores[0] == scores[1] else "human" if scores[human] > scores[1 - human] else "ai"
    return {"format": "faience-game/1", "seed": played["seed"], "human_seat": human, "moves": moves, "deals": deals,
            "final": {"finished": played["final"] is not None, "scores": scores, "outcome": outcome,
                      "rounds": len(played["rounds"])}}


def _take_text(source: int, colour: int, line: int) -> str:
    return ("C" if source == CENTRE else str(source)) + COLOURS[colour] + ("F" if line == FLOOR else str(line))


def record_text(played: dict[str, Any], number: int) -> str:
    rounds = tuple(ImportedRound(tuple("".join(COLOURS[c] * n for c, n in enumerate(f)) for f in r["factories"]),
                                 r["start"], tuple(_take_text(*take[1:]) for take in r["takes"]), tuple(r["scores"]))
                   for r in played["rounds"])
    game = ImportedGame(f"synthetic game {number}", PLAYERS, rounds,
                        {"Event": "synthetic corpus (benchmarks/make_corpus.py)", "Seed": str(played["seed"])},
                        tuple(played["final"]) if played["final"] else None,
                        tuple(played["winners"]) if played["winners"] else None)
    return write_record(to_record(game))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0, help="the corpus's seed (game n has seed n + this)")
    parser.add_argument("--format", choices=("faience", "azr"), default="azr")
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    started = time.perf_counter()
    if args.format == "faience":
        with gzip.open(args.output, "wt", encoding="utf-8", compresslevel=1) as out:
            for number in range(args.games):
                out.write(json.dumps(faience_line(play(args.seed + number), number % 2)) + "\n")
    else:
        with tarfile.open(args.output, "w:gz", compresslevel=1) as archive:
            for number in range(args.games):
                data = record_text(play(args.seed + number), number + 1).encode("utf-8")
                info = tarfile.TarInfo(f"corpus/game-{number + 1:06d}.azr")
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    print(f"{args.games} games written to {args.output} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
