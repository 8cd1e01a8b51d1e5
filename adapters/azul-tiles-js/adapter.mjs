#!/usr/bin/env node
// Protocol v1 for azul-tiles (github.com/domw95/azul-tiles), a TypeScript Azul engine with minimax players, so
// the suite can judge it. Part of azul-conformance (MIT); Node.js >= 20, no dependencies of its own. The engine
// is yours: $AZUL_TILES_ROOT names your copy, built (`npm install`, `npx tsc`), so that its dist/ holds state.js:
//     AZUL_TILES_ROOT=/path/to/azul-tiles node adapters/azul-tiles-js/adapter.mjs --seed 0
//
// The engine's own code runs unchanged; the adapter (see README.md for the reasons):
// - holds each round's draw back: the instance's `newRound` is shadowed, so `endRound` tiles and scores and the
//   protocol's `deal` then runs the engine's own `newRound`;
// - answers given deals through the engine's draw: `newRound` picks `floor(rng() * bag length)`, so the adapter
//   hands it an rng that points at a bag slot holding the asked tile; a deal the draw cannot give is refused;
// - takes the legality of a move from the engine's `availableMoves` (its `playMove` checks nothing itself);
// - shows what the protocol has no room for: the engine has no lid (discards go back into the bag at once) and
//   its floor has no end (tiles past the seventh space are kept there, unscored, until the round ends): the
//   state shows those past the seventh in the lid, where the rules put them.
import { createInterface } from "node:readline";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

if (!process.env.AZUL_TILES_ROOT) {
  console.error("adapter.mjs: set AZUL_TILES_ROOT to your built copy of azul-tiles (the folder holding dist/state.js)");
  process.exit(2);
}
const ROOT = process.env.AZUL_TILES_ROOT;
const { GameState, State } = await import(pathToFileURL(join(ROOT, "dist", "state.js")).href);
const { PlayerBoard } = await import(pathToFileURL(join(ROOT, "dist", "playerboard.js")).href);

const COLOURS = "BYRKW"; // the engine's Tile 0-4 in the same order, and the same coloured wall
const FIRST = 5; // Tile.FirstPlayer
const NONE = -1; // Tile.Null
const FLOOR_SPACES = 7;
const seedArg = process.argv.indexOf("--seed");
const SEED = seedArg >= 0 ? Number(process.argv[seedArg + 1]) : 0;

class Refused extends Error {
  constructor(code, message, rule = null) {
    super(message);
    this.code = code;
    this.rule = rule;
  }
}

const countsOf = (tiles) => {
  const counts = [0, 0, 0, 0, 0];
  for (const t of tiles) if (t >= 0 && t < 5) counts[t] += 1;
  return counts;
};
const countsText = (counts) => counts.map((n, c) => COLOURS[c].repeat(n)).join("");
const tilesText = (tiles) => countsText(countsOf(tiles));
const lettersToTiles = (text) => [...text].map((ch) => COLOURS.indexOf(ch));
const factoryCount = (players) => ({ 2: 5, 3: 7, 4: 9 })[players];

class Table {
  constructor() {
    this.game = null;
    this.dealDue = false;
    this.startPlayer = 0;
  }

  hello() {
    return { name: "azul-tiles (via adapter)", version: "3.2.0 aec3114", protocol: 1,
      capabilities: { players: [2, 3, 4], variants: ["colour"], load_state: true, deal: true } };
  }

  /** The engine's game with its round's draw held back for the protocol's `deal`. */
  stepped(game) {
    game.newRound = () => { this.dealDue = true; }; // endRound calls this.newRound() once tiling is done
    return game;
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
    // Seeded by the set-up alone, never by what this process played before: the suite runs its cases in any
    // order, over several engine processes.
    const game = this.stepped(new GameState());
    game.seed = `${SEED}:${players}:${startPlayer}`;
    game.newGame(players); // builds boards, bag and factories; its first newRound is held back
    game.activePlayer = startPlayer; // the engine always starts with seat 0 (its startingPlayer is unused)
    this.game = game;
    this.startPlayer = startPlayer;
    return this.state();
  }

