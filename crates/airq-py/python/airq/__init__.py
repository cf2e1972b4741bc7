"""airq from Python: the WiFi AP queueing simulator's scenarios, runs, comparisons and
sweeps, with results as tidy pandas DataFrames.

The same concepts as the ``airq`` command, made by the same code (the ``airq-cli``
crate, compiled into ``airq._airq``): a scenario is a validated TOML file (or a dict),
changed by overrides (``--set``); a run is one variant (an AP preset, a ``[[variant]]``
or ``"name:key=value,..."``) under one seed; a comparison runs several variants side by
side; a sweep runs the grid of some keys' values. Runs go to every core with the GIL
released and come back in the order asked for, so the same call gives the same
figures whatever the machine. Results files are airq's (``airq show``, ``airq plot``
read what :meth:`Results.save` writes, and :func:`load` reads what ``airq`` writes).

>>> import airq
>>> res = airq.compare("ending-the-anomaly", configs=["fq_codel", "airtime"],
...                    duration=4, omit=0, seeds=1)
>>> res.stations.pivot(index="station", columns="variant", values="goodput_mbps")

Every error is an :class:`AirqError` carrying airq's message (file, line and key).
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

import pandas as pd

from . import _airq
from ._airq import AirqError

__all__ = [
    "AirqError",
    "PRESETS",
    "Results",
    "Run",
    "Scenario",
    "compare",
    "load",
    "load_scenario",
    "parse_scenario",
    "run",
    "sweep",
]

#: A checked scenario (see :func:`load_scenario`).
Scenario = _airq.ScenarioSource

#: The AP presets, in the order :func:`compare` runs them when told nothing.
PRESETS: List[str] = list(_airq.PRESETS)

#: What a scenario can be given as: a Scenario, a file, a bundled scenario's name, or
#: a dict of the TOML file's tables.
ScenarioLike = Union["Scenario", str, "os.PathLike[str]", Mapping[str, Any]]

#: Overrides: ``{"ap.fq_mac.target_ms": 5}`` or ``["ap.fq_mac.target_ms=5"]``.
Overrides = Union[Mapping[str, Any], Sequence[str], None]

_TABLES = ("stations", "drops", "flows", "series", "flow_series", "ap_series", "pings")


def load_scenario(source: ScenarioLike, overrides: Overrides = None) -> "Scenario":
    """Loads and checks a scenario.

    ``source`` is a scenario file, the name of a bundled scenario
    (``"ending-the-anomaly"``), a dict of the file's tables (``{"name": ..., "station":
    [...], "traffic": [...]}``, as ``tomllib`` would read it), or a Scenario (then the
    overrides are added to its own). ``overrides`` change keys as ``airq --set`` does:
    ``{"ap.fq_mac.target_ms": 5, "duration": 10.0}`` (values as Python values) or
    ``["ap.fq_mac.target_ms=5"]`` (values as TOML).

    Raises :class:`AirqError` naming the file, line and key of what is wrong.
    """
    sets = _overrides(overrides)
    if isinstance(source, _airq.ScenarioSource):
        return source.with_overrides(sets) if sets else source
    if isinstance(source, Mapping):
        return _airq.parse_scenario("<dict>", _airq.toml_text(dict(source)), sets)
    if isinstance(source, (str, os.PathLike)):
        return _airq.load_scenario(os.fspath(source), sets)
    raise TypeError(
        f"a scenario is a Scenario, a file, a bundled scenario's name or a dict, not "
        f"{type(source).__name__}"
    )


def parse_scenario(text: str, file: str = "<text>", overrides: Overrides = None) -> "Scenario":
    """Parses scenario TOML ``text``; errors name ``file`` and the line."""
    return _airq.parse_scenario(file, text, _overrides(overrides))


def run(
    scenario: ScenarioLike,
    variant: Optional[str] = None,
    *,
    seed: Optional[int] = None,
    seeds: Optional[int] = None,
    duration: Optional[float] = None,
    omit: Optional[float] = None,
    overrides: Overrides = None,
    jobs: Optional[int] = None,
) -> "Results":
    """Runs one variant of a scenario, as ``airq run``.

    ``variant`` is an AP preset (``"fq_mac"``), one of the scenario's ``[[variant]]``
    names, or ``"name:key=value,..."`` (``preset=P`` among them names the preset it
    starts from); by default the scenario's ``[ap] preset``. ``seed`` is the first
    seed, ``seeds`` how many (default: the scenario's ``seeds``), ``duration`` and
    ``omit`` (warm-up left out of every summary) are in seconds; ``overrides`` as in
    :func:`load_scenario`. ``jobs`` threads run the seeds (default: every core).

    Returns the runs, seed by seed.
    """
    sc = load_scenario(scenario)
    sets = _run_overrides(overrides, seed, duration, omit)
    call = _call("run", sc, variant=variant, seed=seed, seeds=seeds, duration=duration,
                 omit=omit, overrides=overrides)
    return Results(_airq.run(sc, variant, sets, seeds, jobs, [call]))


def compare(
    scenario: ScenarioLike,
    configs: Optional[Sequence[str]] = None,
    variants: Optional[Sequence[str]] = None,
    *,
    seed: Optional[int] = None,
    seeds: Optional[int] = None,
    duration: Optional[float] = None,
    omit: Optional[float] = None,
    overrides: Overrides = None,
    jobs: Optional[int] = None,
) -> "Results":
    """Runs variants side by side, as ``airq compare``.

    ``configs`` are AP presets, ``variants`` variant specs (as :func:`run`'s
    ``variant``), run in that order; with neither, the scenario's ``[[variant]]`` tables,
    or every preset (:data:`PRESETS`) if it has none. Other arguments as in :func:`run`.

    Returns the runs: seed by seed, each seed's variants in order.
    """
    sc = load_scenario(scenario)
    sets = _run_overrides(overrides, seed, duration, omit)
    call = _call("compare", sc, configs=configs, variants=variants, seed=seed, seeds=seeds,
                 duration=duration, omit=omit, overrides=overrides)
    return Results(
        _airq.compare(sc, _names(configs), list(variants or []), sets, seeds, jobs, [call])
    )


def sweep(
    scenario: ScenarioLike,
    params: Mapping[str, Iterable[Any]],
    configs: Optional[Sequence[str]] = None,
    variants: Optional[Sequence[str]] = None,
    *,
    seed: Optional[int] = None,
    seeds: Optional[int] = None,
    duration: Optional[float] = None,
    omit: Optional[float] = None,
    overrides: Overrides = None,
    jobs: Optional[int] = None,
    backend: str = "local",
    address: Optional[str] = None,
    ray_init: Optional[Mapping[str, Any]] = None,
    return_results: bool = False,
) -> Any:
    """Runs the grid of ``params``' values × the variants × the seeds, as ``airq sweep``.

    ``params`` maps scenario keys to their values: ``{"ap.fq_mac.target_ms": [5, 20]}``
    (the first key varies slowest). Variants and other arguments as in :func:`compare`.

    Returns one tidy DataFrame, the table ``airq sweep`` writes: a row per point ×
    variant × seed × station × metric, with the columns ``scenario, variant, preset,
    <each key>, seed, duration_s, station, metric, value`` (``station`` is ``*`` for
    the whole BSS: ``total_goodput_mbps``, ``airtime_jain``, ``worst_ping_p99_ms``; a
    ping percentile among lost pings is ``inf``). With ``return_results``, also the
    runs: ``(frame, results)``.

    ``backend="local"`` runs every run on ``jobs`` threads here. ``backend="ray"`` makes
    each point of the grid one Ray task (one CPU; the simulator in Rust, as here) on
    the cluster at ``address`` (``"auto"``, ``"HOST:6379"``, ``"ray://HOST:10001"``),
    or on a new local Ray when ``address`` is None; ``ray_init`` are further arguments
    to ``ray.init`` (``{"num_cpus": 2}``). If this process is already connected to Ray,
    that connection is used. Either way the table is the same, value for value.
    """
    if backend not in ("local", "ray"):
        raise ValueError(f"backend {backend!r}: 'local' or 'ray'")
    if backend == "local" and (address is not None or ray_init is not None):
        raise ValueError("address and ray_init are for backend='ray'")
    sc = load_scenario(scenario)
    sets = _run_overrides(overrides, seed, duration, omit)
    grid = [(key, [_toml_value(key, v) for v in values]) for key, values in params.items()]
    call = _call("sweep", sc, params=dict(params), configs=configs, variants=variants,
                 seed=seed, seeds=seeds, duration=duration, omit=omit, overrides=overrides,
                 backend=None if backend == "local" else backend, address=address)
    configs, variants = _names(configs), list(variants or [])
    if backend == "local":
        csv, native = _airq.sweep(sc, grid, configs, variants, sets, seeds, jobs, [call])
    else:
        from . import _ray

        points = _airq.sweep_points(sc, grid, configs, variants, sets, seeds)
        native = _ray.sweep_runs(sc, points, configs, variants, sets, seeds, [call],
                                 address, dict(ray_init) if ray_init else None)
        csv = _airq.sweep_table(sc, grid, configs, variants, sets, seeds, native)
    # Every field as airq wrote it: a variant named "NA" stays a name; the values are
    # Rust's shortest round-trip decimals, read back exactly ("round_trip" is pandas 3's
    # default and an option before it).
    exact = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
    frame = pd.read_csv(io.StringIO(csv), keep_default_na=False, na_values=[""], **exact)
    return (frame, Results(native)) if return_results else frame


def load(path: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]) -> Any:
    """Reads airq results files (``.json.gz``, any format version airq reads).

    One path gives a :class:`Run`; a list of paths, or a folder (every ``*.json.gz``
    in it, by name), gives :class:`Results`.
    """
    if isinstance(path, (str, os.PathLike)):
        p = os.fspath(path)
        if not os.path.isdir(p):
            return Run(_airq.load(p))
        paths = [os.path.join(p, n) for n in sorted(os.listdir(p)) if n.endswith(".json.gz")]
    else:
        paths = [os.fspath(x) for x in path]
    native = None
    for p in paths:
        one = _airq.load(p)
        native = one if native is None else native.concat(one)
    if native is None:
        raise AirqError(f"{path}: no results file (*.json.gz)")
    return Results(native)


class _Tables:
    """The tidy tables of some runs, made once each when first asked for."""

    def __init__(self, native: "_airq.Runs") -> None:
        self._native = native
        self._frames: Dict[str, pd.DataFrame] = {}

    def table(self, kind: str) -> pd.DataFrame:
        """The table ``kind``: one of ``stations``, ``drops``, ``flows``, ``series``,
        ``flow_series``, ``ap_series``, ``pings``."""
        if kind not in self._frames:
            self._frames[kind] = pd.DataFrame(self._native.frame(kind))
        return self._frames[kind].copy()

    @property
    def stations(self) -> pd.DataFrame:
        """A row per run × station: goodput (Mbit/s), airtime share and seconds, bytes
        and packets received, A-MPDU sizes, MPDU failures, collisions, delays (ms), ping
        p50/p90/p99 (ms, lost pings counted: ``inf`` when the percentile falls among
        them), pings sent and the fraction lost, drops in all; ``rate_control``
        (``fixed`` or ``minstrel_ht``) and per direction the mean SNR (``snr_down_db``,
        ``snr_up_db``; NaN without a channel model) and the most used rate with its share
        of the MPDUs (``top_rate_down``, ``top_rate_down_share``, ``top_rate_up``,
        ``top_rate_up_share``), and the MPDUs sent behind RTS/CTS (``rts_mpdus_down``,
        ``rts_mpdus_up``; NaN for a fixed-rate station without a channel model)."""
        return self.table("stations")

    @property
    def drops(self) -> pd.DataFrame:
        """A row per run × station × drop cause: ``packets``."""
        return self.table("drops")

    @property
    def flows(self) -> pd.DataFrame:
        """A row per run × flow (``flow`` numbers them in the scenario's order; station,
        test, direction, dscp): goodput, ping figures, TCP counters, VoIP quality, web
        page loads."""
        return self.table("flows")

    @property
    def series(self) -> pd.DataFrame:
        """A row per run × sample × station: ``t_s``, cumulative ``rx_bytes`` and
        ``airtime_s`` (``airtime_up_s`` of it uplink), and over the step ending at
        ``t_s``: ``rx_mbps`` and ``airtime_fraction``."""
        return self.table("series")

    @property
    def flow_series(self) -> pd.DataFrame:
        """A row per run × sample × flow: cumulative ``rx_bytes``, ``goodput_mbps`` over
        the step, the TCP sender's ``tcp_cwnd`` (segments) and ``tcp_rtt_ms``."""
        return self.table("flow_series")

    @property
    def ap_series(self) -> pd.DataFrame:
        """A row per run × sample: the AP's ``queued_packets``, ``driver_frames`` and
        ``driver_airtime_ms``."""
        return self.table("ap_series")

    @property
    def pings(self) -> pd.DataFrame:
        """A row per run × ping reply: the flow, ``t_s`` (arrival) and ``rtt_ms``. Lost
        pings have no row; ``pings_sent`` in :attr:`stations` and :attr:`flows`
        counts them."""
        return self.table("pings")

    @property
    def warnings(self) -> List[str]:
        """What ``airq`` would warn about: AP stalls, starved stations, runs that
        delivered nothing."""
        return list(self._native.warnings())


class Run(_Tables):
    """One run's results: its metadata and tidy tables (one run's rows)."""

    @property
    def metadata(self) -> Dict[str, Any]:
        """What was run, how and when: scenario and its text, overrides, seed,
        ``config`` (the preset), ``variant`` and its changes, the AP as run
        (``ap_config``), duration, warm-up, the call that made it, wall time."""
        return json.loads(self._native.metadata_json(0))

    @property
    def file_name(self) -> str:
        """The name ``airq`` gives its results file."""
        return self._native.file_name(0)

    def to_json(self) -> str:
        """The results file's JSON."""
        return self._native.to_json(0)

    def save(self, path: Union[str, "os.PathLike[str]"]) -> str:
        """Writes the results file at ``path`` (a folder: under :attr:`file_name` in it),
        gzip-compressed JSON as ``airq`` writes; returns the path written."""
        p = os.fspath(path)
        if os.path.isdir(p):
            p = os.path.join(p, self.file_name)
        self._native.save(0, p)
        return p

    def __repr__(self) -> str:
        m = self.metadata
        return f"<airq.Run {m['scenario']} {m['variant']} seed {m['seed']}>"


class Results(_Tables):
    """The runs of one call, in order (seed by seed, each seed's variants in the order
    asked for; a sweep's points first). Its tables hold every run's rows, told apart
    by ``scenario``, ``variant``, ``preset`` and ``seed``; ``results[i]`` is one
    :class:`Run`."""

    def __len__(self) -> int:
        return len(self._native)

    def __getitem__(self, i: int) -> Run:
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"run {i} of {n}")
        return Run(self._native.take([i % n]))

    def __iter__(self) -> Iterator[Run]:
        return (self[i] for i in range(len(self)))

    @property
    def runs(self) -> List[Run]:
        """Every run."""
        return list(self)

    @property
    def metadata(self) -> List[Dict[str, Any]]:
        """Every run's metadata (see :attr:`Run.metadata`)."""
        return [json.loads(self._native.metadata_json(i)) for i in range(len(self))]

    def save(self, path: Union[str, "os.PathLike[str]"]) -> List[str]:
        """Writes every run's results file into the folder ``path`` (made if absent)
        under the names ``airq`` gives them; returns the paths. A path ending in
        ``.json.gz`` writes the one run of a single-run result there."""
        p = os.fspath(path)
        if p.endswith(".json.gz"):
            if len(self) != 1:
                raise AirqError(f"{p}: {len(self)} runs go to a folder, not one file")
            return [self[0].save(p)]
        os.makedirs(p, exist_ok=True)
        return [run.save(p) for run in self]

    def __repr__(self) -> str:
        variants = sorted({m["variant"] for m in self.metadata})
        return f"<airq.Results {len(self)} runs of {', '.join(variants)}>"


