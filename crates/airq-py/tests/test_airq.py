"""The airq package against the CLI's code: the flagship run briefly, a comparison, a
sweep's tidy table, results files round trip, errors, determinism."""

import itertools
import os
import sys

import pandas as pd
import pytest

import airq

FLAGSHIP = "ending-the-anomaly"
BRIEF = dict(duration=4, omit=0, seeds=1)
STATIONS = ["fast1", "fast2", "slow"]
RUN_KEY = ["scenario", "variant", "preset", "seed", "overrides"]


@pytest.fixture(scope="module")
def compared():
    return airq.compare(FLAGSHIP, configs=["fifo", "airtime"], **BRIEF)


def test_the_flagship_runs_briefly_under_its_preset():
    res = airq.run(FLAGSHIP, **BRIEF)
    assert len(res) == 1
    m = res[0].metadata
    assert (m["scenario"], m["variant"], m["config"], m["seed"]) == (
        FLAGSHIP, "airtime", "airtime", 1)
    assert m["duration_s"] == 4.0 and m["omit_s"] == 0.0
    # As `airq run --duration 4 --omit 0 --seeds 1` records them.
    assert m["overrides"] == ["duration=4.0", "omit=0.0", "seed=1"]
    st = res.stations
    assert list(st.columns[:6]) == RUN_KEY + ["station"]
    assert (st.overrides == "duration=4.0 omit=0.0").all()
    assert list(st.station) == STATIONS
    assert (st.goodput_mbps > 0).all()
    assert st.airtime_share.sum() == pytest.approx(1.0, abs=1e-6)
    # Series: every station at every sample, over the run.
    se = res.series
    assert len(se) % 3 == 0 and se.t_s.max() == pytest.approx(4.0)
    assert set(res.flows.test) == {"tcp_download", "ping"}
    # No station pings another: every flow's and reply's `to` is empty.
    assert (res.flows.to == "").all()
    pings = res.pings
    assert set(pings.station) == set(STATIONS) and (pings.rtt_ms > 0).all()
    assert (pings.to == "").all()
    assert set(res.flow_series.columns) >= {"t_s", "flow", "tcp_cwnd", "tcp_rtt_ms"}
    assert len(res.ap_series) == len(se) // 3
    assert res.warnings == []


def test_minstrel_hts_fallback_stages_are_counted_behind_rts():
    # At 100 dB Minstrel-HT falls back often, and every fallback stage goes behind
    # RTS/CTS; a fixed-rate station without a channel keeps no radio summary.
    res = airq.run("rate-vs-range", duration=6, omit=1, seeds=1,
                   overrides={"station.0.attenuation_db": 100})
    st = res.stations
    assert (st.rate_control == "minstrel_ht").all()
    assert (st.rts_mpdus_down > 0).all() and (st.rts_mpdus_up > 0).all()
    flagship = airq.run(FLAGSHIP, **BRIEF).stations
    assert flagship.rts_mpdus_down.isna().all()


def test_compare_two_presets(compared):
    assert [m["variant"] for m in compared.metadata] == ["fifo", "airtime"]
    share = compared.stations.pivot(index="station", columns="variant", values="airtime_share")
    assert list(share.index) == STATIONS
    # Airtime fairness: equal shares under airtime, the slow station's largest under fifo.
    assert share["airtime"].max() - share["airtime"].min() < 0.05
    assert share["fifo"]["slow"] > share["airtime"]["slow"]
    total = compared.stations.groupby("variant", sort=False).goodput_mbps.sum()
    assert total["airtime"] > total["fifo"]


def test_a_sweep_gives_the_clis_tidy_table():
    df = airq.sweep(FLAGSHIP, params={"ap.fq_mac.target_ms": [5, 20]},
                    configs=["fq_mac", "airtime"], seeds=2, duration=4, omit=0)
    assert list(df.columns) == ["scenario", "variant", "preset", "ap.fq_mac.target_ms",
                                "seed", "duration_s", "station", "metric", "value"]
    runs = df[["ap.fq_mac.target_ms", "variant", "seed"]].drop_duplicates()
    # Points first, then seed by seed, each seed's variants in order.
    assert [tuple(r) for r in runs.itertuples(index=False)] == [
        (t, v, s) for t, s, v in itertools.product([5, 20], [1, 2], ["fq_mac", "airtime"])]
    # Per run: 3 BSS figures and 8 per station (goodput, airtime share, drops, mean
    # delay, ping p50/p90/p99, ping loss).
    per_run = 3 + 8 * len(STATIONS)
    assert len(df) == 8 * per_run
    assert (df.groupby(["ap.fq_mac.target_ms", "variant", "seed"]).size() == per_run).all()
    bss = df[df.station == "*"]
    assert set(bss.metric) == {"total_goodput_mbps", "airtime_jain", "worst_ping_p99_ms"}
    assert (df.scenario == FLAGSHIP).all() and (df.duration_s == 4.0).all()


def test_a_sweep_over_a_station_key_labels_its_runs_rows():
    # Both points have the variant and seed; their rows in the runs' frames say which
    # point each is.
    _, res = airq.sweep(FLAGSHIP, {"station.slow.mcs": [0, 3]}, ["airtime"],
                        return_results=True, **BRIEF)
    st = res.stations
    assert st.groupby("overrides").size().to_dict() == {
        "duration=4.0 omit=0.0 station.slow.mcs=0": 3,
        "duration=4.0 omit=0.0 station.slow.mcs=3": 3,
    }


