package main

// The state: the engine's State written as azul-state/1, and (load_state) a State read from one through the
// engine's own loader (State.UnmarshalJSON, which ends with State.Validate).
//
// Differences of representation only (what the engine decides is kept as it is):
//   - The engine's floor line is a count of occupied spaces (PlayerBoard.Floor, the marker included); a tile
//     that falls to the floor goes to the lid at once (state.go, move.go Apply), which changes nothing the
//     engine decides: the penalty needs only the count and the lid is not drawn before the next deal.
//     azul-state/1 shows the floor's tiles, so the adapter writes each take's floor tiles from the engine's own
//     lid: the marker first, then the take's tiles while spaces last (the rest stays in the lid, FLOOR-2).
//     The lid written is the engine's lid less those floor tiles.
//   - The engine keeps the round's start player only until the marker is taken (NextFirst); the adapter
//     records who moves first after each deal.
//   - State.Winner names one seat, or -1 for a shared win: written as both seats.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tusk80/azul-engine/game"
)

// laid writes down what a take put on seat me's floor: the marker if it took it, then the tiles of colour c
// that the engine moved to its lid (spill), while the floor's spaces last. The engine's count is the check.
func (a *adapter) laid(me int, c game.Color, spill int, marker bool) {
	floor := a.floors[me]
	if marker && len(floor) < game.FloorSlots {
		floor = append(floor, 'M')
	}
	for ; spill > 0 && len(floor) < game.FloorSlots; spill-- {
		floor = append(floor, colourLetters[c])
	}
	a.floors[me] = floor
}

func (a *adapter) phase() string {
	switch {
	case a.s.GameOver:
		return "over"
	case a.s.RoundOver():
		return "deal"
	}
	return "offer"
}

func (a *adapter) reply() (fields, error) {
	st, err := a.state()
	if err != nil {
		return nil, err
	}
	return fields{"state": st}, nil
}

func (a *adapter) state() (fields, error) {
	s := a.s
	lid := s.Lid
	boards := make([]fields, game.NumPlayers)
	for i := range s.Players {
		p := &s.Players[i]
		floor := a.floors[i]
		if len(floor) != int(p.Floor) {
			return nil, refuse("internal", "", "adapter: seat %d's floor holds %d spaces, the engine counts %d",
				i, len(floor), p.Floor)
		}
		for _, t := range floor {
			if c := strings.IndexByte(colourLetters, t); c >= 0 {
				if lid[c] == 0 {
					return nil, refuse("internal", "", "adapter: seat %d's floor tile %c is not in the engine's lid", i, t)
				}
				lid[c]--
			}
		}
		lines := make([]string, game.NumRows)
		wall := make([]string, game.NumRows)
		for r := 0; r < game.NumRows; r++ {
			if l := p.Lines[r]; l.Count > 0 {
				lines[r] = strings.Repeat(string(colourLetters[l.Color]), int(l.Count))
			}
			row := []byte(".....")
			for col := range row {
				if p.Wall.Has(r, col) {
					row[col] = colourLetters[game.WallColor(r, col)]
				}
			}
			wall[r] = string(row)
		}
		boards[i] = fields{"score": int(p.Score), "lines": lines, "wall": wall, "floor": string(floor)}
	}
	factories := make([]string, game.NumFactories)
	for f := range s.Factories {
		factories[f] = tileText(s.Factories[f])
	}
	phase := a.phase()
	start, marker := a.start, any("centre")
	if phase == "deal" {
		start = int(s.ToMove)
	} else if !s.TokenInCenter {
		marker = int(s.NextFirst)
	}
	var winners any
	if phase == "over" {
		if w := s.Winner(); w >= 0 {
			winners = []int{w}
		} else {
			winners = []int{0, 1}
		}
	}
	return fields{"format": "azul-state/1", "variant": "colour", "players": game.NumPlayers,
		"round": int(s.Round), "phase": phase, "turn": int(s.ToMove), "start_player": start, "marker": marker,
		"factories": factories, "centre": tileText(s.Center), "bag": tileText(s.Bag), "lid": tileText(lid),
		"boards": boards, "winners": winners}, nil
}

func tileText(counts [game.NumColors]uint8) string {
	var b strings.Builder
	for c, n := range counts {
		b.WriteString(strings.Repeat(string(colourLetters[c]), int(n)))
	}
	return b.String()
}

// tilesOf counts a string of tile letters (any order); ok is false for any other character.
func tilesOf(text string) (counts [game.NumColors]uint8, ok bool) {
	for i := 0; i < len(text); i++ {
		c := strings.IndexByte(colourLetters, text[i])
		if c < 0 || counts[c] == 255 {
			return counts, false
		}
		counts[c]++
	}
	return counts, true
}

