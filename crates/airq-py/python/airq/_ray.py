"""Sweeps on Ray (``airq.sweep(..., backend="ray")``): each point of the grid is one Ray
task that calls the Rust sweep-point function (``_airq.sweep_point``: the simulator runs
in Rust, no Python in its loop) and sends the point's results files back pickled; the
driver gathers the points in the grid's order and builds the tidy table with the same
Rust code as the local backend (``_airq.sweep_table``). A run depends only on its
scenario, variant and seed, so the table is the same whatever the cluster's size or the
order the tasks finish in.

The workers import ``airq``: on a cluster of several machines, every node needs the
same airq installed (as for any Ray task's imports).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from . import _airq


def _point(
    scenario: "_airq.ScenarioSource",
    point: List[str],
    configs: Optional[List[str]],
    variants: List[str],
    sets: List[str],
    seeds: Optional[int],
    call: List[str],
) -> "_airq.Runs":
    """One Ray task: the runs of one point, one thread (the task holds one CPU)."""
    return _airq.sweep_point(scenario, point, configs, variants, sets, seeds, 1, call)


def sweep_runs(
    scenario: "_airq.ScenarioSource",
    points: List[List[str]],
    configs: Optional[List[str]],
    variants: List[str],
    sets: List[str],
    seeds: Optional[int],
    call: List[str],
    address: Optional[str],
    init: Optional[Dict[str, Any]],
) -> "_airq.Runs":
    """Every point's runs, made by Ray tasks and joined in the points' order.

    Connects to Ray unless this process already is (then that connection is used, and
    ``address`` and ``init`` are not): to the cluster at ``address``, or to a new local
    one when it is None (``ray.init()``), with ``init``'s further arguments to
    ``ray.init``. Ray stays connected afterwards, as after any ``ray.init()``.
    """
    missing = "backend='ray' needs the ray package (pip install 'ray==2.60.0')"
    try:
        import ray
    except ImportError as e:
        raise ImportError(missing) from e
    if not hasattr(ray, "remote"):
        # A folder named ray (Ray's own /tmp/ray, in the current directory) imports
        # as an empty namespace package.
        raise ImportError(f"{missing}; 'ray' here is {list(ray.__path__)}, not Ray")
    if not ray.is_initialized():
        ray.init(address=address, **(init or {}))
    task = ray.remote(num_cpus=1)(_point)
    shared = ray.put(scenario)
    refs = [task.remote(shared, point, configs, variants, sets, seeds, call)
            for point in points]
    # In the order asked, whatever order they finished in.
    return _airq.join_runs(ray.get(refs))