  deal(factories) {
    const game = this.current();
    if (game.state === State.gameEnd || !this.dealDue) throw new Refused("illegal_move", "no deal is due", "DEAL-1");
    const wanted = factories === undefined || factories === null ? null : this.checkDeal(game, factories);
    const inBag = game.tilebag.filter((t) => t !== NONE).length;
    if (inBag < 4 * (game.factory.length - 1)) {
      // newRound retries its draw until it finds a tile: with too few it would never return
      throw new Refused("internal",
        `the engine cannot deal: its bag holds ${inBag} tiles, fewer than 4 for each of its ${game.factory.length - 1} ` +
        "factories, and its draw (GameState.newRound) would retry for ever");
    }
    if (wanted === null) {
      this.runDeal(game);
      return this.state();
    }
    const queue = wanted.flat();
    const missing = countsOf(queue).map((n, c) => n - countsOf(game.tilebag)[c]).findIndex((n) => n > 0);
    if (missing >= 0) {
      throw new Refused("illegal_move", `the bag holds too few ${COLOURS[missing]} tiles for this deal`, "DEAL-1");
    }
    if (wanted.some((f) => f.length !== 4)) {
      throw new Refused("illegal_move",
        `the engine fills every factory with 4 tiles while its bag holds ${inBag}: it cannot deal ${JSON.stringify(factories)}`, "DEAL-1");
    }
    const saved = game.rng;
    let k = 0;
    game.rng = () => { // newRound draws the slot floor(rng() * length): point it at the next asked tile
      const slot = game.tilebag.indexOf(queue[k++]);
      return (slot + 0.5) / game.tilebag.length;
    };
    try {
      this.runDeal(game);
    } finally {
      game.rng = saved;
    }
    const got = game.factory.slice(1).map(tilesText);
    if (got.join() !== wanted.map(tilesText).join()) {
      throw new Refused("internal", `the engine's draw dealt ${JSON.stringify(got)}, not ${JSON.stringify(factories)}`);
    }
    return this.state();
  }

  runDeal(game) {
    this.startPlayer = game.activePlayer;
    this.dealDue = false;
    GameState.prototype.newRound.call(game);
  }

  checkDeal(game, factories) {
    if (!Array.isArray(factories) || !factories.every((f) => typeof f === "string")) {
      throw new Refused("bad_request", "factories must be a list of strings");
    }
    if (factories.some((f) => f.length > 4 || [...f].some((ch) => !COLOURS.includes(ch)))
      || factories.length < 5 || factories.length > 9) {
      throw new Refused("bad_request", "factories: 5 to 9 strings of at most 4 letters B Y R K W (protocol schema)");
    }
    if (factories.length !== game.factory.length - 1) {
      throw new Refused("illegal_move", `the game has ${game.factory.length - 1} factories, not ${factories.length}`, "SETUP-3");
    }
    return factories.map(lettersToTiles);
  }

  legalMoves() {
    const game = this.current();
    if (this.dealDue || game.state !== State.turn) return { moves: [] };
    return { moves: game.availableMoves.map(moveText) };
  }

  play(move) {
    const game = this.current();
    const [factory, tile, line] = moveOf(move, game);
    if (game.state === State.gameEnd) throw new Refused("illegal_move", `${move}: the game is over`, "OFFER-15");
    if (this.dealDue || game.state !== State.turn) throw new Refused("illegal_move", `${move}: the deal is due, not a take`);
    const chosen = game.availableMoves.find((m) => m.factory === factory && m.tile === tile && m.line === line);
    if (chosen === undefined) throw new Refused("illegal_move", `${move}: not among the engine's available moves`);
    game.playMove(chosen);
    if (!game.nextTurn()) game.endRound(); // no move left: the round's tiling (and the next draw, held back)
    return this.state();
  }

