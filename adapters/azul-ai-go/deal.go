package main

// The deal. The engine deals inside Game.SetupRound, which its constructor and Game.EndRound call at once
// (game.go:53, 239): it has no phase where the factories wait to be filled, and no way to be told what to deal.
// The adapter (1) undoes that immediate deal, so the protocol's `deal` comes in between, and (2) for a given
// deal, orders the bag so that the engine's own SetupRound draws exactly the factories asked for.
//
// The engine's Bag keeps its tiles and its discards (the lid) in unexported fields, but its exported methods
// are enough to read and rebuild them: Clone and Draw read them, NewBag, Draw, Discard and RefillFromDiscards
// set them. Its shuffles come from math/rand seeded by the bag's seed (bag.go:20, 37), so the adapter
// can work out each shuffle's permutation in advance and place every tile where the shuffle will move it.

import (
	"math/rand"

	"github.com/eddiefleurent/azul-ai/game"
)

type tiles []game.TileColor

// counts is a multiset of colours.
type counts [game.NumColors]int

func countOf(ts tiles) (c counts) {
	for _, t := range ts {
		c[t]++
	}
	return c
}

func (c counts) minus(d counts) (counts, bool) {
	for i := range c {
		c[i] -= d[i]
		if c[i] < 0 {
			return c, false
		}
	}
	return c, true
}

func (c counts) plus(d counts) counts {
	for i := range c {
		c[i] += d[i]
	}
	return c
}

func (c counts) size() (n int) {
	for _, k := range c {
		n += k
	}
	return n
}

func (c counts) tiles() (ts tiles) {
	for colour, k := range c {
		for ; k > 0; k-- {
			ts = append(ts, game.TileColor(colour))
		}
	}
	return ts
}

// text writes a multiset in B Y R K W order, as azul-state/1 wants.
func (c counts) text() string {
	b := make([]byte, 0, c.size())
	for colour, k := range c {
		for ; k > 0; k-- {
			b = append(b, colourLetters[colour])
		}
	}
	return string(b)
}

func allTiles() tiles {
	var c counts
	for i := range c {
		c[i] = 20
	}
	return c.tiles()
}

type bagContents struct{ bag, lid tiles }

// contents reads the bag and its discards (the lid) from a clone, through the engine's own Draw.
func contents(b *game.Bag) bagContents {
	c := b.Clone()
	inBag := c.Draw(c.TilesRemaining())
	return bagContents{inBag, c.Draw(c.TotalTilesInPlay())} // the bag is empty: Draw refills from the discards
}

