package main

// The state: the engine's Game written as azul-state/1, and (load_state) a Game built from one.
//
// Differences of representation only (what the engine decides is kept as it is):
//   - The engine's floor (PlayerBoard.FloorLine) is a list without an end: tiles beyond the 7th space stay on
//     it until the tiling, which discards them to the lid (player.go:230-248), and scores only 7 spaces.
//     azul-state/1 puts them in the lid at once; the floor shows the first 7 (the marker as M).
//   - The marker on the floor is the engine's FirstPlayerMarker tile; who holds it is Game.FirstPlayer once
//     Center.HasFirstPlayerTile is false (game.go:185-189).
//   - The engine does not keep the round's start player; the adapter records who moves first after each deal.
//   - Game.GetWinner names one seat, or -1 for a tie it could not break (game.go:252-312); -1 is written as
//     the seats it found tied: the top score and, among those, the most complete rows.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/eddiefleurent/azul-ai/game"
)

const floorSpaces = 7

func (a *adapter) phase() string {
	switch {
	case a.g.GameOver:
		return "over"
	case a.dealDue:
		return "deal"
	}
	return "offer"
}

func (a *adapter) state() fields {
	g := a.g
	phase := a.phase()
	bag := contents(g.Bag)
	lid := countOf(bag.lid)
	boards := make([]fields, g.NumPlayers)
	for i, p := range g.Players {
		floor := []byte{}
		for k, t := range p.FloorLine {
			switch {
			case k < floorSpaces && t == game.FirstPlayerMarker:
				floor = append(floor, 'M')
			case k < floorSpaces:
				floor = append(floor, colourLetters[t])
			case t != game.FirstPlayerMarker: // no space left: the rules put it in the lid at once
				lid[t]++
			}
		}
		lines := make([]string, 5)
		for r, line := range p.PatternLines {
			if line.Filled > 0 {
				lines[r] = strings.Repeat(line.Color.String(), line.Filled)
			}
		}
		wall := make([]string, 5)
		for r := range wall {
			row := []byte(".....")
			for c := range row {
				if p.Wall[r][c] {
					row[c] = colourLetters[game.WallPattern[r][c]]
				}
			}
			wall[r] = string(row)
		}
		boards[i] = fields{"score": p.Score, "lines": lines, "wall": wall, "floor": string(floor)}
	}
	factories := make([]string, len(g.Factories))
	for i, f := range g.Factories {
		factories[i] = countOf(f.Tiles).text()
	}
	start, marker := a.startPlayer, any("centre")
	if phase == "deal" {
		start = g.CurrentPlayer
	} else if !g.Center.HasFirstPlayerTile {
		marker = g.FirstPlayer
	}
	var winners any
	if phase == "over" {
		winners = a.winners()
	}
	return fields{"format": "azul-state/1", "variant": "colour", "players": g.NumPlayers, "round": g.Round,
		"phase": phase, "turn": g.CurrentPlayer, "start_player": start, "marker": marker,
		"factories": factories, "centre": countOf(g.Center.Tiles).text(), "bag": countOf(bag.bag).text(),
		"lid": lid.text(), "boards": boards, "winners": winners}
}

func (a *adapter) winners() []int {
	g := a.g
	if w := g.GetWinner(); w >= 0 {
		return []int{w}
	}
	top, most := -1, -1
	for _, p := range g.Players {
		top = max(top, p.Score)
	}
	for _, p := range g.Players {
		if p.Score == top {
			most = max(most, completeRows(p))
		}
	}
	seats := []int{}
	for i, p := range g.Players {
		if p.Score == top && completeRows(p) == most {
			seats = append(seats, i)
		}
	}
	return seats
}

func completeRows(p *game.PlayerBoard) (n int) {
	for _, row := range p.Wall {
		if row == [5]bool{true, true, true, true, true} {
			n++
		}
	}
	return n
}

// doc is azul-state/1 as read by load_state.
type doc struct {
	Format      string          `json:"format"`
	Variant     string          `json:"variant"`
	Players     int             `json:"players"`
	Round       int             `json:"round"`
	Phase       string          `json:"phase"`
	Turn        int             `json:"turn"`
	StartPlayer int             `json:"start_player"`
	Marker      json.RawMessage `json:"marker"`
	Factories   []string        `json:"factories"`
	Centre      string          `json:"centre"`
	Bag         string          `json:"bag"`
	Lid         string          `json:"lid"`
	Boards      []boardDoc      `json:"boards"`
	Winners     json.RawMessage `json:"winners"`
}

type boardDoc struct {
	Score int      `json:"score"`
	Lines []string `json:"lines"`
	Wall  []string `json:"wall"`
	Floor string   `json:"floor"`
}