// document is azul-state/1 as load_state receives it.
type document struct {
	Format      *string          `json:"format"`
	Variant     *string          `json:"variant"`
	Players     *int             `json:"players"`
	Round       *int             `json:"round"`
	Phase       *string          `json:"phase"`
	Turn        *int             `json:"turn"`
	StartPlayer *int             `json:"start_player"`
	Marker      *json.RawMessage `json:"marker"`
	Factories   *[]string        `json:"factories"`
	Centre      *string          `json:"centre"`
	Bag         *string          `json:"bag"`
	Lid         *string          `json:"lid"`
	Boards      *[]board         `json:"boards"`
	Winners     json.RawMessage  `json:"winners"` // the engine names the winners itself
}

type board struct {
	Score *int     `json:"score"`
	Lines []string `json:"lines"`
	Wall  []string `json:"wall"`
	Floor *string  `json:"floor"`
}

// The engine's own position format (game/json.go), which its loader reads.
type engineLine struct {
	Color string `json:"color,omitempty"`
	Count int    `json:"count"`
}

type enginePlayer struct {
	Score int          `json:"score"`
	Wall  []string     `json:"wall"`
	Lines []engineLine `json:"lines"`
	Floor int          `json:"floor"`
}

type enginePosition struct {
	Round         int            `json:"round"`
	ToMove        int            `json:"toMove"`
	NextFirst     int            `json:"nextFirst"`
	TokenInCenter bool           `json:"tokenInCenter"`
	GameOver      bool           `json:"gameOver"`
	Factories     [][]string     `json:"factories"`
	Center        []string       `json:"center"`
	Bag           map[string]int `json:"bag"`
	Lid           map[string]int `json:"lid"`
	Players       []enginePlayer `json:"players"`
}

func letters(text string) []string {
	out := []string{}
	for i := 0; i < len(text); i++ {
		out = append(out, string(text[i]))
	}
	return out
}

func colourMap(counts [game.NumColors]uint8) map[string]int {
	m := map[string]int{}
	for c, n := range counts {
		m[game.Color(c).String()] = int(n)
	}
	return m
}

