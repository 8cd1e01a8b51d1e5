// Protocol v1 for myzul (github.com/schirkan/myzul, MIT), a boardgame.io game object, so that the
// azul-conformance suite can judge it. The game runs in boardgame.io's own headless Client, so every move
// goes through boardgame.io's reducer and flow (phases, turn order, maxMoves, endIf, events) exactly as in
// the app; the adapter calls the engine's moves and reads G and ctx, and never decides a rule itself.
// README.md (beside this file) explains each choice.
import { Client } from 'boardgame.io/client';
import { AzulGame } from 'myzul-engine/src/games/azul/Game';
import { selectSourceTile } from 'myzul-engine/src/games/azul/moves';
import type { AzulGameState } from 'myzul-engine/src/games/azul/models';
import enginePackage from 'myzul-engine/package.json';
import { orderBag, plannedRandom } from './deal';
import { COLOUR, LETTER, LETTERS, Refused, fromState, letters, markerPlace, toState } from './table';
import { checkState, field, serve } from './protocol';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));
const placeTiles: any = AzulGame.phases!.placeTiles;

// How the first placeTiles.onBegin of a new Client behaves: `setup` runs the engine's own setup (then the
// engine deals by itself), `load` starts from a G at the deal (a given deal orders its bag), `resume` starts
// from a G in the middle of a round (its deal is done: onBegin is skipped).
type Control = {
  mode: 'setup' | 'load' | 'resume'; G?: AzulGameState; startPlayer?: number; factories?: string[];
  first: boolean; seam: AzulGameState | null;
};

// The table at a deal: G after the tiling (or the setup), before placeTiles.onBegin dealt; `dealt` is the
// Client in which the engine has already dealt by itself from that G (a random deal is the engine's own).
type Pending = { G: AzulGameState; dealt: { client: any; control: Control } | null };

/** G without what the engine's clock writes into it: the turn's start time and the seconds each seat has used. */
function withoutClock(G: AzulGameState): object {
  const score = Object.fromEntries(Object.entries(G.score).map(([seat, entry]) => [seat, { ...entry, time: 0 }]));
  return { ...G, turnStartTimestamp: 0, score };
}

class Adapter {
  players = 2;
  startPlayer = 0;       // the seat that started the round in play (G keeps no such field during the round)
  markerTaker: number | null = null;  // who took the marker when the engine sent it to the lid
  client: any = null;
  control: Control | null = null;
  pending: Pending | null = null;

  constructor(private seed: string, private givenDeals: boolean) {}

  newClient(control: Control): any {
    const game = {
      ...AzulGame,
      // The engine's random draws depend on --seed and the position alone (never on the engine's clock,
      // G.turnStartTimestamp and each score's time, nor on what this process played before): the suite runs its
      // cases in any order, spread over several engine processes (-j), and each must see the same draws.
      seed: `${this.seed}-${this.players}-` + JSON.stringify([control.mode, control.startPlayer ?? null,
        control.factories ?? null, control.G ? withoutClock(control.G) : null]),
      setup: (context: any, setupData: any) => {
        const G = control.mode === 'setup' ? AzulGame.setup!(context, setupData) : clone(control.G!);
        if (control.mode === 'setup') G.startPlayerId = String(control.startPlayer);  // not the engine's random pick
        if (control.factories) orderBag(G, control.factories);
        return G;
      },
      phases: {
        ...AzulGame.phases,
        placeTiles: {
          ...placeTiles,
          onBegin: (context: any) => {
            const first = control.first;
            control.first = false;
            if (first && control.mode === 'resume') return;
            if (!first || control.mode === 'setup') control.seam = clone(context.G);  // the table before the deal
            const random = control.factories && first ? plannedRandom(context.random, control.factories) : context.random;
            return placeTiles.onBegin({ ...context, random });
          },
        },
      },
    };
    const client = Client({ game, numPlayers: this.players, debug: false } as any);
    client.start();
    return client;
  }

  get G(): AzulGameState { return this.client.getState().G; }
  get ctx(): any { return this.client.getState().ctx; }

  phase(): 'deal' | 'offer' | 'over' {
    if (this.pending) return 'deal';
    return this.ctx.gameover ? 'over' : 'offer';
  }

  need(): void {
    if (!this.client && !this.pending) throw new Refused('bad_request', 'no game yet: send new_game or load_state first');
  }

  table(): object {
    const phase = this.phase();
    if (phase === 'deal') {
      const G = this.pending!.G;
      const start = seat(G.startPlayerId);
      return toState(G, { players: this.players, round: G.round + 1, phase, turn: start, startPlayer: start,
                          marker: 'centre', winners: null });
    }
    const G = this.G, ctx = this.ctx;
    const place = markerPlace(G);
    const winners = phase === 'over' ? [Number(ctx.gameover.winnerPlayerId)] : null;
    return toState(G, { players: this.players, round: G.round, phase, turn: seat(ctx.currentPlayer),
                        startPlayer: this.startPlayer, marker: place === 'lid' ? this.markerTaker ?? 'centre' : place,
                        winners });
  }