def _toml_value(key: str, value: Any) -> str:
    """``value`` as the TOML literal ``--set`` takes."""
    return _airq.override_of(key, value).split("=", 1)[1]


def _overrides(overrides: Overrides) -> List[str]:
    """``key=value`` strings of a dict (Python values) or a list (TOML values)."""
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        return [_airq.override_of(str(k), v) for k, v in overrides.items()]
    if isinstance(overrides, str):
        raise TypeError("overrides: a dict or a list of 'key=value' strings, not a string")
    return [str(o) for o in overrides]


def _run_overrides(
    overrides: Overrides, seed: Optional[int], duration: Optional[float], omit: Optional[float]
) -> List[str]:
    """The overrides of a call, then its seed, duration and warm-up (as ``airq``'s
    ``--seed``, ``--duration``, ``--omit`` add them)."""
    sets = _overrides(overrides)
    if seed is not None:
        sets.append(f"seed={int(seed)}")
    if duration is not None:
        sets.append(f"duration={float(duration)!r}")
    if omit is not None:
        sets.append(f"omit={float(omit)!r}")
    return sets


def _names(names: Optional[Sequence[str]]) -> Optional[List[str]]:
    if names is None:
        return None
    if isinstance(names, str):
        return [names]
    return list(names)


def _call(function: str, scenario: "Scenario", **kwargs: Any) -> str:
    """The call as the results' ``command_line`` records it."""
    args = [repr(scenario.file)] + [f"{k}={v!r}" for k, v in kwargs.items() if v is not None]
    return f"airq.{function}({', '.join(args)})"