// loadState reads a document into the engine's position format and hands it to the engine's loader. The
// adapter itself checks only what it needs to translate: the fields and their types, the player count and
// wall the engine plays, the letters, one colour a pattern line, and the protocol's fields the engine has no
// place for (phase, marker, start player) against the position. Everything else is the engine's loader's.
func (a *adapter) loadState(req request) (fields, error) {
	raw, ok := req["state"]
	if !ok {
		return nil, refuse("bad_request", "", "state: missing")
	}
	var d document
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, refuse("bad_request", "", "state: not an azul-state/1 document: %v", err)
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var present map[string]json.RawMessage
	json.Unmarshal(raw, &present)
	for _, name := range []string{"format", "variant", "players", "round", "phase", "turn", "start_player",
		"marker", "factories", "centre", "bag", "lid", "boards", "winners"} {
		if _, ok := present[name]; !ok {
			return nil, refuse("bad_request", "", "state: %s: missing", name)
		}
	}
	if d.Format == nil || d.Variant == nil || d.Players == nil || d.Round == nil || d.Phase == nil ||
		d.Turn == nil || d.StartPlayer == nil || d.Marker == nil || d.Factories == nil || d.Centre == nil ||
		d.Bag == nil || d.Lid == nil || d.Boards == nil {
		return nil, refuse("bad_request", "", "state: a field of azul-state/1 is null")
	}
	if *d.Format != "azul-state/1" {
		return nil, refuse("bad_request", "", "format: %q is not azul-state/1", *d.Format)
	}
	switch {
	case *d.Players < 2 || *d.Players > 4:
		return nil, refuse("bad_request", "", "players: %d is not 2, 3 or 4", *d.Players)
	case *d.Variant != "colour" && *d.Variant != "grey":
		return nil, refuse("bad_request", "", "variant: %q is not colour or grey", *d.Variant)
	case *d.Players != game.NumPlayers || *d.Variant != "colour":
		return nil, refuse("unsupported", "", "the engine plays 2 players on the coloured wall only")
	case *d.Phase == "tiling":
		return nil, refuse("unsupported", "", "phase tiling is the grey wall's: the engine has the coloured wall only")
	case *d.Phase != "deal" && *d.Phase != "offer" && *d.Phase != "over":
		return nil, refuse("bad_request", "", "phase: %q is not deal, offer, tiling or over", *d.Phase)
	}
	markerSeat := -1
	var markerText string
	if json.Unmarshal(*d.Marker, &markerText) == nil {
		if markerText != "centre" {
			bad("marker: %q is neither \"centre\" nor a seat", markerText)
		}
	} else if json.Unmarshal(*d.Marker, &markerSeat) != nil || markerSeat < 0 || markerSeat >= game.NumPlayers {
		bad("marker: %.40s is neither \"centre\" nor a seat", *d.Marker)
		markerSeat = -1
	}
	for name, seat := range map[string]int{"turn": *d.Turn, "start_player": *d.StartPlayer} {
		if seat < 0 || seat >= game.NumPlayers {
			bad("%s: %d is no seat of a 2-player game", name, seat)
		}
	}
	pos := enginePosition{Round: *d.Round, ToMove: *d.Turn, NextFirst: *d.StartPlayer,
		TokenInCenter: markerSeat < 0, GameOver: *d.Phase == "over"}
	if markerSeat >= 0 {
		pos.NextFirst = markerSeat
	}
	if len(*d.Factories) != game.NumFactories {
		bad("factories: a 2-player game has %d factories, not %d", game.NumFactories, len(*d.Factories))
	}
	for f, text := range *d.Factories {
		if _, ok := tilesOf(text); !ok {
			bad("factories[%d]: %q is not tile letters", f, text)
		}
		pos.Factories = append(pos.Factories, letters(text))
	}
	_, okC := tilesOf(*d.Centre)
	bag, okB := tilesOf(*d.Bag)
	lid, okL := tilesOf(*d.Lid)
	if !okC || !okB || !okL {
		bad("centre, bag, lid: only the letters B Y R K W")
	}
	pos.Center = letters(*d.Centre)
	if len(*d.Boards) != game.NumPlayers {
		return nil, refuse("bad_request", "", "boards: %d boards for 2 players", len(*d.Boards))
	}
	floors := [game.NumPlayers][]byte{}
	for i, b := range *d.Boards {
		if b.Score == nil || b.Floor == nil || len(b.Lines) != game.NumRows || len(b.Wall) != game.NumRows {
			bad("boards[%d]: score, lines (5), wall (5) and floor are needed", i)
			continue
		}
		p := enginePlayer{Score: *b.Score, Wall: b.Wall, Floor: len(*b.Floor)}
		for r, line := range b.Lines {
			_, ok := tilesOf(line)
			if !ok || (len(line) > 0 && strings.Count(line, line[:1]) != len(line)) {
				bad("boards[%d].lines[%d]: %q is not tiles of one colour", i, r, line)
				p.Lines = append(p.Lines, engineLine{})
				continue
			}
			l := engineLine{Count: len(line)}
			if len(line) > 0 {
				l.Color = line[:1]
			}
			p.Lines = append(p.Lines, l)
		}
		for k := 0; k < len(*b.Floor); k++ {
			t := (*b.Floor)[k]
			c := strings.IndexByte(colourLetters, t)
			switch {
			case t == 'M' && markerSeat != i:
				bad("boards[%d].floor: M, but the marker is %.40s", i, *d.Marker)
			case t == 'M' && bytes.IndexByte(floors[i], 'M') >= 0:
				bad("boards[%d].floor: two markers", i)
			case t != 'M' && c < 0:
				bad("boards[%d].floor: %q is no tile letter", i, t)
			case c >= 0:
				lid[c]++ // the engine keeps floor tiles in its lid (only their count on the floor)
			}
			floors[i] = append(floors[i], t)
		}
		pos.Players = append(pos.Players, p)
	}
	if len(problems) > 0 {
		return nil, refuse("bad_request", "", "state: %s", strings.Join(problems, "; "))
	}
	pos.Bag, pos.Lid = colourMap(bag), colourMap(lid)
	text, err := json.Marshal(pos)
	if err != nil {
		return nil, refuse("internal", "", "adapter: %v", err)
	}
	var s game.State
	if err := json.Unmarshal(text, &s); err != nil {
		return nil, refuse("bad_request", "", "state: the engine's loader refused it: %v", err)
	}
	loaded := &adapter{seed: a.seed, s: &s, start: *d.StartPlayer, floors: floors}
	if phase := loaded.phase(); phase != *d.Phase {
		return nil, refuse("bad_request", "", "phase: %q, but the engine reads this position as %q "+
			"(offer: tiles on the table; deal: none, the game not over; over: the game over)", *d.Phase, phase)
	}
	a.s, a.start, a.floors = loaded.s, loaded.start, loaded.floors
	return a.reply()
}
