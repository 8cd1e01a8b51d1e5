// The adapter for azul-ai (github.com/eddiefleurent/azul-ai, MIT): a Go main package over the engine's package
// `game`, which this project does not hold (see README.md).
module azul-conformance/adapters/azul-ai-go

go 1.25.3

require github.com/eddiefleurent/azul-ai v0.0.0