  loadState(state) {
    if (state === null || typeof state !== "object" || state.format !== "azul-state/1") {
      throw new Refused("bad_request", "state: expected an azul-state/1 object");
    }
    if (state.variant !== "colour") throw new Refused("unsupported", "the engine has only the coloured wall");
    if (!["deal", "offer", "over"].includes(state.phase)) {
      throw new Refused("unsupported", `phase ${JSON.stringify(state.phase)} does not exist on the coloured wall`);
    }
    let game;
    try {
      const players = state.players;
      if (![2, 3, 4].includes(players) || state.factories.length !== factoryCount(players) || state.boards.length !== players) {
        throw new Error("players, factories and boards do not agree");
      }
      game = this.stepped(new GameState());
      game.seed = `${SEED}:load`;
      game.rng = seededRng(game);
      game.nPlayers = players;
      game.factory = [lettersToTiles(state.centre), ...state.factories.map(lettersToTiles)];
      // the engine has no lid: its discards are in the bag, so a lid's tiles are bag tiles to it
      game.tilebag = [...lettersToTiles(state.bag), ...lettersToTiles(state.lid)];
      game.firstTile = state.marker === "centre" ? FIRST : NONE;
      game.playerBoards = state.boards.map((b, i) => {
        const pb = new PlayerBoard(i);
        pb.init();
        pb.lines = b.lines.map(lettersToTiles);
        b.wall.forEach((row, r) => [...row].forEach((ch, c) => {
          if (ch !== ".") pb.wall[r][c] = COLOURS.indexOf(ch);
        }));
        pb.shadowWall = pb.wall.map((row) => row.slice());
        pb.floor = [...b.floor].map((ch) => (ch === "M" ? FIRST : COLOURS.indexOf(ch)));
        pb.score = b.score;
        return pb;
      });
      if (Number.isInteger(state.marker) && !state.boards[state.marker].floor.includes("M")) {
        game.playerBoards[state.marker].floor.push(FIRST); // taken onto a full floor: the engine keeps it past the seventh space
      }
      game.activePlayer = state.turn;
      game.previousPlayer = (state.turn + players - 1) % players;
      if (state.phase === "over") {
        game.round = state.round - 1;
        game.state = State.gameEnd;
        game.winner = state.winners.slice(); // endRound names them; a game loaded over keeps the document's
        this.dealDue = false;
      } else if (state.phase === "deal") {
        game.round = state.round - 2; // newRound adds one
        game.state = State.roundEnd;
        this.dealDue = true;
      } else {
        game.round = state.round - 1;
        game.state = State.turn;
        game.getMoves();
        this.dealDue = false;
      }
    } catch (error) {
      throw new Refused("bad_request", `state: cannot read it (${error.message})`);
    }
    this.game = game;
    this.startPlayer = state.start_player;
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
    const over = game.state === State.gameEnd;
    const phase = over ? "over" : this.dealDue ? "deal" : "offer";
    let marker = "centre";
    if (phase === "offer" && game.firstTile !== FIRST) {
      const holder = game.playerBoards.findIndex((pb) => pb.floor.includes(FIRST));
      if (holder >= 0) marker = holder;
    }
    const overflow = [];
    const boards = game.playerBoards.map((pb) => {
      overflow.push(...pb.floor.slice(FLOOR_SPACES));
      return {
        score: pb.score,
        lines: pb.lines.map((line) => line.map((t) => COLOURS[t]).join("")),
        wall: pb.wall.map((row) => row.map((t) => (t === NONE ? "." : COLOURS[t])).join("")),
        floor: pb.floor.slice(0, FLOOR_SPACES).map((t) => (t === FIRST ? "M" : COLOURS[t])).join(""),
      };
    });
    return {
      format: "azul-state/1", variant: "colour", players: game.nPlayers,
      round: game.round + (this.dealDue ? 2 : 1), phase,
      turn: game.activePlayer, start_player: this.dealDue ? game.activePlayer : this.startPlayer, marker,
      factories: game.factory.slice(1).map(tilesText), centre: tilesText(game.factory[0]),
      bag: tilesText(game.tilebag), lid: tilesText(overflow),
      boards,
      winners: over ? game.winner.slice().sort((a, b) => a - b) : null,
    };
  }
}

/** The generator a loaded game deals with: the engine's own (seedrandom), seeded from the game's seed. */
function seededRng(game) {
  const fresh = new GameState();
  fresh.seed = game.seed;
  fresh.newRound = () => {};
  fresh.newGame(2); // seeds fresh.rng from its seed and nothing else
  return fresh.rng;
}

function moveText(m) {
  return (m.factory === 0 ? "C" : String(m.factory)) + COLOURS[m.tile] + (m.line === 5 ? "F" : String(m.line + 1));
}

function moveOf(move, game) {
  if (typeof move !== "string" || move.length !== 3) throw new Refused("bad_request", `move ${JSON.stringify(move)} is not in the compact notation`);
  if (move[1] === "@" && "12345".includes(move[0]) && "12345".includes(move[2])) {
    throw new Refused("illegal_move", `${move}: the engine has no grey wall, so no placements`);
  }
  const [source, colour, line] = move;
  if (!"123456789C".includes(source) || !COLOURS.includes(colour) || !"12345F".includes(line)) {
    throw new Refused("bad_request", `move ${JSON.stringify(move)} is not in the compact notation`);
  }
  const factory = source === "C" ? 0 : Number(source);
  if (factory >= game.factory.length) throw new Refused("illegal_move", `${move}: the game has factories 1 to ${game.factory.length - 1}`);
  return [factory, COLOURS.indexOf(colour), line === "F" ? 5 : Number(line) - 1];
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
