"""Fuzz campaigns: random games against an engine in lockstep with the reference, at any scale.

    games.py      game i of a campaign (fixed by the seed and i), played in lockstep; a FailingGame
    batched.py    the fast path: game i in one play_game request, replayed in lockstep only when it differs
    campaign.py   blocks of games, the state file (resume), the merge of findings
    identity.py   which engine a campaign is played against (a campaign resumes only for the same)
    run.py        where blocks run: this process, local worker processes, or a Dask cluster
    dask_worker.py  the worker plugin azul fuzz installs on a Dask cluster
    limits.py     how many games a campaign may ask for (read by the command's options and the state file)
    shrink.py     a deviation's game made small and written as a scenario
    report.py     findings as `azul conform`'s reports
"""

from ..exports import lazy

__getattr__, __dir__ = lazy(__name__, {
    ".campaign": "CampaignError CampaignSpec close_engines",
    ".identity": "engine_identity",
    ".limits": "MAX_GAMES",
    ".report": "header_of results_of write_reports",
    ".run": "DaskExecutor LocalExecutor play_campaign",
    ".state": "StateFile",
})

__all__ = ["CampaignError", "CampaignSpec", "DaskExecutor", "LocalExecutor", "MAX_GAMES", "StateFile", "close_engines",
           "engine_identity", "header_of", "play_campaign", "results_of", "write_reports"]
