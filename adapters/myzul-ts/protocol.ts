// Protocol v1 over stdin and stdout: one JSON request per line, one reply per line (docs/reference/protocol.md).
import { createInterface } from 'node:readline';
import { LETTERS, Refused } from './table';

const COMMANDS = ['hello', 'new_game', 'deal', 'load_state', 'legal_moves', 'play', 'state'];
const MAX_LINE = 1 << 20;

/** A request field of the given JSON type (`fallback` when it is absent), else bad_request. */
export function field(request: any, name: string, kind: 'integer' | 'string', fallback?: any): any {
  const value = name in request ? request[name] : fallback;
  if (value === undefined) throw new Refused('bad_request', `${name}: missing`);
  const fits = kind === 'integer' ? Number.isInteger(value) : typeof value === 'string';
  if (!fits) throw new Refused('bad_request', `${name}: expected ${kind}, got ${JSON.stringify(value)}`);
  return value;
}

/** The shape of an azul-state/1 document, every problem listed (the engine itself checks nothing). */
export function checkState(state: any): void {
  const problems: string[] = [];
  const tiles = (value: any, where: string, most = Infinity) => {
    if (typeof value !== 'string' || [...value].some(c => !LETTERS.includes(c)) || value.length > most) {
      problems.push(`${where}: expected up to ${most} letters from ${LETTERS}, got ${JSON.stringify(value)}`);
    }
  };
  if (typeof state !== 'object' || state === null || Array.isArray(state)) throw new Refused('bad_request', 'state: expected an azul-state/1 object');
  if (state.format !== 'azul-state/1') problems.push(`format: expected "azul-state/1", got ${JSON.stringify(state.format)}`);
  if (![2, 3, 4].includes(state.players)) problems.push(`players: expected 2, 3 or 4, got ${JSON.stringify(state.players)}`);
  if (!['colour', 'grey'].includes(state.variant)) problems.push(`variant: expected colour or grey, got ${JSON.stringify(state.variant)}`);
  if (!['deal', 'offer', 'tiling', 'over'].includes(state.phase)) problems.push(`phase: unknown ${JSON.stringify(state.phase)}`);
  if (!Number.isInteger(state.round) || state.round < 1) problems.push('round: expected a whole number from 1');
  for (const name of ['turn', 'start_player']) {
    if (!Number.isInteger(state[name]) || state[name] < 0 || state[name] >= state.players) problems.push(`${name}: not a seat`);
  }
  if (state.marker !== 'centre' && !(Number.isInteger(state.marker) && state.marker >= 0 && state.marker < state.players)) {
    problems.push(`marker: expected "centre" or a seat, got ${JSON.stringify(state.marker)}`);
  }
  if (!Array.isArray(state.factories) || state.factories.length !== 2 * state.players + 1) {
    problems.push(`factories: expected ${2 * state.players + 1} factories`);
  } else state.factories.forEach((f: any, i: number) => tiles(f, `factories[${i}]`, 4));
  for (const name of ['centre', 'bag', 'lid']) tiles(state[name], name);
  if (!Array.isArray(state.boards) || state.boards.length !== state.players) {
    problems.push(`boards: expected one board per seat (${state.players})`);
  } else state.boards.forEach((b: any, p: number) => {
    const where = `boards[${p}]`;
    if (typeof b !== 'object' || b === null) { problems.push(`${where}: expected an object`); return; }
    if (!Number.isInteger(b.score) || b.score < 0) problems.push(`${where}.score: expected a whole number from 0`);
    if (!Array.isArray(b.lines) || b.lines.length !== 5) problems.push(`${where}.lines: expected 5 lines`);
    else b.lines.forEach((l: any, i: number) => {
      tiles(l, `${where}.lines[${i}]`, i + 1);
      if (typeof l === 'string' && new Set(l).size > 1) problems.push(`${where}.lines[${i}]: more than one colour`);
    });
    if (!Array.isArray(b.wall) || b.wall.length !== 5 || b.wall.some((r: any) => typeof r !== 'string' || !/^[BYRKW.]{5}$/.test(r))) {
      problems.push(`${where}.wall: expected 5 rows of 5 letters or dots`);
    }
    if (typeof b.floor !== 'string' || !/^[BYRKWM]{0,7}$/.test(b.floor)) problems.push(`${where}.floor: expected up to 7 letters or M`);
  });
  if (problems.length) throw new Refused('bad_request', problems.join('; '));
}

function reply(id: any, body: object): void {
  process.stdout.write(JSON.stringify({ id, ...body }) + '\n');
}

function refusal(id: any, error: Refused): void {
  reply(id, { ok: false, error: { code: error.code, message: error.message, ...(error.rule ? { rule: error.rule } : {}) } });
}

/** Answer every request line until `quit` or the end of input. */
export function serve(adapter: any): void {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line: string) => {
    if (!line.trim()) return;
    let id: any = null;
    try {
      if (line.length > MAX_LINE) throw new Refused('bad_request', `request longer than ${MAX_LINE} characters`);
      let request: any;
      try { request = JSON.parse(line); } catch (error) { throw new Refused('bad_request', `not JSON: ${error}`); }
      if (typeof request !== 'object' || request === null || Array.isArray(request)) {
        throw new Refused('bad_request', 'expected a JSON object');
      }
      if (request.cmd === 'quit') process.exit(0);
      if (!('id' in request) || !(Number.isInteger(request.id) || typeof request.id === 'string')) {
        throw new Refused('bad_request', 'id: missing, or not an integer or a string');
      }
      id = request.id;
      if (!COMMANDS.includes(request.cmd)) {
        throw new Refused('bad_request', `unknown cmd ${JSON.stringify(request.cmd)}: expected one of ${COMMANDS.join(', ')}, quit`);
      }
      reply(id, { ok: true, ...adapter[request.cmd](request) });
    } catch (error) {
      if (error instanceof Refused) refusal(id, error);
      else {
        console.error(error);
        refusal(id, new Refused('internal', `${(error as Error)?.name}: ${(error as Error)?.message}`));
      }
    }
  });
  lines.on('close', () => process.exit(0));
}
