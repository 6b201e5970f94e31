"""A simulation's pieces on a Dask cluster (``distributed``, in the ``cli`` extra).

``scheduler`` is a scheduler's address (``tcp://host:8786``, as ``dask scheduler`` prints
it, or the one a dask-jobqueue ``SLURMCluster`` gives) or ``"local"``: a `LocalCluster` of
processes on this machine, one a core, started and closed for the run. Each piece
(`simulate.Piece`, plain data) is sent to a worker, which plays it with the function given
(`simulate.play_piece`, sent by name) from its own installed ``pyengine``; the tallies come
back in any order and add up exactly, so the result equals a run on one core. The workers
must run the same ``pyengine`` (the same game data): each piece is checked to have been
played by the engine version that cut it.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, TypeVar

from .. import __version__
from ..errors import EngineError

P = TypeVar("P")
T = TypeVar("T")

__all__ = ["run_on_cluster"]


def _versioned(play: Callable[[P], T], piece: P) -> tuple[str, T]:
    """What a worker returns: its engine's version beside the piece's tally."""
    from .. import __version__ as worker_version

    return worker_version, play(piece)


def _client(scheduler: str) -> tuple[Any, Any]:
    try:
        dist: Any = importlib.import_module("distributed")  # typed loosely: its calls are untyped
    except ImportError as exc:  # the cli extra is not installed
        raise EngineError(
            "--scheduler needs Dask's distributed: pip install 'pyengine[cli]' (or pip install distributed)"
        ) from exc
    if scheduler == "local":
        cluster = dist.LocalCluster(
            n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=":0",
            silence_logs=logging.CRITICAL,  # a worker's failure reaches the run through its result
        )
        return dist.Client(cluster), cluster
    try:
        return dist.Client(scheduler, timeout="30s"), None
    except (OSError, TimeoutError) as exc:
        raise EngineError(f"no Dask scheduler answered at {scheduler}: {exc}") from exc


def run_on_cluster(
    work: Sequence[P], scheduler: str, play: Callable[[P], T], count: Callable[[P], int],
    progress: Callable[[int], None] | None = None,
) -> Iterator[T]:
    """Each piece's tally, ``play(piece)`` on the cluster at ``scheduler`` (``"local"``: one
    started here), as the pieces finish; ``count(piece)`` is its rounds, for ``progress``."""
    client, cluster = _client(scheduler)
    as_completed: Any = importlib.import_module("distributed").as_completed
    try:
        futures = client.map(partial(_versioned, play), list(work), pure=False)
        counts = {f.key: count(p) for f, p in zip(futures, work, strict=True)}
        for future in as_completed(futures):
            version, tally = future.result()
            if version != __version__:
                raise EngineError(
                    f"a Dask worker runs pyengine {version}, this run is {__version__}: "
                    "install the same on every worker"
                )
            if progress is not None:
                progress(counts[future.key])
            yield tally
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