// shuffled is the permutation a Shuffle of n items by r makes: item p[k] ends at position k.
func shuffled(r *rand.Rand, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// newBag is an engine Bag holding `inBag` and `lid`. It is built as the engine builds one (NewBag), emptied
// with Draw, then filled with Discard and RefillFromDiscards, whose shuffle mixes the bag (bag.go:36-40, 62-66).
func newBag(seed int64, inBag, lid tiles) *game.Bag {
	b := game.NewBag(seed)
	b.Draw(100)
	b.Discard(inBag)
	b.RefillFromDiscards()
	b.Discard(lid)
	return b
}

// arrangedBag is newBag with the tiles in a chosen order: `inBag` as wanted after the refill's shuffle (Draw
// takes from the end), and `lid` as wanted after the shuffle that pours it into the emptied bag. The shuffles
// are the bag's own, replayed here on a generator with the same seed, and each tile is put where they move it.
func arrangedBag(seed int64, inBag, lid tiles) *game.Bag {
	r := rand.New(rand.NewSource(seed))
	shuffled(r, 100) // NewBag's shuffle of the 100 tiles (bag.go:31)
	order := unshuffle(inBag, shuffled(r, len(inBag)))
	return newBag(seed, order, unshuffle(lid, shuffled(r, len(lid))))
}

// unshuffle orders items so that a shuffle with permutation p puts them in the order given.
func unshuffle(want tiles, p []int) tiles {
	out := make(tiles, len(want))
	for k, i := range p {
		out[i] = want[k]
	}
	return out
}

// undeal takes back the deal the engine made at once: the factories are emptied and the bag is rebuilt as it
// was before that deal (`before`, read before the move that ended the round), with everything else in the lid.
func (a *adapter) undeal(g *game.Game, before tiles) error {
	now := contents(g.Bag)
	pool := countOf(now.bag).plus(countOf(now.lid))
	for _, f := range g.Factories {
		pool = pool.plus(countOf(f.Tiles))
		f.Tiles = f.Tiles[:0]
	}
	lid, ok := pool.minus(countOf(before))
	if !ok {
		return refuse("internal", "", "adapter: the bag before the deal holds tiles the table does not")
	}
	g.Center = game.NewCenter()
	g.Bag = newBag(a.rng.Int63(), before, lid.tiles())
	return nil
}

func (a *adapter) deal(req request) (fields, error) {
	g := a.g
	if !a.dealDue {
		return nil, refuse("illegal_move", "DEAL-1", "no deal is due in phase %s", a.phase())
	}
	var want []string
	if raw, given := req["factories"]; given && string(trimSpace(raw)) != "null" {
		f, err := field[[]string](req, "factories", nil)
		if err != nil {
			return nil, err
		}
		want = f
		if err := a.orderBagFor(want); err != nil {
			return nil, err
		}
	}
	g.SetupRound() // the engine's own deal: 4 tiles per factory from the bag, refilled from the lid when empty
	if want != nil {
		for i, f := range g.Factories {
			if countOf(f.Tiles) != mustCount(want[i]) {
				return nil, refuse("internal", "", "adapter: the engine dealt %q to factory %d, not %q",
					countOf(f.Tiles).text(), i+1, want[i])
			}
		}
	}
	a.dealDue, a.startPlayer = false, g.CurrentPlayer
	return fields{"state": a.state()}, nil
}

func mustCount(s string) counts {
	c, _ := parseTiles(s)
	return c
}

// parseTiles reads colour letters in any order.
func parseTiles(s string) (counts, bool) {
	var c counts
	for i := 0; i < len(s); i++ {
		k := indexByte(colourLetters, s[i])
		if k < 0 {
			return c, false
		}
		c[k]++
	}
	return c, true
}

// orderBagFor refuses a deal the engine's SetupRound cannot make from its bag and lid, and otherwise orders
// the bag so that SetupRound makes it. SetupRound fills the factories in order, 4 tiles each, from the bag;
// when the bag is empty it pours in the whole lid (Bag.Draw, bag.go:44-60), and when both are empty the
// factories stay as they are. So a deal is possible exactly when it is the whole bag first, then lid tiles.
func (a *adapter) orderBagFor(want []string) error {
	g := a.g
	if len(want) < 5 || len(want) > 9 { // protocol v1's schema: no deal at all
		return refuse("bad_request", "SETUP-3", "a deal is a list of 5 to 9 factories, not %d", len(want))
	}
	if len(want) != len(g.Factories) {
		return refuse("illegal_move", "SETUP-3", "%d factories given; a %d-player game has %d",
			len(want), g.NumPlayers, len(g.Factories))
	}
	per := make([]counts, len(want))
	var dealt counts
	for i, f := range want {
		c, ok := parseTiles(f)
		if !ok || len(f) > 4 { // protocol v1's schema: no deal at all
			return refuse("bad_request", "DEAL-1", "factory %d: %q is not up to 4 tiles of B Y R K W", i+1, f)
		}
		per[i], dealt = c, dealt.plus(c)
	}
	now := contents(g.Bag)
	bag, lid := countOf(now.bag), countOf(now.lid)
	total := bag.size() + lid.size()
	for i, c := range per {
		size := min(4, max(0, total-4*i))
		if c.size() == size {
			continue
		}
		if total >= 4*len(per) {
			return refuse("illegal_move", "DEAL-1", "factory %d holds %d tiles: while tiles last, each gets 4", i+1, c.size())
		}
		return refuse("illegal_move", "DEAL-3", "bag and lid hold %d tiles, dealt in order: factory %d gets %d, not %d",
			total, i+1, size, c.size())
	}
	if _, ok := bag.minus(dealt); !ok && dealt.size() <= bag.size() {
		return refuse("illegal_move", "DEAL-1", "the bag holds %s: it cannot give %s", bag.text(), dealt.text())
	}
	// The draw order: the bag's tiles first. Factories before the one where the bag runs out come from the
	// bag alone; that factory takes the rest of the bag and then lid tiles; the factories after it, lid tiles.
	early := refuse("illegal_move", "DEAL-2", "the whole bag (%s) is dealt before the lid (%s) is poured in",
		bag.text(), lid.text())
	left := bag // the bag's tiles not dealt yet
	var fromBag, fromLid tiles
	for _, c := range per {
		switch {
		case left.size() == 0: // the lid has been poured into the empty bag
			fromLid = append(fromLid, c.tiles()...)
			if _, ok := lid.minus(countOf(fromLid)); !ok {
				return early
			}
		case c.size() <= left.size():
			rest, ok := left.minus(c)
			if !ok {
				return early
			}
			fromBag, left = append(fromBag, c.tiles()...), rest
		default: // the bag runs out in this factory
			onLid, ok := c.minus(left)
			if !ok {
				return early
			}
			fromBag, fromLid, left = append(fromBag, left.tiles()...), onLid.tiles(), counts{}
			if _, ok := lid.minus(onLid); !ok {
				return early
			}
		}
	}
	// Draw takes from the end of the bag: the first tile drawn goes last; undrawn tiles stay at the bottom.
	bottomBag, _ := bag.minus(countOf(fromBag))
	bottomLid, _ := lid.minus(countOf(fromLid))
	g.Bag = arrangedBag(a.rng.Int63(), append(bottomBag.tiles(), reversed(fromBag)...),
		append(bottomLid.tiles(), reversed(fromLid)...))
	return nil
}

func reversed(ts tiles) tiles {
	out := make(tiles, len(ts))
	for i, t := range ts {
		out[len(ts)-1-i] = t
	}
	return out
}
