// The adapter for tusk80/azul-engine (github.com/tusk80/azul-engine, MIT): a Go main package over the engine's
// package `game`, which this project does not hold (see README.md).
module azul-conformance/adapters/tusk80-azul-go

go 1.26

require github.com/tusk80/azul-engine v0.0.0