  // -- requests ------------------------------------------------------------------------------------------

  hello(request: any) {
    if (request.protocol !== 1) throw new Refused('bad_request', `this adapter speaks protocol 1, not ${JSON.stringify(request.protocol)}`);
    return { name: 'myzul (boardgame.io, via adapter)', version: (enginePackage as any).version, protocol: 1,
             capabilities: { players: range(AzulGame.minPlayers!, AzulGame.maxPlayers!), variants: ['colour'],
                             load_state: true, deal: this.givenDeals } };
  }

  new_game(request: any) {
    const players = field(request, 'players', 'integer');
    const variant = field(request, 'variant', 'string', 'colour');
    const start = field(request, 'start_player', 'integer', 0);
    if (players < AzulGame.minPlayers! || players > AzulGame.maxPlayers!) {
      throw new Refused('bad_request', `players must be ${AzulGame.minPlayers} to ${AzulGame.maxPlayers} (the game object's minPlayers and maxPlayers), not ${players}`, 'SETUP-6');
    }
    if (variant !== 'colour' && variant !== 'grey') throw new Refused('bad_request', `no variant ${JSON.stringify(variant)}`, 'SETUP-1');
    if (variant === 'grey') throw new Refused('unsupported', 'myzul has no grey wall (its calculateScore phase tiles every line by itself)');
    if (start < 0 || start >= players) throw new Refused('bad_request', `start_player ${start} is no seat of ${players} players`, 'SETUP-5');
    this.players = players;
    const control: Control = { mode: 'setup', startPlayer: start, first: true, seam: null };
    const client = this.newClient(control);
    this.client = null;
    this.pending = { G: control.seam!, dealt: { client, control } };
    control.seam = null;
    return { state: this.table() };
  }

  deal(request: any) {
    this.need();
    const factories = request.factories;
    if (factories !== undefined && factories !== null && !(Array.isArray(factories) && factories.every(
        (f: any) => typeof f === 'string' && f.length <= 4 && [...f].every(c => LETTERS.includes(c))))) {
      throw new Refused('bad_request', `factories: expected a list of strings of at most 4 letters from ${LETTERS} (protocol schema)`);
    }
    if (!this.pending) throw new Refused('illegal_move', 'no deal is due', 'DEAL-1');
    const G = this.pending.G;
    let dealt = this.pending.dealt;
    if (factories && !this.givenDeals) throw new Refused('unsupported', 'given deals are off (--own-deals)');
    if (factories) {
      if (factories.length !== G.factories) {
        throw new Refused('illegal_move', `${factories.length} factories, but this game has ${G.factories}`, 'SETUP-3');
      }
      const control: Control = { mode: 'load', G, factories, first: true, seam: null };
      const client = this.newClient(control);
      const got = client.getState().G;
      const made = [...Array(G.factories).keys()].map(f => letters(got.tiles.filter(
        (t: any) => t.location.boardType === 'Factory' && t.location.boardId === String(f))));
      const asked = factories.map((f: string) => letters([...f].map(c => ({ color: COLOUR[c] }) as any)));
      if (made.join() !== asked.join()) {
        throw new Refused('illegal_move', `the engine's deal cannot give ${asked.join(' ')}: with the most favourable ` +
          `shuffle it deals ${made.join(' ')} (bag ${letters(G.tileBag)}, lid ${letters(G.tileStorage)}; it pours ` +
          `the lid into the bag when the bag holds fewer than ${G.factories * G.config.tilesPerFactory} tiles, ` +
          'then fills each factory with 4 tiles in turn)');
      }
      dealt = { client, control };
    } else if (!dealt) {
      const control: Control = { mode: 'load', G, first: true, seam: null };
      dealt = { client: this.newClient(control), control };
    }
    this.client = dealt.client;
    this.control = dealt.control;
    this.startPlayer = Number(G.startPlayerId || -1);  // -1: none (the state then answers internal, see seat)
    this.markerTaker = null;
    this.pending = null;
    return { state: this.table() };
  }

  load_state(request: any) {
    const state = request.state;
    checkState(state);
    if (state.variant !== 'colour') throw new Refused('unsupported', 'myzul has no grey wall');
    if (state.phase === 'tiling') throw new Refused('unsupported', 'phase tiling exists only on the grey wall');
    if (state.phase === 'over') {
      throw new Refused('unsupported', 'myzul ends a game only in its own flow (calculateScore.onEnd calls ' +
                        'events.endGame); a finished game cannot be set up');
    }
    const G = fromState(state);
    this.players = state.players;
    this.markerTaker = typeof state.marker === 'number' ? state.marker : null;
    if (state.phase === 'deal') {
      this.client = null;
      this.pending = { G, dealt: null };
    } else {
      this.control = { mode: 'resume', G, first: true, seam: null };
      this.client = this.newClient(this.control);
      this.pending = null;
      this.startPlayer = state.start_player;
    }
    return { state: this.table() };
  }