var (
	docFields = []string{"format", "variant", "players", "round", "phase", "turn", "start_player", "marker",
		"factories", "centre", "bag", "lid", "boards", "winners"}
	boardFields = []string{"score", "lines", "wall", "floor"}
)

// loadState builds an engine Game in the position given. The engine has no loader and checks nothing, so the
// adapter refuses what the engine's types cannot hold and what no game reaches in the ways listed in
// README.md (shape, 100 tiles, wall, pattern lines, phase, marker); every problem is listed at once.
func (a *adapter) loadState(req request) (fields, error) {
	raw, ok := req["state"]
	if !ok {
		return nil, refuse("bad_request", "", "state: missing")
	}
	var d doc
	if problems := decodeDoc(raw, &d); len(problems) > 0 {
		return nil, refuse("bad_request", "", "state: %s", strings.Join(problems, "; "))
	}
	if d.Variant == "grey" {
		return nil, refuse("unsupported", "", "azul-ai has no grey wall")
	}
	marker, problems := check(&d)
	if len(problems) > 0 {
		return nil, refuse("bad_request", "", "state: %s", strings.Join(problems, "; "))
	}
	a.reseed("load_state", string(raw))
	g := game.NewGameWithSeed(d.Players, a.rng.Int63())
	for i, f := range g.Factories {
		f.Tiles = append(f.Tiles[:0], mustCount(d.Factories[i]).tiles()...)
	}
	g.Center = game.NewCenter()
	g.Center.Tiles = mustCount(d.Centre).tiles()
	g.Center.HasFirstPlayerTile = marker < 0
	g.Bag = newBag(a.rng.Int63(), mustCount(d.Bag).tiles(), mustCount(d.Lid).tiles())
	for i, b := range d.Boards {
		p := g.Players[i]
		p.Score = b.Score
		for r, line := range b.Lines {
			if line != "" {
				p.PatternLines[r].Color = game.TileColor(indexByte(colourLetters, line[0]))
				p.PatternLines[r].Filled = len(line)
			}
			for c := 0; c < 5; c++ {
				p.Wall[r][c] = b.Wall[r][c] != '.'
			}
		}
		p.FloorLine = p.FloorLine[:0]
		for k := 0; k < len(b.Floor); k++ {
			if b.Floor[k] == 'M' {
				p.FloorLine = append(p.FloorLine, game.FirstPlayerMarker)
			} else {
				p.FloorLine = append(p.FloorLine, game.TileColor(indexByte(colourLetters, b.Floor[k])))
			}
		}
		if marker == i && d.Phase == "offer" && !strings.Contains(b.Floor, "M") {
			p.FloorLine = append(p.FloorLine, game.FirstPlayerMarker) // taken onto a full floor: no space
		}
	}
	g.CurrentPlayer, g.FirstPlayer, g.Round, g.GameOver = d.Turn, d.StartPlayer, d.Round, d.Phase == "over"
	if marker >= 0 {
		g.FirstPlayer = marker
	}
	a.g, a.dealDue, a.startPlayer = g, d.Phase == "deal", d.StartPlayer
	return fields{"state": a.state()}, nil
}

// decodeDoc reads the document strictly: every field present, no other, each of its type.
func decodeDoc(raw json.RawMessage, d *doc) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		return []string{"expected an azul-state/1 object"}
	}
	problems := missing("", top, docFields)
	var boards []map[string]json.RawMessage
	if json.Unmarshal(top["boards"], &boards) == nil {
		for i, b := range boards {
			problems = append(problems, missing(fmt.Sprintf("boards[%d].", i), b, boardFields)...)
		}
	}
	if len(problems) > 0 {
		return problems
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(d); err != nil {
		return []string{err.Error()}
	}
	return nil
}

func missing(prefix string, object map[string]json.RawMessage, names []string) (problems []string) {
	for _, name := range names {
		if value, ok := object[name]; !ok || (string(value) == "null" && name != "winners") {
			problems = append(problems, prefix+name+": missing")
		}
	}
	return problems
}

