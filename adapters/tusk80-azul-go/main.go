// Command tusk80-azul-adapter serves tusk80/azul-engine (github.com/tusk80/azul-engine, package game) over
// protocol v1 of azul-conformance: one JSON request per line on stdin, one JSON reply per line on stdout.
//
// The adapter translates; it never corrects the engine. It plays a move the way the engine's own front door
// does (api.Apply: game.ParseMove, then State.Legal, then State.Apply), lists the engine's own move list
// (State.GenMoves), tiles and scores with State.ResolveRound (the front door's "score") and deals with
// State.Refill or, for given factories, State.RefillFrom (its "deal"). What the protocol needs beside the
// engine's state (the round's start player, the floor's tiles, which the engine keeps as a count) is kept
// here, from what the engine did (state.go). README.md explains each choice.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/tusk80/azul-engine/game"
)

const maxLine = 1 << 20 // a request longer than 1 MiB is refused (a state is under 2 KiB)

// engineVersion names the engine's commit.
var engineVersion = "b534674e93ff"

// refusal is an `ok: false` reply: a protocol error code, the rule it breaks (optional), a message.
type refusal struct{ code, rule, message string }

func (r *refusal) Error() string { return r.message }

func refuse(code, rule, format string, args ...any) *refusal {
	return &refusal{code, rule, fmt.Sprintf(format, args...)}
}

type request map[string]json.RawMessage
type fields map[string]any

// adapter is the session: the engine's state and what protocol v1 needs beside it.
type adapter struct {
	seed   uint64      // --seed: with the position, it seeds each random deal
	s      *game.State // nil until new_game or load_state
	start  int         // the seat that started this round (the engine keeps it only until the marker is taken)
	floors [game.NumPlayers][]byte
}

func main() {
	var seed uint64
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		n, err := uint64(0), errors.New("unknown argument")
		if args[i] == "--seed" && i+1 < len(args) {
			n, err = strconv.ParseUint(args[i+1], 10, 64)
			i++
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "usage: tusk80-azul-adapter [--seed N]  (%v)\n", err)
			os.Exit(2)
		}
		seed = n
	}
	a := &adapter{seed: seed}
	in := bufio.NewReaderSize(os.Stdin, 64*1024)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, tooLong, err := readLine(in)
		var reply []byte
		switch {
		case tooLong:
			reply = encode(nil, nil, refuse("bad_request", "", "request longer than %d bytes", maxLine))
		case len(bytes.TrimSpace(line)) > 0:
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
	if a.s == nil {
		return nil, refuse("bad_request", "", "no game yet: send new_game or load_state first")
	}
	switch cmd {
	case "deal":
		return a.deal(req)
	case "legal_moves":
		return a.legalMoves(), nil
	case "play":
		return a.play(req)
	}
	return a.reply()
}

// validID: an id is a JSON string or an integer (digits only: no fraction, no exponent).
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	var text string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &text) == nil {
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
	if string(bytes.TrimSpace(raw)) == "null" || json.Unmarshal(raw, &value) != nil {
		return value, refuse("bad_request", "", "%s: expected %T, got %.80s", name, value, raw)
	}
	return value, nil
}

func (a *adapter) hello(req request) (fields, error) {
	if raw, ok := req["protocol"]; ok {
		var p int
		if json.Unmarshal(raw, &p) != nil || p != 1 {
			return nil, refuse("bad_request", "", "this engine speaks protocol 1, not %.80s", raw)
		}
	}
	return fields{"name": "tusk80/azul-engine (Go, via adapter)", "version": engineVersion, "protocol": 1,
		"capabilities": fields{"players": []int{game.NumPlayers}, "variants": []string{"colour"},
			"load_state": true, "deal": true}}, nil
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
	switch {
	case players < 2 || players > 4:
		return nil, refuse("bad_request", "SETUP-6", "players must be 2, 3 or 4, not %d", players)
	case variant != "colour" && variant != "grey":
		return nil, refuse("bad_request", "SETUP-1", "variant must be colour or grey, not %q", variant)
	case start < 0 || start >= players:
		return nil, refuse("bad_request", "SETUP-5", "start_player %d is no seat of a %d-player game", start, players)
	case players != game.NumPlayers:
		return nil, refuse("unsupported", "", "the engine plays 2 players only (game.NumPlayers)")
	case variant == "grey":
		return nil, refuse("unsupported", "", "the engine has the coloured wall only")
	}
	s := game.NewGame(start) // full bag, empty factories: the first deal waits, as the protocol's does
	a.s, a.start, a.floors = &s, start, [game.NumPlayers][]byte{}
	return a.reply()
}

