"""Sweep points per second on the local backend and on a local Ray, and Ray's overhead
per point: python crates/airq-py/examples/ray_speed.py [POINTS] [DURATION_S] [CPUS]

A sweep of POINTS points (ap.fq_mac.quantum_bytes from 300 up) of the flagship scenario,
variant fq_mac, one seed, DURATION_S simulated seconds each, made by airq.sweep on CPUS
threads (backend "local") and by Ray tasks on a local Ray of CPUS CPUs (backend "ray",
started before the clock starts; a first small sweep warms its workers up). Prints
each backend's wall time, points per second, and Ray's extra wall time per point. The
two tables are checked equal.
"""

import sys
import time

import ray

import airq

points = int(sys.argv[1]) if len(sys.argv) > 1 else 64
duration = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
cpus = int(sys.argv[3]) if len(sys.argv) > 3 else 2

params = {"ap.fq_mac.quantum_bytes": list(range(300, 300 + points))}
kw = dict(configs=["fq_mac"], seeds=1, duration=duration, omit=0)


def timed(**extra):
    t = time.perf_counter()
    frame = airq.sweep("ending-the-anomaly", params, **kw, **extra)
    return frame, time.perf_counter() - t


t = time.perf_counter()
ray.init(num_cpus=cpus, include_dashboard=False, _node_ip_address="127.0.0.1",
         log_to_driver=False)
start = time.perf_counter() - t
airq.sweep("ending-the-anomaly", {"ap.fq_mac.target_ms": list(range(1, 2 * cpus + 1))},
           backend="ray", **kw)
local, local_s = timed(jobs=cpus)
by_ray, ray_s = timed(backend="ray")
assert by_ray.to_csv(index=False) == local.to_csv(index=False)
print(f"{points} points of {duration:g} simulated s on {cpus} CPUs (Ray started in {start:.1f} s)")
print(f"local: {local_s:.2f} s, {points / local_s:.1f} points/s")
print(f"ray:   {ray_s:.2f} s, {points / ray_s:.1f} points/s")
print(f"ray's overhead: {(ray_s - local_s) / points * 1000:.1f} ms per point")
ray.shutdown()
