"""Property-based conformance for any Engine: hypothesis strategies, invariants on canonical states, checks
riding along random games, and differential play against the reference engine.

Public API:
    strategies.game_plans(capabilities) / player_counts / variants / seeds / move_choices
    play.walk(engine, plan, watchers, give_deals) -> Trace        (raises PropertyFailure)
    invariants.state_problems(state) / moves_problems(state, moves)
    canonical.deal_problems(before, after) / draw_deal(state, rng)
    suite.PROPERTIES, suite.run_property(engine, prop, capabilities, examples, seed) -> CaseResult
    counterexample.write_counterexample(...)                      (the minimal failing game as a scenario)
"""

from ..exports import lazy

__getattr__, __dir__ = lazy(__name__, {
    ".play": "GamePlan PropertyFailure Trace Watcher walk",
    ".suite": "PROPERTIES Property run_property",
})

__all__ = ["GamePlan", "PROPERTIES", "Property", "PropertyFailure", "Trace", "Watcher",
           "run_property", "walk"]
