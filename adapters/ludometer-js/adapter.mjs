#!/usr/bin/env node
// Protocol v1 for ludometer's JavaScript Azul engine (web/player/js/engine.js, MIT), the line-by-line port of its
// Python engine, so the suite can judge it. Part of azul-conformance (MIT); Node.js >= 20, no dependencies.
// The engine is yours: $LUDOMETER_ROOT names your copy of ludometer (this project holds none):
//     LUDOMETER_ROOT=/path/to/ludometer node adapters/ludometer-js/adapter.mjs
//
// It does what adapters/ludometer-py/adapter.py does for the Python engine, with the port's own API (see that
// file and README.md for the reasons):
// - two players, coloured wall (the port has no player count at all);
// - the deal as a step of its own: the game's `_refill` is wrapped (on the instance) so that the engine still
//   decides at a round's end whether a tile is left, and the adapter then puts bag, lid and factories back;
// - given deals: the bag is ordered, and the one shuffle of the poured lid answered, so that the engine's own
//   `_refill` pops the asked tiles; a deal its draw could not produce comes out different and is refused;
// - floors: the adapter remembers the order in which the engine's per-colour counts grew;
// - moves are the engine's action ids; the engine checks them (`apply` throws), reported as illegal_move;
// - load_state goes through the engine's `AzulState.fromSetup`, which checks nothing.
import { createInterface } from "node:readline";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
if (!process.env.LUDOMETER_ROOT) {
  console.error("adapter.mjs: set LUDOMETER_ROOT to your copy of ludometer (the folder holding web/player/js/engine.js)");
  process.exit(2);
}
const ROOT = process.env.LUDOMETER_ROOT;
const { AzulState, Rng } = await import(pathToFileURL(join(ROOT, "web", "player", "js", "engine.js")).href);

const COLOURS = "BYRKW"; // the engine's colours 0-4 in the same order (its teal is our white)
const SOURCES = "12345C";
const LINES = "12345F";
const SEED = Number(process.env.LUDOMETER_SEED || 0);

class Refused extends Error {
  constructor(code, message, rule = null) {
    super(message);
    this.code = code;
    this.rule = rule;
  }
}

const zeros = () => [0, 0, 0, 0, 0];
const countsOf = (tiles) => {
  const counts = zeros();
  for (const c of tiles) counts[c] += 1;
  return counts;
};
const countsText = (counts) => counts.map((n, c) => COLOURS[c].repeat(n)).join("");
const lettersToColours = (text) => [...text].map((ch) => COLOURS.indexOf(ch));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** Hold a round's draw back: the engine's _refill runs (it decides whether the game goes on), then is undone. */
function stepped(game) {
  const refill = AzulState.prototype._refill;
  game.undealt = null;
  game._refill = function () {
    const before = [this.bag.slice(), this.lid.slice()];
    refill.call(this);
    this.undealt = before;
  };
  return game;
}

/** Orders of bag and poured lid under which the engine's _refill (pop from the end, pour the lid once the bag
 * is empty) draws `wanted` factory by factory, as far as these tiles allow. */
function popOrders(bag, lid, wanted) {
  const pools = [countsOf(bag), lid.slice()];
  const draws = [[], []];
  let segment = 0;
  for (const want of wanted) {
    const need = countsOf(want);
    for (let k = 0; k < 4; k++) {
      if (sum(pools[segment]) === 0) {
        if (segment === 1 || sum(pools[1]) === 0) break;
        segment = 1;
      }
      const pool = pools[segment];
      let colour = [0, 1, 2, 3, 4].find((c) => need[c] && pool[c]);
      if (colour === undefined) colour = [0, 1, 2, 3, 4].find((c) => pool[c]); // the deal will differ
      else need[colour] -= 1;
      pool[colour] -= 1;
      draws[segment].push(colour);
    }
  }
  return pools.map((pool, i) => {
    const rest = [];
    pool.forEach((n, c) => { for (let k = 0; k < n; k++) rest.push(c); });
    return rest.concat(draws[i].slice().reverse()); // pop() takes from the end
  });
}

