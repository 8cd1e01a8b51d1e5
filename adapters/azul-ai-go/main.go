// Command azul-ai-adapter serves the azul-ai engine (github.com/eddiefleurent/azul-ai, package game) over
// protocol v1 of azul-conformance: one JSON request per line on stdin, one JSON reply per line on stdout.
//
// The adapter translates; it never corrects the engine. Moves, legal moves, tiling, scoring and the end of
// the game are the engine's own (Game.ApplyMove, Game.GetValidMoves). What the engine lacks, the adapter adds
// around it without changing what the engine decides: a `deal` phase between rounds (deal.go), given deals
// drawn by the engine's own Game.SetupRound from a bag ordered for it (deal.go), and a state loader and
// writer (state.go). README.md explains each choice.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand"
	"os"
	"strconv"
	"time"

	"github.com/eddiefleurent/azul-ai/game"
)

const maxLine = 1 << 20 // a request longer than 1 MiB is refused (a state is under 2 KiB)

// engineVersion names the engine's commit; build sets it with -ldflags when it knows better.
var engineVersion = "f85980cc4964"

// refusal is an `ok: false` reply: a protocol error code, the rule it breaks (optional), a message.
type refusal struct{ code, rule, message string }

func (r *refusal) Error() string { return r.message }

func refuse(code, rule, format string, args ...any) *refusal {
	return &refusal{code, rule, fmt.Sprintf(format, args...)}
}

type request map[string]json.RawMessage
type fields map[string]any

// adapter is the session: the engine's game and what protocol v1 needs beside it.
type adapter struct {
	seed        int64      // --seed
	rng         *rand.Rand // seeds for the engine's bags: one stream per game, see reseed
	g           *game.Game
	dealDue     bool // between rounds (and before the first): the factories wait for the protocol's deal
	startPlayer int  // the seat that started this round (the engine does not keep it)
}

func main() {
	seed := time.Now().UnixNano()
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		n, err := int64(0), errors.New("unknown argument")
		if args[i] == "--seed" && i+1 < len(args) {
			n, err = strconv.ParseInt(args[i+1], 10, 64)
			i++
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "usage: azul-ai-adapter [--seed N]  (%v)\n", err)
			os.Exit(2)
		}
		seed = n
	}
	a := &adapter{seed: seed, rng: rand.New(rand.NewSource(seed))}
	in := bufio.NewReaderSize(os.Stdin, 64*1024)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, tooLong, err := readLine(in)
		var reply []byte
		switch {
		case tooLong:
			reply = encode(nil, nil, refuse("bad_request", "", "request longer than %d bytes", maxLine))
		case len(trimSpace(line)) > 0:
			var quit bool
			reply, quit = a.answer(line)
			if quit {
				return
			}
		}
		if reply != nil {
			out.Write(reply)
			out.WriteByte('\n')
			out.Flush()
		}
		if err != nil { // end of input (or a read error): exit as after quit
			return
		}
	}
}

// readLine reads one line of any length, keeping at most maxLine bytes of it.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, e := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			tooLong = true
		} else {
			line = append(line, chunk...)
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if e != nil && e != io.EOF {
			fmt.Fprintf(os.Stderr, "reading stdin: %v\n", e)
		}
		return line, tooLong, e
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}

// answer returns the reply line for one request line; quit is true for `quit`.
func (a *adapter) answer(line []byte) (reply []byte, quit bool) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil || req == nil {
		why := "not a JSON object"
		if err != nil {
			why = "not a JSON object: " + err.Error()
		}
		return encode(nil, nil, refuse("bad_request", "", "%s", why)), false
	}
	var cmd string
	json.Unmarshal(req["cmd"], &cmd)
	if cmd == "quit" {
		return nil, true
	}
	id, hasID := req["id"]
	if !hasID {
		return encode(nil, nil, refuse("bad_request", "", "id: missing (every request but quit carries one)")), false
	}
	if !validID(id) { // echoing a list, an object, a boolean or 1e400 would make the reply invalid too
		return encode(nil, nil, refuse("bad_request", "", "id: expected an integer or a string, got %.80s", id)), false
	}
	result, err := a.dispatch(cmd, req)
	return encode(id, result, err), false
}

