package main

import (
	"math/rand"
	"testing"

	"github.com/eddiefleurent/azul-ai/game"
)

// A game waiting for its deal, with `inBag` tiles in the bag and `inLid` in the lid (the rest on no board:
// the counts need not make 100 here, the engine does not care).
func waitingGame(t *testing.T, r *rand.Rand, players int, inBag, inLid int) *adapter {
	t.Helper()
	a := &adapter{rng: rand.New(rand.NewSource(r.Int63()))}
	g := game.NewGameWithSeed(players, r.Int63())
	pool := allTiles()
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	g.Bag = newBag(r.Int63(), pool[:inBag], pool[inBag:inBag+inLid])
	for _, f := range g.Factories {
		f.Tiles = f.Tiles[:0]
	}
	a.g, a.dealDue = g, true
	return a
}

func factoryTexts(g *game.Game) []string {
	out := make([]string, len(g.Factories))
	for i, f := range g.Factories {
		out[i] = countOf(f.Tiles).text()
	}
	return out
}

// Every deal the engine's own SetupRound can make from a bag and lid is accepted, and SetupRound then deals
// exactly it: whole factories from the bag, a bag running out inside a factory, the lid, tiles running out.
func TestEveryDealTheEngineCanMakeIsDealtAsGiven(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 3000; trial++ {
		players := 2 + trial%3
		inBag := r.Intn(45)
		inLid := r.Intn(min(60, 100-inBag) + 1)
		a := waitingGame(t, r, players, inBag, inLid)
		sample := a.g.Clone()
		sample.Bag = newBag(r.Int63(), contents(a.g.Bag).bag, contents(a.g.Bag).lid)
		sample.SetupRound() // one deal the engine makes by itself from this bag and lid
		want := factoryTexts(sample)
		if _, err := a.deal(request{"factories": mustJSON(t, want)}); err != nil {
			t.Fatalf("trial %d (bag %d, lid %d): deal %v refused: %v", trial, inBag, inLid, want, err)
		}
		if got := factoryTexts(a.g); !equal(got, want) {
			t.Fatalf("trial %d: dealt %v, asked for %v", trial, got, want)
		}
	}
}

// Deals SetupRound cannot make are refused, naming the rule, and leave bag and lid as they were.
func TestDealsTheEngineCannotMakeAreRefused(t *testing.T) {
	cases := []struct {
		name, code, rule string
		bag, lid         string
		want             []string
	}{
		{"lid before the bag is empty", "illegal_move", "DEAL-2", "BBBBBB", "RRRRRRRRRRRRRR",
			[]string{"BBBB", "RRRR", "RRRR", "RRRR", "BBRR"}},
		{"tiles the bag does not hold", "illegal_move", "DEAL-1", "BBBBBBBBBBBBBBBBBBBB", "",
			[]string{"BBBB", "BBBB", "BBBB", "BBBB", "YYYY"}},
		{"three tiles while tiles last", "illegal_move", "DEAL-1", "BBBBBBBBBBBBBBBBBBBB", "",
			[]string{"BBBB", "BBBB", "BBBB", "BBBB", "BBB"}},
		{"not in order when tiles run out", "illegal_move", "DEAL-3", "BBBBBB", "",
			[]string{"BBBB", "", "BB", "", ""}},
		{"six factories for two players", "illegal_move", "SETUP-3", "BBBBBBBBBBBBBBBBBBBB", "",
			[]string{"BBBB", "BBBB", "BBBB", "BBBB", "BBBB", ""}},
		{"five tiles on a factory (malformed)", "bad_request", "DEAL-1", "BBBBBBBBBBBBBBBBBBBB", "",
			[]string{"BBBBB", "BBBB", "BBBB", "BBBB", "BBB"}},
		{"four factories (malformed)", "bad_request", "SETUP-3", "BBBBBBBBBBBBBBBBBBBB", "",
			[]string{"BBBB", "BBBB", "BBBB", "BBBB"}},
	}
	for _, c := range cases {
		a := waitingGame(t, rand.New(rand.NewSource(2)), 2, 0, 0)
		bag, _ := parseTiles(c.bag)
		lid, _ := parseTiles(c.lid)
		a.g.Bag = newBag(3, bag.tiles(), lid.tiles())
		_, err := a.deal(request{"factories": mustJSON(t, c.want)})
		r, ok := err.(*refusal)
		if !ok || r.code != c.code || r.rule != c.rule {
			t.Errorf("%s: got %v, want %s %s", c.name, err, c.code, c.rule)
		}
		after := contents(a.g.Bag)
		if countOf(after.bag) != bag || countOf(after.lid) != lid || !a.dealDue {
			t.Errorf("%s: the refused deal changed the game", c.name)
		}
	}
}

func mustJSON(t *testing.T, factories []string) []byte {
	t.Helper()
	out := []byte("[")
	for i, f := range factories {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, f...)
		out = append(out, '"')
	}
	return append(out, ']')
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