class Table {
  constructor() {
    this.game = null;
    this.dealDue = false;
    this.floors = [];
  }

  hello() {
    return { name: "ludometer (JavaScript port, via adapter)", version: "917ccef", protocol: 1,
      capabilities: { players: [2], variants: ["colour"], load_state: true, deal: true } };
  }

  newGame(players, variant = "colour", startPlayer = 0) {
    if (!Number.isInteger(players) || !Number.isInteger(startPlayer) || typeof variant !== "string") {
      throw new Refused("bad_request", "players and start_player must be integers, variant a string");
    }
    if (![2, 3, 4].includes(players)) throw new Refused("bad_request", `players must be 2, 3 or 4, not ${players}`, "SETUP-6");
    if (!["colour", "grey"].includes(variant)) throw new Refused("bad_request", `no variant ${variant}`, "SETUP-1");
    if (startPlayer < 0 || startPlayer >= players) {
      throw new Refused("bad_request", `start_player ${startPlayer} is no seat of a ${players}-player game`, "SETUP-5");
    }
    if (variant !== "colour") throw new Refused("unsupported", "the engine has only the coloured wall");
    if (players !== 2) throw new Refused("unsupported", "the engine plays only the 2-player game");
    // The engine's generator is seeded by the game's set-up, never by what this process played before: the
    // suite runs its cases in any order, over several engine processes (-j), and each must see the same.
    const game = stepped(AzulState.newGame(SEED * 100 + players * 10 + startPlayer));
    // undo newGame's own first draw (the protocol's first `deal` makes it)
    game.bag = [];
    for (let c = 0; c < 5; c++) for (let k = 0; k < 20; k++) game.bag.push(c);
    game.factories = [zeros(), zeros(), zeros(), zeros(), zeros()];
    game.currentPlayer = game.firstPlayer = startPlayer;
    game.recount();
    this.game = game;
    this.dealDue = true;
    this.floors = [[], []];
    return this.state();
  }

  deal(factories) {
    const game = this.current();
    if (game.isTerminal || !this.dealDue) throw new Refused("illegal_move", "no deal is due", "DEAL-1");
    if (factories === undefined || factories === null) {
      game.rng.shuffle(game.bag); // as newGame shuffles before its first draw
      AzulState.prototype._refill.call(game);
    } else {
      this.dealGiven(game, factories);
    }
    game.recount();
    this.dealDue = false;
    return this.state();
  }

  dealGiven(game, factories) {
    if (!Array.isArray(factories) || !factories.every((f) => typeof f === "string")) {
      throw new Refused("bad_request", "factories must be a list of strings");
    }
    if (factories.some((f) => f.length > 4 || [...f].some((ch) => !COLOURS.includes(ch)))
      || factories.length < 5 || factories.length > 9) {
      throw new Refused("bad_request", "factories: 5 to 9 strings of at most 4 letters B Y R K W (protocol schema)");
    }
    if (factories.length !== game.factories.length) {
      throw new Refused("illegal_move", `the engine has ${game.factories.length} factories, not ${factories.length}`, "SETUP-3");
    }
    const wanted = factories.map(lettersToColours);
    const saved = [game.bag.slice(), game.lid.slice(), game.rng];
    const [bagOrder, lidOrder] = popOrders(game.bag, game.lid, wanted);
    game.bag.splice(0, game.bag.length, ...bagOrder);
    game.rng = { shuffle(tiles) {
      if ([...tiles].sort().join() === [...lidOrder].sort().join()) tiles.splice(0, tiles.length, ...lidOrder);
      return tiles;
    } };
    try {
      AzulState.prototype._refill.call(game);
    } finally {
      game.rng = saved[2];
    }
    const got = game.factories.map(countsText);
    if (got.join() !== wanted.map((w) => countsText(countsOf(w))).join()) {
      game.bag = saved[0];
      game.lid = saved[1];
      game.factories = [zeros(), zeros(), zeros(), zeros(), zeros()];
      throw new Refused("illegal_move",
        `the engine's draw cannot deal ${JSON.stringify(factories)} from this bag and lid: it would deal ${JSON.stringify(got)}`);
    }
  }

