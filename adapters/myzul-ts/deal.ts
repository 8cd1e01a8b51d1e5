// A given deal, drawn through the engine's own dealing code.
//
// placeTiles.onBegin (Game.ts:118-165) deals: the marker to the centre; when the bag holds fewer tiles than
// the factories need, every tile of the lid goes to the bag (moveTile) and the bag is shuffled
// (random.Shuffle); then each factory in turn gets tilesPerFactory tiles from the front of the bag while it
// has any. The adapter chooses only the order of the bag: before onBegin (the bag as the last round left it)
// and as the result of the engine's Shuffle. The engine then draws as it always does, and the adapter keeps
// the deal only if the factories hold what was asked.
import type { AzulGameState, AzulTileState } from 'myzul-engine/src/games/azul/models';
import { COLOUR } from './table';

/** `bag` reordered: the tiles the factories ask for first, factory by factory, then the rest unchanged. */
export function arrange(bag: AzulTileState[], factories: string[]): AzulTileState[] {
  const rest = [...bag];
  const front: AzulTileState[] = [];
  for (const letter of factories.join('')) {
    const i = rest.findIndex(t => t.color === COLOUR[letter]);
    if (i >= 0) front.push(...rest.splice(i, 1));
  }
  return [...front, ...rest];
}

/** The engine's random API with its Shuffle followed by `arrange` (the engine's Shuffle still runs first). */
export function plannedRandom(random: any, factories: string[]): any {
  return {
    ...random,
    Shuffle: (items: AzulTileState[]) => arrange(random.Shuffle(items), factories),
  };
}

/** The bag of a G before the deal, ordered so that the engine's draw, without a refill, deals `factories`. */
export function orderBag(G: AzulGameState, factories: string[]): void {
  G.tileBag = arrange(G.tileBag, factories);
}