// check lists what makes the document no position the engine can hold or a game can reach; it returns the
// marker as a seat (-1: in the centre).
func check(d *doc) (marker int, problems []string) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	seat := func(n int) bool { return n >= 0 && n < d.Players }
	if d.Format != "azul-state/1" {
		bad("format: %q, expected azul-state/1", d.Format)
	}
	if d.Variant != "colour" {
		bad("variant: %q, expected colour or grey", d.Variant)
	}
	if d.Players < 2 || d.Players > 4 {
		bad("players: %d, expected 2, 3 or 4", d.Players)
		return -1, problems // every other count depends on it
	}
	if d.Round < 1 {
		bad("round: %d, expected 1 or more", d.Round)
	}
	if d.Phase != "deal" && d.Phase != "offer" && d.Phase != "over" {
		bad("phase: %q, expected deal, offer or over (tiling is a grey-wall phase)", d.Phase)
	}
	if !seat(d.Turn) || !seat(d.StartPlayer) {
		bad("turn %d / start_player %d: not seats of a %d-player game", d.Turn, d.StartPlayer, d.Players)
	}
	marker = -1
	var name string
	if json.Unmarshal(d.Marker, &name) == nil {
		if name != "centre" {
			bad("marker: %q, expected \"centre\" or a seat", name)
		}
	} else if json.Unmarshal(d.Marker, &marker) != nil || !seat(marker) {
		bad("marker: %s, expected \"centre\" or a seat", d.Marker)
		marker = -1
	}
	var all counts
	tilesOf := func(where, text string, most int) counts {
		c, ok := parseTiles(text)
		if !ok || len(text) > most {
			bad("%s: %q, expected up to %d of the letters B Y R K W", where, text, most)
		}
		all = all.plus(c)
		return c
	}
	if len(d.Factories) != 2*d.Players+1 {
		bad("factories: %d, a %d-player game has %d (SETUP-3)", len(d.Factories), d.Players, 2*d.Players+1)
	}
	onOffer := 0
	for i, f := range d.Factories {
		onOffer += tilesOf(fmt.Sprintf("factories[%d]", i), f, 4).size()
	}
	onOffer += tilesOf("centre", d.Centre, 100).size()
	tilesOf("bag", d.Bag, 100)
	tilesOf("lid", d.Lid, 100)
	if len(d.Boards) != d.Players {
		bad("boards: %d, expected one per player (%d)", len(d.Boards), d.Players)
	}
	shown := -1
	for i, b := range d.Boards {
		at := fmt.Sprintf("boards[%d]", i)
		if b.Score < 0 {
			bad("%s.score: %d, never below 0 (SCORE-5)", at, b.Score)
		}
		if len(b.Lines) != 5 || len(b.Wall) != 5 {
			bad("%s: expected 5 pattern lines and 5 wall rows", at)
			continue
		}
		for r := 0; r < 5; r++ {
			row := b.Wall[r]
			if len(row) != 5 {
				bad("%s.wall[%d]: %q, expected 5 spaces", at, r, row)
				continue
			}
			for c := 0; c < 5; c++ {
				if row[c] != '.' && row[c] != colourLetters[game.WallPattern[r][c]] {
					bad("%s.wall[%d]: %q on the space printed %s (WALL-1)", at, r, row[c], game.WallPattern[r][c])
				} else if row[c] != '.' {
					all[game.WallPattern[r][c]]++
				}
			}
			line := b.Lines[r]
			tilesOf(fmt.Sprintf("%s.lines[%d]", at, r), line, r+1)
			if line != "" && strings.Count(line, line[:1]) != len(line) {
				bad("%s.lines[%d]: %q, one colour per line (OFFER-8)", at, r, line)
			} else if b.Lines[r] != "" {
				colour := game.TileColor(indexByte(colourLetters, b.Lines[r][0]))
				for c := 0; c < 5; c++ {
					if game.WallPattern[r][c] == colour && row[c] != '.' {
						bad("%s.lines[%d]: %s is on wall row %d already (OFFER-9)", at, r, colour, r+1)
					}
				}
			}
		}
		if m := strings.Count(b.Floor, "M"); m > 1 {
			bad("%s.floor: %q, one marker at most", at, b.Floor)
		} else if m == 1 {
			shown = i
		}
		tilesOf(at+".floor", strings.Replace(b.Floor, "M", "", 1), floorSpaces-strings.Count(b.Floor, "M"))
	}
	for colour, n := range all {
		if n != 20 {
			bad("%d %s tiles, expected 20 of each colour (SETUP-4)", n, game.TileColor(colour))
		}
	}
	switch d.Phase {
	case "deal":
		if onOffer > 0 || marker >= 0 || shown >= 0 {
			bad("phase deal: the factories and the centre are empty and the marker is in the centre")
		}
	case "offer":
		if onOffer == 0 {
			bad("phase offer: no tile left to take, the tiling is due (OFFER-14)")
		}
		if shown >= 0 && shown != marker {
			bad("boards[%d].floor shows the marker, but marker is %s", shown, d.Marker)
		}
		if marker >= 0 && shown < 0 && len(d.Boards) > marker && len(d.Boards[marker].Floor) < floorSpaces {
			bad("marker %d: its floor does not show it and is not full (FLOOR-5)", marker)
		}
	}
	return marker, problems
}