// deal fills the factories as the engine's front door does between rounds: only once the round is over and
// scored (api.Apply's "deal" step), by State.RefillFrom for given factories or State.Refill at random.
func (a *adapter) deal(req request) (fields, error) {
	s := a.s
	var given *[game.NumFactories][game.NumColors]uint8
	if raw, ok := req["factories"]; ok {
		var texts []string
		if json.Unmarshal(raw, &texts) != nil || texts == nil {
			return nil, refuse("bad_request", "", "factories: expected a list of strings, got %.80s", raw)
		}
		if len(texts) < 5 || len(texts) > 9 {
			return nil, refuse("bad_request", "", "factories: 5 to 9 factories, not %d", len(texts))
		}
		var deal [game.NumFactories][game.NumColors]uint8
		for f, text := range texts {
			counts, ok := tilesOf(text)
			if !ok || len(text) > game.FactorySize {
				return nil, refuse("bad_request", "", "factories[%d]: %q is not up to 4 tiles in B Y R K W", f, text)
			}
			if f < game.NumFactories {
				deal[f] = counts
			}
		}
		given = &deal
		if s.GameOver || !s.RoundOver() {
			return nil, refuse("illegal_move", "", "no deal is due: the engine deals only once a round is over and scored")
		}
		if len(texts) != game.NumFactories {
			return nil, refuse("illegal_move", "SETUP-3", "a 2-player game has %d factories, not %d",
				game.NumFactories, len(texts))
		}
	}
	if s.GameOver || !s.RoundOver() {
		return nil, refuse("illegal_move", "", "no deal is due: the engine deals only once a round is over and scored")
	}
	if given != nil {
		if err := s.RefillFrom(*given); err != nil { // the engine refuses and leaves its state as it was
			return nil, refuse("illegal_move", "", "the engine refused the deal: %v", err)
		}
	} else {
		s.Refill(rand.New(rand.NewPCG(a.seed, s.Hash))) // the same position deals the same, in any case order
	}
	a.start = int(s.ToMove)
	return a.reply()
}

func (a *adapter) legalMoves() fields {
	moves := []string{}
	var ml game.MoveList
	a.s.GenMoves(&ml)
	for _, m := range ml.Slice() {
		moves = append(moves, moveText(m))
	}
	return fields{"moves": moves}
}

func (a *adapter) play(req request) (fields, error) {
	text, err := field[string](req, "move", nil)
	if err != nil {
		return nil, err
	}
	words, err := engineWords(text)
	if err != nil {
		return nil, err
	}
	s := a.s
	m, perr := game.ParseMove(words)
	if perr != nil || !s.Legal(m) { // api.Apply refuses both alike: "illegal move"
		why := "State.Legal refuses it"
		if perr != nil {
			why = perr.Error()
		}
		return nil, refuse("illegal_move", "", "%s: the engine refused it (%s)", text, why)
	}
	me := int(s.ToMove)
	lidBefore, markerBefore := s.Lid, s.TokenInCenter
	s.Apply(m)
	a.laid(me, m.Color(), int(s.Lid[m.Color()])-int(lidBefore[m.Color()]), markerBefore && !s.TokenInCenter)
	if s.RoundOver() { // the front door's "score": tiling, floor, clamp, and the end or the next round's turn
		s.ResolveRound()
		a.floors = [game.NumPlayers][]byte{}
	}
	return a.reply()
}

const colourLetters = "BYRKW" // the engine's colour order (color.go) is the notation's

// engineWords turns the compact notation into the engine's own move text ("F3 black->4", "C blue->floor").
func engineWords(text string) (string, error) {
	bad := refuse("bad_request", "", "move %q is not in the compact notation (e.g. 3K4, CBF)", text)
	if len(text) == 3 && text[1] == '@' && text[0] >= '1' && text[0] <= '5' && text[2] >= '1' && text[2] <= '5' {
		return "", refuse("illegal_move", "", "%s: the engine has no grey wall, so no placement", text)
	}
	if len(text) != 3 {
		return "", bad
	}
	source := "C"
	switch s := text[0]; {
	case s >= '1' && s <= '9':
		source = "F" + string(s)
	case s != 'C':
		return "", bad
	}
	c := bytes.IndexByte([]byte(colourLetters), text[1])
	if c < 0 {
		return "", bad
	}
	dest := "floor"
	switch d := text[2]; {
	case d >= '1' && d <= '5':
		dest = string(d)
	case d != 'F':
		return "", bad
	}
	return fmt.Sprintf("%s %v->%s", source, game.Color(c), dest), nil
}

func moveText(m game.Move) string {
	source, dest := byte('C'), byte('F')
	if m.Src() != game.SrcCenter {
		source = byte('1' + m.Src())
	}
	if m.Dst() != game.DstFloor {
		dest = byte('1' + m.Dst())
	}
	return string([]byte{source, colourLetters[m.Color()], dest})
}
