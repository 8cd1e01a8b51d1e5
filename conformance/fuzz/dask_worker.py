"""What `azul fuzz` asks of the Dask workers it runs on (imported only where Dask distributed is installed)."""

from __future__ import annotations

from distributed import WorkerPlugin


class QuietWorker(WorkerPlugin):
    """Stops what wakes a worker's event loop many times a second only to watch it: the statistical profiler
    (every 10 ms it takes the interpreter lock to sample the stack of the block under way, which cost a
    2-worker cluster about a sixth of its games) and the event loop's health tick (every 20 ms; it only
    measures how late it woke, for a warning and the dashboard). The heartbeats, the memory monitor and task
    handling go on."""

    name = "azul-fuzz-quiet-worker"

    def setup(self, worker) -> None:
        for name in ("profile", "profile-cycle", "tick", "ticks"):
            callback = worker.periodic_callbacks.get(name)
            if callback is not None:
                callback.stop()