  legalMoves() {
    return { moves: this.current().legalActions().map(moveText) };
  }

  play(move) {
    const game = this.current();
    const action = actionOf(move);
    const before = [0, 1].map((p) => [game.floor[p].slice(), game.floorMarker[p]]);
    game.undealt = null;
    try {
      game.apply(action);
    } catch (error) { // apply checks before it changes anything
      throw new Refused("illegal_move", `the engine refused ${move}: ${error.message}`);
    }
    this.followFloors(before);
    if (game.undealt !== null && !game.isTerminal) { // a round ended: hold its draw back
      [game.bag, game.lid] = game.undealt;
      game.factories = [zeros(), zeros(), zeros(), zeros(), zeros()];
      game.recount();
      this.dealDue = true;
    }
    return this.state();
  }

  followFloors(before) {
    const game = this.game;
    for (let p = 0; p < 2; p++) {
      const [counts, marker] = before[p];
      if (game.floorMarker[p] && !marker && sum(counts) < 7) this.floors[p].push("M");
      for (let c = 0; c < 5; c++) {
        for (let k = counts[c]; k < game.floor[p][c]; k++) this.floors[p].push(COLOURS[c]);
      }
      if (sum(game.floor[p]) === 0 && !game.floorMarker[p]) this.floors[p] = []; // the tiling emptied it
    }
  }

  loadState(state) {
    if (state === null || typeof state !== "object" || state.format !== "azul-state/1") {
      throw new Refused("bad_request", "state: expected an azul-state/1 object");
    }
    if (state.variant !== "colour" || state.players !== 2) {
      throw new Refused("unsupported", "the engine plays only the 2-player game on the coloured wall");
    }
    if (!["deal", "offer", "over"].includes(state.phase)) {
      throw new Refused("unsupported", `phase ${JSON.stringify(state.phase)} does not exist on the coloured wall`);
    }
    let game;
    try {
      if (state.factories.length !== 5) throw new Error("a 2-player game has 5 factories");
      const boards = state.boards;
      const bag = lettersToColours(state.bag);
      const colourOf = (letters) => countsOf(lettersToColours(letters));
      game = stepped(AzulState.fromSetup({
        bag, lid: colourOf(state.lid), factories: state.factories.map(colourOf), center: colourOf(state.centre),
        marker_in_center: state.marker === "centre",
        walls: boards.map((b) => b.wall.flatMap((row) => [...row].map((ch) => (ch === "." ? 0 : 1)))),
        pl_color: boards.map((b) => b.lines.map((line) => (line ? COLOURS.indexOf(line[0]) : -1))),
        pl_count: boards.map((b) => b.lines.map((line) => line.length)),
        floor: boards.map((b) => colourOf(b.floor.replaceAll("M", ""))),
        floor_marker: [0, 1].map((p) => state.marker === p),
        scores: boards.map((b) => b.score), current_player: state.turn, first_player: state.start_player,
        round_index: state.round - 1, is_terminal: state.phase === "over", exhausted: false,
      }, new Rng(SEED)));
      game.rng.shuffle(game.bag);
      this.floors = boards.map((b) => [...b.floor]);
    } catch (error) {
      throw new Refused("bad_request", `state: cannot read it (${error.message})`);
    }
    this.game = game;
    this.dealDue = state.phase === "deal";
    return this.state();
  }

  current() {
    if (this.game === null) throw new Refused("bad_request", "no game yet: send new_game or load_state first");
    return this.game;
  }

  state() {
    return { state: this.toState() };
  }