  legal_moves(_request: any) {
    this.need();
    if (this.phase() !== 'offer') return { moves: [] };
    // The engine's own move generator (ai.enumerate, Game.ts:79-112), asked as its bots ask it: first the
    // tiles to select, then, with a tile selected (by the engine's selectSourceTile, on a copy), the targets.
    const G = clone(this.G), ctx = this.ctx, player = ctx.currentPlayer;
    G.tiles.forEach(t => { t.selected = false; });
    const moves = new Set<string>();
    for (const source of (AzulGame.ai!.enumerate as any)(G, ctx, player)) {
      const tile = source.args[0];
      const selected = clone(G);
      selectSourceTile({ G: selected, ctx } as any, tile);
      for (const target of (AzulGame.ai!.enumerate as any)(selected, ctx, player)) {
        const where = target.args[0].location;
        moves.add(sourceName(tile) + LETTER[tile.color] + (where.boardType === 'FloorLine' ? 'F' : String(where.y + 1)));
      }
    }
    return { moves: [...moves] };
  }

  play(request: any) {
    this.need();
    const move = field(request, 'move', 'string');
    const take = /^([1-9C])([BYRKW])([1-5F])$/.exec(move);
    if (!take && !/^[1-5]@[1-5]$/.test(move)) throw new Refused('bad_request', `${JSON.stringify(move)} is not a move in the notation`);
    const phase = this.phase();
    if (phase !== 'offer') throw new Refused('illegal_move', `${move}: no move can be played in phase ${phase}`);
    if (!take) throw new Refused('illegal_move', `${move}: myzul has no grey wall, so no placement`);
    const [, source, colour, line] = take;
    const player = this.ctx.currentPlayer;
    const boardType = source === 'C' ? 'CenterOfTable' : 'Factory';
    const tile = this.G.tiles.find(t => t.location.boardType === boardType && t.color === COLOUR[colour] &&
                                        (source === 'C' || t.location.boardId === String(Number(source) - 1)));
    if (!tile) {
      throw new Refused('illegal_move', `${move}: ${source === 'C' ? 'the centre' : `factory ${source}`} holds no ` +
                        `${COLOUR[colour]} tile, so there is no tile for the engine's selectSourceTile to select`);
    }
    const markerInCentre = markerPlace(this.G) === 'centre';
    this.dispatch('selectSourceTile', tile, move);
    const target = line === 'F' ? { boardType: 'FloorLine', boardId: player }
                                : { boardType: 'PatternLine', boardId: player, y: Number(line) - 1 };
    this.dispatch('selectTargetLocation', { location: target }, move);
    if (markerInCentre && markerPlace(this.G) === 'lid') this.markerTaker = Number(player);
    const seam = this.control!.seam;
    if (seam && !this.ctx.gameover) {  // the round ended: the engine tiled and dealt the next round by itself
      this.pending = { G: seam, dealt: { client: this.client, control: this.control! } };
      this.client = null;
    }
    this.control!.seam = null;
    return { state: this.table() };
  }

  state(_request: any) {
    this.need();
    return { state: this.table() };
  }

  dispatch(name: string, arg: any, move: string): void {
    const before = this.client.getState()._stateID;
    this.client.moves[name](arg);
    if (this.client.getState()._stateID === before) {
      throw new Refused('illegal_move', `${move}: the engine refused ${name} (INVALID_MOVE)`);
    }
  }
}

/**
 * The seat of a playerID. The engine can have none: placeTiles.onEnd sets startPlayerId to the boardId of the
 * marker's tile, '' when it is not on a floor (Game.ts:170-172); turn.order.first then finds no seat and
 * boardgame.io makes the string "undefined" the current player. No azul-state/1 can say that, so the adapter
 * answers `internal` and says why.
 */
function seat(playerID: string | undefined): number {
  if (playerID !== undefined && /^[0-9]+$/.test(playerID)) return Number(playerID);
  throw new Refused('internal', `the engine has no seat to move: its player is ${JSON.stringify(playerID)}, because ` +
    'placeTiles.onEnd took the start player from a marker that lies on no floor (Game.ts:170-172)');
}

function sourceName(tile: any): string {
  return tile.location.boardType === 'CenterOfTable' ? 'C' : String(Number(tile.location.boardId) + 1);
}

function range(low: number, high: number): number[] {
  return [...Array(high - low + 1).keys()].map(i => i + low);
}

// The engine writes to console.log (moves.ts:232, boardgame.io's logger); stdout carries replies only.
console.log = (...args: unknown[]) => console.error(...args);
const seedAt = process.argv.indexOf('--seed');
// --own-deals: offer no given deals, so that the suite's random games run on the engine's own deals.
serve(new Adapter(seedAt > 0 ? String(process.argv[seedAt + 1]) : String(Date.now()), !process.argv.includes('--own-deals')));
