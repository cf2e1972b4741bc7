"""airq.sweep on Ray: a 16-point sweep made by Ray tasks, on a Ray cluster started for
the test (``ray start --head``, joined by its address) and on a local Ray started by
``ray.init``, gives the local backend's tidy table byte for byte and the same runs.

Skipped, saying why, when the ray package is absent, unless AIRQ_REQUIRE_PY_EXTRAS is set
(CI sets it: there a missing ray fails).
"""

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest

import airq

# Ray's token authentication, on as `ray start --head` turns it on, with a token of the
# test's own (not ~/.ray/auth_token, which a fresh machine lacks and `ray start` then
# refuses). Said before ray is imported, as a user's shell would: a driver joining a
# cluster by address reads RAY_AUTH_MODE only then (ray 2.60.0).
os.environ.setdefault("RAY_AUTH_MODE", "token")
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))

if not os.environ.get("AIRQ_REQUIRE_PY_EXTRAS"):
    ray = pytest.importorskip(
        "ray", reason="the ray package is absent (pip install 'ray==2.60.0'); "
        "Ray backend tests skipped")
else:
    import ray

FLAGSHIP = "ending-the-anomaly"
# 4 x 4 = 16 points, each of 2 variants x 1 seed: 32 runs of 2 simulated seconds.
PARAMS = {"ap.fq_mac.target_ms": [2, 5, 10, 20], "ap.fq_mac.quantum_bytes": [300, 600, 1514, 3000]}
SWEEP = dict(configs=["fq_mac", "airtime"], seeds=1, duration=2, omit=0)
KEY = ["ap.fq_mac.target_ms", "ap.fq_mac.quantum_bytes", "variant", "seed", "station", "metric"]


@pytest.fixture(scope="module")
def local():
    return airq.sweep(FLAGSHIP, PARAMS, return_results=True, **SWEEP)


def _sorted_csv(frame):
    return frame.sort_values(KEY, kind="stable").to_csv(index=False)


def _same_sweep(local, by_ray):
    (lf, lr), (rf, rr) = local, by_ray
    # 16 points x 2 variants; 3 BSS figures and 8 per station of 3 (goodput, airtime
    # share, drops, mean delay, ping p50/p90/p99, ping loss).
    assert len(lf) == 16 * 2 * (3 + 8 * 3)
    # In the grid's order already; sorted too, as the figures do not depend on it.
    assert rf.to_csv(index=False) == lf.to_csv(index=False)
    assert _sorted_csv(rf) == _sorted_csv(lf)
    # The runs themselves, every figure of them; only the wall time and the call differ.
    assert len(rr) == len(lr) == 32
    for a, b in zip(lr, rr):
        ma, mb = a.metadata, b.metadata
        assert (ma["variant"], ma["seed"], ma["overrides"]) == (mb["variant"], mb["seed"], mb["overrides"])
        assert "backend='ray'" in mb["command_line"][0]
        for table in ("stations", "flows", "series", "pings"):
            assert getattr(a, table).equals(getattr(b, table)), table


def _listening(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_sweep_on_a_ray_cluster_by_address_is_the_local_sweep(local):
    port = _free_port()
    ray_cli = os.path.join(os.path.dirname(sys.executable), "ray")
    # Ray's sockets live under its temp dir: a short path (at most 107 bytes each).
    temp = tempfile.mkdtemp(prefix="airq-ray-")
    # --block: the head's processes live as long as this one, which the test ends.
    head = subprocess.Popen(
        [ray_cli, "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
         "--node-ip-address=127.0.0.1", "--include-dashboard=false",
         "--disable-usage-stats", f"--temp-dir={temp}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while not _listening(port):
            if head.poll() is not None:
                pytest.fail(f"ray start --head failed:\n{head.stdout.read()}")
            assert time.monotonic() < deadline, "ray start --head: not up after 60 s"
            time.sleep(0.5)
        by_ray = airq.sweep(FLAGSHIP, PARAMS, backend="ray", address=f"127.0.0.1:{port}",
                            return_results=True, **SWEEP)
        assert ray.cluster_resources().get("CPU") == 2
        _same_sweep(local, by_ray)
    finally:
        ray.shutdown()
        head.terminate()
        head.wait(timeout=60)
        shutil.rmtree(temp, ignore_errors=True)


def test_a_sweep_on_a_local_ray_is_the_local_sweep(local):
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")
    try:
        by_ray = airq.sweep(FLAGSHIP, PARAMS, backend="ray", return_results=True, **SWEEP)
        _same_sweep(local, by_ray)
        # Connected already: the next sweep uses this Ray.
        again = airq.sweep(FLAGSHIP, {"ap.fq_mac.target_ms": [5]}, backend="ray", **SWEEP)
        assert again.to_csv(index=False) == airq.sweep(
            FLAGSHIP, {"ap.fq_mac.target_ms": [5]}, **SWEEP).to_csv(index=False)
    finally:
        ray.shutdown()


def test_bad_backends_and_points_are_errors_before_any_task():
    with pytest.raises(ValueError, match="'local' or 'ray'"):
        airq.sweep(FLAGSHIP, PARAMS, backend="dask", **SWEEP)
    with pytest.raises(ValueError, match="for backend='ray'"):
        airq.sweep(FLAGSHIP, PARAMS, address="auto", **SWEEP)
    # Checked by the driver, Ray not even started.
    with pytest.raises(airq.AirqError, match="unknown field `quantum`"):
        airq.sweep(FLAGSHIP, {"ap.fq_mac.quantum": [300]}, backend="ray", **SWEEP)
    assert not ray.is_initialized()