  toState() {
    const game = this.current();
    const phase = game.isTerminal ? "over" : this.dealDue ? "deal" : "offer";
    const holders = [0, 1].filter((p) => game.floorMarker[p]);
    const marker = game.markerInCenter || holders.length === 0 ? "centre" : holders[0];
    let winners = null;
    if (phase === "over") {
      const outcome = game.outcome();
      winners = outcome > 0 ? [0] : outcome < 0 ? [1] : [0, 1];
    }
    return {
      format: "azul-state/1", variant: "colour", players: 2, round: game.roundIndex + 1, phase,
      turn: game.currentPlayer, start_player: game.firstPlayer, marker,
      factories: game.factories.map(countsText), centre: countsText(game.center),
      bag: countsText(game.bagCounts()), lid: countsText(game.lid),
      boards: [0, 1].map((p) => ({
        score: game.scores[p],
        lines: [0, 1, 2, 3, 4].map((r) => (game.plCount[p][r] ? COLOURS[game.plColor[p][r]].repeat(game.plCount[p][r]) : "")),
        wall: [0, 1, 2, 3, 4].map((r) => [0, 1, 2, 3, 4]
          .map((col) => (game.walls[p][r * 5 + col] ? COLOURS[(col - r + 5) % 5] : ".")).join("")),
        floor: this.floors[p].join(""),
      })),
      winners,
    };
  }
}

function moveText(action) {
  const source = Math.floor(action / 30);
  const rest = action % 30;
  return SOURCES[source] + COLOURS[Math.floor(rest / 6)] + LINES[rest % 6];
}

function actionOf(move) {
  if (typeof move !== "string" || move.length !== 3) throw new Refused("bad_request", `move ${JSON.stringify(move)} is not in the compact notation`);
  if (move[1] === "@" && "12345".includes(move[0]) && "12345".includes(move[2])) {
    throw new Refused("illegal_move", `${move}: the engine has no grey wall, so no placements`);
  }
  const [source, colour, line] = move;
  if (!"123456789C".includes(source) || !COLOURS.includes(colour) || !LINES.includes(line)) {
    throw new Refused("bad_request", `move ${JSON.stringify(move)} is not in the compact notation`);
  }
  if (!SOURCES.includes(source)) throw new Refused("illegal_move", `${move}: a 2-player game has factories 1 to 5`);
  return SOURCES.indexOf(source) * 30 + COLOURS.indexOf(colour) * 6 + LINES.indexOf(line);
}

const HANDLERS = {
  hello: (t, r) => {
    if ((r.protocol ?? 1) !== 1) throw new Refused("bad_request", `this adapter speaks protocol 1, not ${JSON.stringify(r.protocol)}`);
    return t.hello();
  },
  new_game: (t, r) => t.newGame(r.players, r.variant ?? "colour", r.start_player ?? 0),
  deal: (t, r) => t.deal(r.factories),
  load_state: (t, r) => t.loadState(r.state),
  legal_moves: (t) => t.legalMoves(),
  play: (t, r) => t.play(r.move),
  state: (t) => t.state(),
};

/** The reply to one request line (null for quit). */
function answer(table, line) {
  let id = null;
  try {
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      throw new Refused("bad_request", "not JSON");
    }
    if (request === null || typeof request !== "object" || Array.isArray(request)) throw new Refused("bad_request", "a request is a JSON object");
    if (request.cmd === "quit") return null;
    if (!(Number.isInteger(request.id) || typeof request.id === "string")) {
      throw new Refused("bad_request", "a request needs an id (an integer or a string)");
    }
    id = request.id;
    const handler = Object.hasOwn(HANDLERS, request.cmd) ? HANDLERS[request.cmd] : null;
    if (handler === null) throw new Refused("bad_request", `unknown cmd ${JSON.stringify(request.cmd)}`);
    return { id, ok: true, ...handler(table, request) };
  } catch (error) {
    if (error instanceof Refused) {
      return { id, ok: false, error: { code: error.code, message: error.message, ...(error.rule ? { rule: error.rule } : {}) } };
    }
    process.stderr.write(`internal: ${error && error.stack}\n`);
    return { id, ok: false, error: { code: "internal", message: String(error && error.message) } };
  }
}

const table = new Table();
const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of input) {
  if (!line.trim()) continue;
  const reply = answer(table, line);
  if (reply === null) break;
  process.stdout.write(JSON.stringify(reply) + "\n");
}
process.exit(0);