func (a *adapter) dispatch(cmd string, req request) (result fields, err error) {
	defer func() { // an engine panic is the engine failing on its own account: `internal`, and serve on
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "internal: panic in %s: %v\n", cmd, p)
			result, err = nil, refuse("internal", "", "the engine panicked: %v", p)
		}
	}()
	switch cmd {
	case "hello":
		return a.hello(req)
	case "new_game":
		return a.newGame(req)
	case "load_state":
		return a.loadState(req)
	case "deal", "legal_moves", "play", "state":
	default:
		return nil, refuse("bad_request", "", "unknown cmd %q: expected one of hello, new_game, deal, load_state, "+
			"legal_moves, play, state, quit", cmd)
	}
	if a.g == nil {
		return nil, refuse("bad_request", "", "no game yet: send new_game or load_state first")
	}
	switch cmd {
	case "deal":
		return a.deal(req)
	case "legal_moves":
		return a.legalMoves()
	case "play":
		return a.play(req)
	}
	return fields{"state": a.state()}, nil
}

// validID: an id is a JSON string or an integer (digits only: no fraction, no exponent).
func validID(raw json.RawMessage) bool {
	raw = trimSpace(raw)
	var text string
	if json.Unmarshal(raw, &text) == nil && len(raw) > 0 && raw[0] == '"' {
		return true
	}
	digits := bytes.TrimPrefix(raw, []byte("-"))
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	for _, b := range digits {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// encode writes a reply; a nil id is written as null (the request could not be read).
func encode(id json.RawMessage, result fields, err error) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	reply := fields{"id": id, "ok": err == nil}
	if err != nil {
		r, ok := err.(*refusal)
		if !ok {
			r = refuse("internal", "", "%v", err)
		}
		e := fields{"code": r.code, "message": r.message}
		if r.rule != "" {
			e["rule"] = r.rule
		}
		reply["error"] = e
	}
	for k, v := range result {
		reply[k] = v
	}
	out, merr := json.Marshal(reply)
	if merr != nil { // cannot happen with the values above; never leave a request unanswered
		out, _ = json.Marshal(fields{"id": id, "ok": false, "error": fields{"code": "internal",
			"message": "adapter: cannot write the reply: " + merr.Error()}})
	}
	return out
}

// field reads an optional request field of type T (def is used when it is absent; nil def: required).
func field[T any](req request, name string, def *T) (T, error) {
	var value T
	raw, ok := req[name]
	if !ok {
		if def == nil {
			return value, refuse("bad_request", "", "%s: missing", name)
		}
		return *def, nil
	}
	if string(trimSpace(raw)) == "null" || json.Unmarshal(raw, &value) != nil {
		return value, refuse("bad_request", "", "%s: expected %T, got %s", name, value, raw)
	}
	return value, nil
}

func (a *adapter) hello(req request) (fields, error) {
	if raw, ok := req["protocol"]; ok {
		var p int
		if json.Unmarshal(raw, &p) != nil || p != 1 {
			return nil, refuse("bad_request", "", "this engine speaks protocol 1, not %s", raw)
		}
	}
	return fields{"name": "azul-ai (Go, via adapter)", "version": engineVersion, "protocol": 1,
		"capabilities": fields{"players": []int{2, 3, 4}, "variants": []string{"colour"},
			"load_state": true, "deal": true}}, nil
}

// reseed starts the stream of bag seeds for a new game from --seed and what sets the game up (the set-up, or the
// position loaded), never from what this process played before: the suite runs its cases in any order, over
// several engine processes (-j), and each must see the same deals.
func (a *adapter) reseed(setUp ...any) {
	h := fnv.New64a()
	fmt.Fprint(h, a.seed)
	for _, part := range setUp {
		fmt.Fprintf(h, "|%v", part)
	}
	a.rng = rand.New(rand.NewSource(int64(h.Sum64() >> 1)))
}

func (a *adapter) newGame(req request) (fields, error) {
	colour, first := "colour", 0
	players, err := field[int](req, "players", nil)
	if err != nil {
		return nil, err
	}
	variant, err := field(req, "variant", &colour)
	if err != nil {
		return nil, err
	}
	start, err := field(req, "start_player", &first)
	if err != nil {
		return nil, err
	}
	switch variant {
	case "colour":
	case "grey":
		return nil, refuse("unsupported", "", "azul-ai has no grey wall")
	default:
		return nil, refuse("bad_request", "SETUP-1", "variant must be colour or grey, not %q", variant)
	}
	// The engine takes any player count and plays 2 for fewer, 4 for more (game.go:23-28): passed on as it is.
	a.reseed("new_game", players, start)
	g := game.NewGameWithSeed(players, a.rng.Int63())
	if start < 0 || start >= g.NumPlayers {
		return nil, refuse("bad_request", "SETUP-5", "start_player %d is no seat of a %d-player game", start, g.NumPlayers)
	}
	// The engine has no start-player setting; its own field for the round's first player is set instead.
	g.CurrentPlayer, g.FirstPlayer = start, start
	// The constructor has dealt already: the factories go back into the full bag, and the deal waits.
	if err := a.undeal(g, allTiles()); err != nil {
		return nil, err
	}
	a.g, a.dealDue, a.startPlayer = g, true, start
	return fields{"state": a.state()}, nil
}

func (a *adapter) legalMoves() (fields, error) {
	moves := []string{}
	for _, m := range a.g.GetValidMoves() {
		moves = append(moves, moveText(m))
	}
	return fields{"moves": moves}, nil
}

func (a *adapter) play(req request) (fields, error) {
	text, err := field[string](req, "move", nil)
	if err != nil {
		return nil, err
	}
	move, err := parseMove(text)
	if err != nil {
		return nil, err
	}
	g := a.g
	round, bagBefore := g.Round, contents(g.Bag).bag
	if err := g.ApplyMove(move); err != nil {
		return nil, refuse("illegal_move", "", "%s: the engine refused it: %v", text, err)
	}
	if !g.GameOver && g.Round != round { // the engine tiled, scored and dealt the next round in one call
		if err := a.undeal(g, bagBefore); err != nil {
			return nil, err
		}
		a.dealDue = true
	}
	return fields{"state": a.state()}, nil
}

const colourLetters = "BYRKW" // the engine's colour order (tiles.go:7-11) is the notation's

// parseMove reads the compact notation: a take `<source><colour><destination>`, or a grey-wall placement.
func parseMove(text string) (game.Move, error) {
	if len(text) == 3 && text[1] == '@' && text[0] >= '1' && text[0] <= '5' && text[2] >= '1' && text[2] <= '5' {
		return game.Move{}, refuse("illegal_move", "", "%s: azul-ai has no grey wall, so no placement", text)
	}
	bad := refuse("bad_request", "", "move %q is not in the compact notation (e.g. 3K4, CBF)", text)
	if len(text) != 3 {
		return game.Move{}, bad
	}
	var m game.Move
	switch s := text[0]; {
	case s == 'C':
		m.FactoryIdx = -1
	case s >= '1' && s <= '9':
		m.FactoryIdx = int(s - '1')
	default:
		return m, bad
	}
	c := indexByte(colourLetters, text[1])
	if c < 0 {
		return m, bad
	}
	m.Color = game.TileColor(c)
	switch d := text[2]; {
	case d == 'F':
		m.LineIdx = -1
	case d >= '1' && d <= '5':
		m.LineIdx = int(d - '1')
	default:
		return m, bad
	}
	return m, nil
}

func moveText(m game.Move) string {
	source, dest := byte('C'), byte('F')
	if m.FactoryIdx >= 0 {
		source = byte('1' + m.FactoryIdx)
	}
	if m.LineIdx >= 0 {
		dest = byte('1' + m.LineIdx)
	}
	return string([]byte{source, colourLetters[m.Color], dest})
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}
