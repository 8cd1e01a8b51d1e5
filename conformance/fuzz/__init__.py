"""Fuzz campaigns: random games against an engine in lockstep with the reference, at any scale.

    games.py      game i of a campaign (fixed by the seed and i), played in lockstep; a FailingGame
    batched.py    the fast path: game i in one play_game request, replayed in lockstep only when it differs
    campaign.py   blocks of games, the state file (resume), the merge of findings
    run.py        where blocks run: this process, local worker processes, or a Dask cluster
    dask_worker.py  the worker plugin azul fuzz installs on a Dask cluster
    shrink.py     a deviation's game made small and written as a scenario
    report.py     findings as `azul conform`'s reports
"""
