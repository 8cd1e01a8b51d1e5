// The adapter for azul-ai (github.com/eddiefleurent/azul-ai, MIT). The engine is used unchanged from the
// pinned copy beside the repository; `build` can point the replace at another copy (AZUL_AI_GO_DIR).
module azul-conformance/adapters/azul-ai-go

go 1.25.3

require github.com/eddiefleurent/azul-ai v0.0.0

replace github.com/eddiefleurent/azul-ai => ../../../shared/engines/azul-ai-go
