// The table in both directions: myzul's G (every tile an object with a location) <-> azul-state/1.
// Only translation lives here; nothing in this file decides a rule.
import { defaultGameSetup } from 'myzul-engine/src/games/azul/azulConfig';
import type { AzulGameState, AzulTileState, TileColor } from 'myzul-engine/src/games/azul/models';

export const LETTERS = 'BYRKW';
// myzul's colours beside ours. Its wall ('Default' in azulConfig.ts) is ours with green in the place of
// our W; its 'white' tile is the first-player marker, never a tile.
export const COLOUR: Record<string, TileColor> = { B: 'blue', Y: 'yellow', R: 'red', K: 'black', W: 'green' };
export const LETTER: Record<string, string> = { blue: 'B', yellow: 'Y', red: 'R', black: 'K', green: 'W' };
export const MARKER = 'white';

export class Refused extends Error {
  constructor(public code: string, message: string, public rule?: string) {
    super(message);
  }
}

/** Tiles as letters in B Y R K W order (the marker left out). */
export function letters(tiles: AzulTileState[]): string {
  const found = tiles.filter(t => t.color !== MARKER).map(t => LETTER[t.color]);
  return [...LETTERS].map(c => c.repeat(found.filter(f => f === c).length)).join('');
}

const at = (G: AzulGameState, type: string, board?: string) =>
  G.tiles.filter(t => t.location.boardType === type && (board === undefined || t.location.boardId === board));

const byX = (a: AzulTileState, b: AzulTileState) => (a.location.x ?? 0) - (b.location.x ?? 0);

/** What the engine holds, as azul-state/1; `extra` holds what G does not say (see adapter.ts). */
export function toState(G: AzulGameState, extra: {
  players: number; round: number; phase: string; turn: number; startPlayer: number;
  marker: number | 'centre'; winners: number[] | null;
}): object {
  const seats = [...Array(extra.players).keys()].map(String);
  return {
    format: 'azul-state/1', variant: 'colour', players: extra.players, round: extra.round, phase: extra.phase,
    turn: extra.turn, start_player: extra.startPlayer, marker: extra.marker,
    factories: [...Array(G.factories).keys()].map(f => letters(at(G, 'Factory', String(f)))),
    centre: letters(at(G, 'CenterOfTable')),
    bag: letters(G.tileBag), lid: letters(G.tileStorage),
    boards: seats.map(seat => ({
      score: G.score[seat]?.points ?? 0,
      lines: [0, 1, 2, 3, 4].map(y => letters(at(G, 'PatternLine', seat).filter(t => t.location.y === y))),
      wall: [0, 1, 2, 3, 4].map(y => [0, 1, 2, 3, 4].map(x => {
        const tile = at(G, 'Wall', seat).find(t => t.location.y === y && t.location.x === x);
        return tile ? LETTER[tile.color] ?? '?' : '.';
      }).join('')),
      // the floor in the engine's order of its spaces (location.x), the marker as M
      floor: at(G, 'FloorLine', seat).sort(byX).map(t => t.color === MARKER ? 'M' : LETTER[t.color]).join(''),
    })),
    winners: extra.winners,
  };
}

/** Where the engine's marker (its white tile) lies: the centre, a seat's floor, or the lid (`lid`). */
export function markerPlace(G: AzulGameState): number | 'centre' | 'lid' {
  const white = G.tiles.find(t => t.color === MARKER);
  if (!white) return 'lid';
  if (white.location.boardType === 'FloorLine') return Number(white.location.boardId);
  return 'centre';
}

/**
 * The end-of-game bonuses a wall already holds (2 a row, 7 a column, 10 a colour). The engine adds each one to
 * the score when the tile that completes it is placed (calculateTileScore, moves.ts:192-208), so in a position
 * of its own the score already includes them; a loaded position gets them too, and they are never paid twice.
 */
export function earlyBonuses(wall: string[]): number {
  const full = (cells: string[]) => cells.every(c => c !== '.');
  const rows = wall.filter(row => full([...row])).length;
  const columns = [0, 1, 2, 3, 4].filter(x => full(wall.map(row => row[x]))).length;
  const colours = [...LETTERS].filter(c => wall.join('').split(c).length - 1 === 5).length;
  return 2 * rows + 7 * columns + 10 * colours;
}

/**
 * A G that the engine's own code could have produced for this azul-state/1 document, phase `deal` or `offer`:
 * tiles placed the way `moveTile` (moves.ts) places them, scores (with earlyBonuses), the round counter as placeTiles.onBegin
 * keeps it, and `startPlayerId` (which the engine reads only in turn.order.first) set to the seat to move.
 */
export function fromState(state: any): AzulGameState {
  const players: number = state.players;
  let id = 0;
  const tile = (letter: string, boardType: any, boardId?: string, x?: number, y?: number, selectable = false):
    AzulTileState => ({
      id: id++, color: letter === 'M' ? MARKER : COLOUR[letter], selected: false, selectable,
      location: boardType === 'TileBag' ? { boardType } : { boardType, boardId: boardId ?? '', x, y },
    });
  const offer = state.phase === 'offer';
  const G: AzulGameState = {
    factories: players * 2 + 1, tiles: [], tileStorage: [], tileBag: [],
    tileBagByColor: { red: 0, green: 0, black: 0, blue: 0, yellow: 0, white: 0 },
    config: { ...defaultGameSetup }, score: {}, initialized: offer, turnStartTimestamp: 0,
    round: offer ? state.round : state.round - 1,
    startPlayerId: String(offer ? state.turn : state.start_player),
  };
  const centre: string = state.centre;
  if (state.marker === 'centre') G.tiles.push(tile('M', 'CenterOfTable', undefined, 0));
  [...centre].forEach((c, i) => G.tiles.push(tile(c, 'CenterOfTable', undefined, i + 1, undefined, offer)));
  state.factories.forEach((f: string, fi: number) =>
    [...f].forEach((c, i) => G.tiles.push(tile(c, 'Factory', String(fi), i, 0, offer))));
  state.boards.forEach((board: any, p: number) => {
    const seat = String(p);
    G.score[seat] = { points: board.score + earlyBonuses(board.wall), time: 0 };
    board.lines.forEach((line: string, y: number) =>
      [...line].forEach((c, x) => G.tiles.push(tile(c, 'PatternLine', seat, x, y))));
    board.wall.forEach((row: string, y: number) =>
      [...row].forEach((c, x) => { if (c !== '.') G.tiles.push(tile(c, 'Wall', seat, x, y)); }));
    [...board.floor].forEach((c: string, x: number) => G.tiles.push(tile(c, 'FloorLine', seat, x)));
  });
  // The marker taken onto a full floor: moveToFloorLine (moves.ts:367-372) sends it to the lid.
  if (typeof state.marker === 'number' && !state.boards[state.marker].floor.includes('M')) {
    G.tileStorage.push(tile('M', 'TileStorage'));
  }
  for (const c of state.bag) G.tileBag.push(tile(c, 'TileBag'));
  for (const c of state.lid) G.tileStorage.push(tile(c, 'TileStorage'));
  G.tileBag.forEach(t => G.tileBagByColor[t.color]++);
  return G;
}