def test_a_sweeps_values_are_its_runs_figures_exactly():
    df, res = airq.sweep(FLAGSHIP, {"ap.fq_mac.target_ms": [5]}, ["fq_mac"],
                         return_results=True, **BRIEF)
    goodput = df[df.metric == "goodput_mbps"].value.tolist()
    assert goodput == res.stations.goodput_mbps.tolist()


def test_results_files_round_trip(compared, tmp_path):
    paths = compared.save(tmp_path)
    assert [os.path.basename(p) for p in paths] == [
        "ending-the-anomaly-fifo+omit=0.0-seed1.json.gz",
        "ending-the-anomaly-airtime+omit=0.0-seed1.json.gz"]
    back = airq.load(paths[1])
    assert back.to_json() == compared[1].to_json()
    pd.testing.assert_frame_equal(back.stations, compared[1].stations)
    folder = airq.load(tmp_path)  # by name: airtime before fifo
    assert [m["variant"] for m in folder.metadata] == ["airtime", "fifo"]
    one = tmp_path / "one.json.gz"
    compared[0].save(one)
    pd.testing.assert_frame_equal(airq.load(one).series, compared[0].series)


def test_scenarios_and_runs_pickle_to_the_same_values(compared):
    # How the Ray backend sends them to its tasks and back.
    import pickle

    sc = airq.load_scenario(FLAGSHIP, overrides={"duration": 3.0, "omit": 1.0})
    back = pickle.loads(pickle.dumps(sc))
    assert (back.file, back.source_text, back.overrides, back.text) == (
        sc.file, sc.source_text, sc.overrides, sc.text)
    runs = pickle.loads(pickle.dumps(compared._native))
    assert [runs.to_json(i) for i in range(len(runs))] == [r.to_json() for r in compared]


def test_a_bad_key_is_an_airq_error_naming_file_line_and_key(tmp_path):
    text = airq.load_scenario(FLAGSHIP).source_text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("[wired]\n", "[wired]\nspeed_mbps = 1000\n"))
    with pytest.raises(airq.AirqError) as e:
        airq.load_scenario(bad)
    message = str(e.value)
    assert str(bad) in message and "speed_mbps" in message
    line = text.split("\n").index("[wired]") + 2
    assert f":{line}" in message, message
    with pytest.raises(airq.AirqError, match="nope"):
        airq.run(FLAGSHIP, overrides={"ap.fq_mac.nope": 1}, **BRIEF)
    with pytest.raises(airq.AirqError, match="no variant `nonsense`"):
        airq.run(FLAGSHIP, variant="nonsense", **BRIEF)
    with pytest.raises(airq.AirqError, match="no such file|cannot read"):
        airq.load_scenario(tmp_path / "missing.toml")
    # A setting no run uses, and a sweep over one some runs ignore, change nothing.
    with pytest.raises(airq.AirqError, match="no fq_codel qdisc"):
        airq.run(FLAGSHIP, overrides={"ap.fq_codel.target_ms": 1}, **BRIEF)
    with pytest.raises(airq.AirqError, match=r"fifo \(mac legacy: no FQ-MAC\) ignores"):
        airq.sweep(FLAGSHIP, {"ap.fq_mac.target_ms": [5, 20]}, ["fifo", "airtime"], **BRIEF)


def test_the_same_inputs_give_the_same_frames(compared):
    again = airq.compare(FLAGSHIP, configs=["fifo", "airtime"], jobs=1, **BRIEF)
    for table in ["stations", "drops", "flows", "series", "flow_series", "ap_series", "pings"]:
        pd.testing.assert_frame_equal(getattr(again, table), getattr(compared, table))
    a = airq.sweep(FLAGSHIP, {"ap.qdisc": ["fq_codel", "pfifo_fast"]}, ["fq_mac"], **BRIEF)
    b = airq.sweep(FLAGSHIP, {"ap.qdisc": ["fq_codel", "pfifo_fast"]}, ["fq_mac"], jobs=1,
                   **BRIEF)
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib is Python 3.11's")
def test_a_scenario_from_a_dict_runs_as_its_file():
    import tomllib

    sc = airq.load_scenario(FLAGSHIP)
    table = tomllib.loads(sc.source_text)
    from_dict = airq.load_scenario(table, overrides={"duration": 2.0, "omit": 0.0})
    assert from_dict.file == "<dict>" and from_dict.stations == STATIONS
    a = airq.run(from_dict, "fq_mac:ap.fq_mac.target_ms=10", seeds=1)
    b = airq.run(sc, "fq_mac:ap.fq_mac.target_ms=10", seeds=1, overrides=["duration=2.0", "omit=0.0"])
    pd.testing.assert_frame_equal(a.stations, b.stations)
    assert a[0].metadata["variant_set"] == ["ap.fq_mac.target_ms=10"]
    table["wired"]["speed_mbps"] = 1
    with pytest.raises(airq.AirqError, match="<dict>.*speed_mbps"):
        airq.load_scenario(table)
