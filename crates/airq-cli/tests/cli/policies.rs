//! Airtime policies written in the scenario reach the AP's scheduler: a station's
//! `weight` and `[[ap.group]]` weights divide the airtime in their ratio (seed netdev 2.2
//! §4.2) under the airtime scheduler.
//!
//! Then the seed's policies through every driver (`softmac`, push-pull `firmware`,
//! `firmware_push`) and every scheduling mode (round robin = `fq_mac`, airtime per AC,
//! airtime station-first, each airtime mode without and with AQL): saturated UDP down to
//! HT20 stations of MCS 7 and MCS 0, 4 simulated seconds a run. Where the host's
//! scheduler decides, the shares are within 2 percentage points of the configured ones;
//! round robin ignores policies; the push firmware's own round robin decides whatever the
//! host wants, so its shares are asserted in direction only. In every run every
//! saturated station gets traffic through and the AP never stalls.
//!
//! Measured, seed 3 (`cargo test --release -p airq-cli --test cli policies --
//! --nocapture` prints them). Weights 2:1:1 → heavy/fast/slow 50/25/25 %; groups 1:1 →
//! lone/fast1/fast2/slow 50/16.7/16.7/16.7 %; limit idle → the guest's goodput under
//! `limit`/`share`, Mbit/s, and its share of the wall clock under `limit` (50 %); limit
//! busy → guest/home 50/50 %.
//!
//! |driver  |mode        |weights       |groups             |limit idle      |busy     |nested             |
//! |--------|------------|--------------|-------------------|----------------|---------|-------------------|
//! |softmac |round robin |33.4/33.4/33.3|25.0/25.0/25.0/24.9|58.2/58.2 96.4% |50.0/50.0|25.0/25.0/25.0/24.9|
//! |        |airtime     |49.9/24.9/25.1|50.1/16.6/16.7/16.7|30.3/58.4 50.2% |50.1/49.9|50.1/24.9/12.5/12.6|
//! |        |st-first    |49.9/24.9/25.1|50.1/16.6/16.7/16.7|30.3/58.2 50.2% |50.1/49.9|50.1/25.0/12.4/12.6|
//! |        |airtime+AQL |49.9/25.0/25.0|50.1/16.7/16.7/16.6|30.2/58.0 50.3% |50.1/49.9|50.1/24.9/12.5/12.6|
//! |        |st-first+AQL|49.9/25.0/25.0|50.1/16.7/16.7/16.6|30.2/58.4 50.3% |50.1/49.9|50.1/24.9/12.5/12.6|
//! |firmware|round robin |29.9/29.9/40.3|23.0/23.0/23.0/30.9|58.4/58.4 96.5% |42.6/57.4|25.1/25.0/25.0/25.0|
//! |        |airtime     |50.1/25.0/24.9|50.0/16.6/16.6/16.8|30.3/58.3 50.3% |49.9/50.1|50.1/24.8/12.6/12.4|
//! |        |st-first    |50.1/25.0/24.9|50.0/16.6/16.6/16.8|30.3/58.3 50.3% |49.9/50.1|50.1/24.8/12.6/12.4|
//! |        |airtime+AQL |49.9/25.0/25.1|50.1/16.6/16.7/16.6|30.3/58.3 50.3% |49.9/50.1|49.9/25.0/12.5/12.6|
//! |        |st-first+AQL|49.9/25.0/25.1|50.1/16.6/16.7/16.6|30.3/58.3 50.3% |49.9/50.1|49.9/25.0/12.5/12.6|
//! |fw_push |round robin |46.1/7.9/46.0 |13.3/9.7/11.5/65.5 |58.3/58.3 96.4% |50.1/49.9|25.0/25.0/25.0/24.9|
//! |        |airtime     |39.7/20.6/39.6|37.1/14.1/13.9/34.9|58.3/58.3 96.4% |44.8/55.2|46.7/24.4/14.3/14.5|
//! |        |st-first    |39.7/20.6/39.6|37.1/14.1/13.9/34.9|58.3/58.3 96.4% |44.8/55.2|46.7/24.4/14.3/14.5|
//! |        |airtime+AQL |43.1/28.4/28.5|35.2/21.6/21.6/21.7|30.3/58.3 50.2% |50.0/50.0|33.4/33.3/16.7/16.6|
//! |        |st-first+AQL|43.1/28.4/28.5|35.2/21.6/21.6/21.7|30.3/58.3 50.2% |50.0/50.0|33.4/33.3/16.7/16.6|
//!
//! Station-first equals per-AC airtime here: every flood is best effort, one AC.
//!
//! Nested groups (`parent = "<group>"` in `[[ap.group]]`) are tested too: shares
//! multiply down the tree.

use super::{run_json, write, SMALL};
use airq_cli::results;

/// Airtime shares of (fast, slow) of `text` run for 2 s under `airtime`.
fn shares(text: &str) -> (f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "policy.toml", text);
    let s = run_json(
        dir.path(),
        "s.json",
        &path,
        &["--config", "airtime", "--duration", "2"],
    );
    let share = |i: usize| {
        s["runs"][0]["stations"][i]["airtime_share"]
            .as_f64()
            .unwrap()
    };
    (share(0), share(1))
}

#[test]
fn equal_weights_give_equal_airtime() {
    let (fast, slow) = shares(SMALL);
    assert!(
        (fast - 0.5).abs() < 0.03 && (slow - 0.5).abs() < 0.03,
        "{fast} {slow}"
    );
}

#[test]
fn a_station_weight_divides_the_airtime() {
    let (fast, slow) = shares(&SMALL.replace("mcs = 0", "mcs = 0\nweight = 512"));
    assert!(
        (slow / fast - 2.0).abs() < 0.2,
        "fast {fast:.3} slow {slow:.3}"
    );
}

#[test]
fn a_group_weight_divides_the_airtime() {
    let text = SMALL.replace("mcs = 7", "mcs = 7\ngroup = \"office\"")
        + "\n[[ap.group]]\nname = \"office\"\nweight = 768\n";
    let (fast, slow) = shares(&text);
    assert!(
        (fast / slow - 3.0).abs() < 0.3,
        "fast {fast:.3} slow {slow:.3}"
    );
}

// ---- Every driver × every scheduling mode × the seed's policies ----

/// A scheduling mode as a user picks it: a preset, and station-first QoS or not.
#[derive(Clone, Copy, Debug)]
struct Mode {
    name: &'static str,
    preset: &'static str,
    station_first: bool,
}

/// Round robin (`fq_mac`), then the airtime scheduler per AC and station-first, each
/// without and with AQL.
const MODES: [Mode; 5] = [
    Mode {
        name: "round robin",
        preset: "fq_mac",
        station_first: false,
    },
    Mode {
        name: "airtime",
        preset: "airtime",
        station_first: false,
    },
    Mode {
        name: "station-first",
        preset: "airtime",
        station_first: true,
    },
    Mode {
        name: "airtime+AQL",
        preset: "airtime_aql",
        station_first: false,
    },
    Mode {
        name: "station-first+AQL",
        preset: "airtime_aql",
        station_first: true,
    },
];

/// Simulated seconds per run: where the host decides, the shares are within 0.3 points
/// of their 5 s values.
const SECONDS: f64 = 4.0;

/// No saturated station may get less than this share of the airtime, percent: the
/// smallest configured share below is 16.7 %, the smallest measured in a sound run
/// 13.9 % (the push firmware's groups).
const STARVED_PCT: f64 = 5.0;

/// What decides the airtime in a driver × mode.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Decides {
    /// The host's airtime scheduler: the configured shares hold, within `tol_pts`
    /// percentage points.
    Host { tol_pts: f64 },
    /// Round robin: weights, groups and limits are ignored.
    RoundRobin,
    /// The push firmware's own round robin of one PPDU per station-TID over its deep
    /// queue: the host's shares are not honoured.
    PushFirmware,
}

/// What decides the airtime under `driver` in `mode`.
fn decides(driver: &str, mode: Mode) -> Decides {
    match (driver, mode.preset) {
        ("firmware_push", _) => Decides::PushFirmware,
        (_, "fq_mac") => Decides::RoundRobin,
        _ => Decides::Host { tol_pts: 2.0 },
    }
}

/// One run's figures, per station in scenario order.
struct Run {
    /// Share of the airtime all stations used, percent.
    share_pct: Vec<f64>,
    goodput_mbps: Vec<f64>,
    /// Downlink airtime over the simulated time, percent.
    wall_pct: Vec<f64>,
}

/// `text` (scenario `policy`, seed 3) run as a user would under `driver` and `mode`,
/// or why the run is wrong whatever its policy: a stall, or a station of `saturated`
/// starved.
fn run(text: &str, driver: &str, mode: Mode, saturated: &[usize]) -> Result<Run, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "policy.toml", text);
    let seconds = SECONDS.to_string();
    let driver_set = format!("ap.driver={driver}");
    let mut args = vec![
        "--config",
        mode.preset,
        "--duration",
        &seconds,
        "--set",
        &driver_set,
    ];
    if mode.station_first {
        args.extend(["--set", "ap.airtime.station_first=true"]);
    }
    let summary = run_json(dir.path(), "s.json", &path, &args);
    let file = dir.path().join(format!(
        "policy-{}+driver={driver}{}-seed3.json.gz",
        mode.preset,
        if mode.station_first {
            "+airtime.station_first=true"
        } else {
            ""
        }
    ));
    let r = results::load(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let run = Run {
        share_pct: r.stations.iter().map(|s| s.airtime_share * 100.0).collect(),
        goodput_mbps: r.stations.iter().map(|s| s.goodput_mbps).collect(),
        wall_pct: r
            .stations
            .iter()
            .map(|s| s.airtime_down_s / r.metadata.duration_s * 100.0)
            .collect(),
    };
    // The summary counts the run's stalls; the results file lists them.
    let stalls = &summary["runs"][0]["stalls"];
    let summary_clean = match stalls {
        serde_json::Value::Number(n) => n.as_u64() == Some(0),
        serde_json::Value::Array(a) => a.is_empty(),
        _ => false,
    };
    if !summary_clean || !r.stalls.is_empty() {
        return Err(format!("stalled: summary {stalls}, {:?}", r.stalls));
    }
    for &i in saturated {
        if !(run.goodput_mbps[i] > 0.0 && run.share_pct[i] >= STARVED_PCT) {
            return Err(format!(
                "{} starved: {:.3} Mbit/s; shares {} %",
                r.stations[i].name,
                run.goodput_mbps[i],
                percents(&run.share_pct)
            ));
        }
    }
    Ok(run)
}

/// `[[station]]` `name`, HT20 at `mcs`, with `extra` keys.
fn station(name: &str, mcs: u8, extra: &str) -> String {
    format!(
        "\n[[station]]\nname = \"{name}\"\nstandard = \"ht\"\nmcs = {mcs}\nwidth = 20\n{extra}\n"
    )
}

const HEAD: &str = "name = \"policy\"\nseed = 3\n";
const FLOOD: &str = "\n[[traffic]]\ntest = \"udp_flood\"\n";

/// Whether every share is within `tol` points of `want`.
fn within(share_pct: &[f64], want: &[f64], tol: f64) -> bool {
    share_pct
        .iter()
        .zip(want)
        .all(|(s, w)| (s - w).abs() <= tol)
}

/// `50.0/25.0/25.0`.
fn percents(share_pct: &[f64]) -> String {
    let each: Vec<String> = share_pct.iter().map(|s| format!("{s:.1}")).collect();
    each.join("/")
}

/// Runs `check` under every mode of `driver` and prints what each measured (shown on
/// failure, or with `--nocapture`); fails naming every mode that went wrong.
fn every_mode(policy: &str, driver: &str, check: impl Fn(Mode, Decides) -> (bool, String)) {
    let mut failed = Vec::new();
    for mode in MODES {
        let decides = decides(driver, mode);
        let (ok, figures) = check(mode, decides);
        let line = format!(
            "{driver} / {}: {}{figures} ({decides:?})",
            mode.name,
            if ok { "" } else { "FAILED " }
        );
        println!("{policy}: {line}");
        if !ok {
            failed.push(line);
        }
    }
    assert!(failed.is_empty(), "{policy}:\n  {}", failed.join("\n  "));
}

/// Weights 2:1:1 → 50/25/25 %: `heavy` (MCS 7, weight 512), `fast` (MCS 7), `slow`
/// (MCS 0).
///
/// Round robin gives equal airtime here, one aggregate of about 4 ms a turn. The push
/// firmware gives the slow station more than its 25 % and the weighted one less than
/// its 50 %; under round robin its two round robins in lock-step give two stations of
/// one rate 46.1 % and 7.9 % (documented in the README as push mode's limit).
fn weights(driver: &str) {
    let text = HEAD.to_string()
        + &station("heavy", 7, "weight = 512")
        + &station("fast", 7, "")
        + &station("slow", 0, "")
        + FLOOD;
    every_mode("weights 2:1:1", driver, |mode, decides| {
        let r = match run(&text, driver, mode, &[0, 1, 2]) {
            Ok(r) => r,
            Err(why) => return (false, why),
        };
        let s = &r.share_pct;
        let ok = match decides {
            Decides::Host { tol_pts } => within(s, &[50.0, 25.0, 25.0], tol_pts),
            // The weight is ignored: the two MCS 7 stations get the same airtime.
            Decides::RoundRobin => (s[0] - s[1]).abs() <= 3.0 && s[0] < 40.0,
            Decides::PushFirmware => s[0] <= 47.0 && s[2] >= 27.0,
        };
        (ok, format!("{} %", percents(s)))
    });
}

/// Groups 1:1 → 50/16.7/16.7/16.7 %: `lone` (MCS 7) alone in `solo`; `fast1`, `fast2`
/// (MCS 7) and `slow` (MCS 0) in `crowd`.
///
/// Fixed defects this test found: round robin with groups configured starved `lone`
/// (0.1 %; groups now reach the airtime scheduler only); the pull firmware, answering
/// fetches with `may_transmit`, ignored groups (25 % each); the push firmware with
/// station-first and AQL starved `fast1` and `slow` (0.1 and 0.4 %: rounds whose BE
/// the PHY gate refused refilled the station just served).
fn groups(driver: &str) {
    let text = HEAD.to_string()
        + &station("lone", 7, "group = \"solo\"")
        + &station("fast", 7, "count = 2\ngroup = \"crowd\"")
        + &station("slow", 0, "group = \"crowd\"")
        + "\n[[ap.group]]\nname = \"solo\"\n\n[[ap.group]]\nname = \"crowd\"\n"
        + FLOOD;
    let sixth = 100.0 / 6.0;
    every_mode("groups 1:1 of 1 and 3 stations", driver, |mode, decides| {
        let r = match run(&text, driver, mode, &[0, 1, 2, 3]) {
            Ok(r) => r,
            Err(why) => return (false, why),
        };
        let s = &r.share_pct;
        let ok = match decides {
            Decides::Host { tol_pts } => within(s, &[50.0, sixth, sixth, sixth], tol_pts),
            // Groups are ignored: the three MCS 7 stations get the same airtime.
            Decides::RoundRobin => {
                let (lo, hi) = s[..3]
                    .iter()
                    .fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
                hi - lo <= 3.0
            }
            Decides::PushFirmware => s[0] <= 47.0 && s[3] >= sixth + 2.0,
        };
        (ok, format!("{} %", percents(s)))
    });
}

/// Nested groups: `home` (one station) and `guests` share the root 1:1; inside
/// `guests`, station `visitor` and the nested group `kids` (two stations) share 1:1 →
/// 50/25/12.5/12.5 %: shares multiply down the tree. All MCS 7. Round robin ignores
/// groups (25 % each); the push firmware does not follow them.
fn nested_groups(driver: &str) {
    let text = HEAD.to_string()
        + &station("host", 7, "group = \"home\"")
        + &station("visitor", 7, "group = \"guests\"")
        + &station("kid", 7, "count = 2\ngroup = \"kids\"")
        + "\n[[ap.group]]\nname = \"home\"\n\n[[ap.group]]\nname = \"guests\"\n\n\
           [[ap.group]]\nname = \"kids\"\nparent = \"guests\"\n"
        + FLOOD;
    every_mode("nested groups 1:(1:(1:1))", driver, |mode, decides| {
        let r = match run(&text, driver, mode, &[0, 1, 2, 3]) {
            Ok(r) => r,
            Err(why) => return (false, why),
        };
        let s = &r.share_pct;
        let ok = match decides {
            Decides::Host { tol_pts } => within(s, &[50.0, 25.0, 12.5, 12.5], tol_pts),
            Decides::RoundRobin => within(s, &[25.0, 25.0, 25.0, 25.0], 3.0),
            // Push mode serves every station (checked for every run) but not by policy:
            // 46.7/24.4/14.3/14.5 % without AQL, 33.4/33.3/16.7/16.6 % with.
            Decides::PushFirmware => true,
        };
        (ok, format!("{} %", percents(s)))
    });
}

/// Two groups of equal weight: `guest` (MCS 7, saturated) in group `guest` of mode
/// `guest_mode`, `home` (MCS 0) in group `home`, saturated too or only pinged.
fn limit_text(guest_mode: &str, home_busy: bool) -> String {
    let traffic = if home_busy {
        FLOOD
    } else {
        "\n[[traffic]]\ntest = \"udp_flood\"\nstations = [\"guest\"]\n\
         \n[[traffic]]\ntest = \"ping\"\nstations = [\"home\"]\n"
    };
    HEAD.to_string()
        + &station("guest", 7, "group = \"guest\"")
        + &station("home", 0, "group = \"home\"")
        + &format!("\n[[ap.group]]\nname = \"guest\"\nmode = \"{guest_mode}\"\n")
        + "\n[[ap.group]]\nname = \"home\"\n"
        + traffic
}

/// Whether a limit of 1/2 held: the guest got half the wall clock (within `tol_pts`)
/// under `limit`, filled the medium under `share`, and got half its goodput.
fn held(limit_wall_pct: f64, share_wall_pct: f64, ratio: f64, tol_pts: f64) -> bool {
    (limit_wall_pct - 50.0).abs() <= tol_pts
        && share_wall_pct >= 90.0
        && (ratio - 0.5).abs() <= 0.05
}

/// A `limit` group of nominal share 1/2 with the other group idle (a ping only): the
/// guest gets half the wall clock, and half the goodput it gets when its group is
/// `share` (work-conserving), which fills the medium. A limit is the host's: it holds
/// back what enters the firmware, so it holds on every driver under the airtime
/// scheduler; round robin ignores it.
///
/// The push firmware without AQL does not hold the limit (58.3 Mbit/s, 96 % of the wall
/// clock): airtime completed more than 100 ms after the guest's last dequeue is not
/// charged (mac80211's active window) and its deep queue outlasts that. Fixed defect
/// this test found: the pull firmware lost a sixth of a lone station's throughput to
/// `may_transmit` refusals.
fn limit_with_the_other_group_idle(driver: &str) {
    let limit = limit_text("limit", false);
    let share = limit_text("share", false);
    every_mode("a limit group, the other idle", driver, |mode, decides| {
        let (l, s) = match (
            run(&limit, driver, mode, &[0]),
            run(&share, driver, mode, &[0]),
        ) {
            (Ok(l), Ok(s)) => (l, s),
            (Err(why), _) | (_, Err(why)) => return (false, why),
        };
        let ratio = l.goodput_mbps[0] / s.goodput_mbps[0];
        let ok = match decides {
            Decides::RoundRobin => ratio >= 0.95,
            Decides::Host { tol_pts } => held(l.wall_pct[0], s.wall_pct[0], ratio, tol_pts),
            // With AQL the push firmware's queue is short enough for the limit to hold;
            // without, airtime completed more than 100 ms after the guest's last
            // dequeue is not charged (mac80211's active window) and its deep queue
            // outlasts that: the limit does not hold.
            Decides::PushFirmware if mode.preset == "airtime_aql" => {
                held(l.wall_pct[0], s.wall_pct[0], ratio, 2.0)
            }
            Decides::PushFirmware => ratio >= 0.95,
        };
        let figures = format!(
            "guest limit/share {:.1}/{:.1} Mbit/s = {ratio:.3}, {:.1}/{:.1} % of the wall clock",
            l.goodput_mbps[0], s.goodput_mbps[0], l.wall_pct[0], s.wall_pct[0]
        );
        (ok, figures)
    });
}

/// The same `limit` group with the other group busy: 50/50 airtime. Round robin gives
/// 50/50 here anyway; the push firmware without AQL favours the slow station
/// (44.8/55.2 %).
fn limit_with_the_other_group_busy(driver: &str) {
    let text = limit_text("limit", true);
    every_mode("a limit group, the other busy", driver, |mode, decides| {
        let r = match run(&text, driver, mode, &[0, 1]) {
            Ok(r) => r,
            Err(why) => return (false, why),
        };
        let s = &r.share_pct;
        let ok = match decides {
            Decides::Host { tol_pts } => within(s, &[50.0, 50.0], tol_pts),
            // The limit is ignored; the shares are round robin's own: 50/50 on
            // softmac (about 4 ms aggregates each), 42.6/57.4 on the pull firmware.
            Decides::RoundRobin => within(s, &[50.0, 50.0], 10.0),
            Decides::PushFirmware => s[1] >= 48.0,
        };
        (ok, format!("{} %", percents(s)))
    });
}

#[test]
fn weights_on_softmac() {
    weights("softmac");
}

#[test]
fn weights_on_firmware() {
    weights("firmware");
}

#[test]
fn weights_on_firmware_push() {
    weights("firmware_push");
}

#[test]
fn nested_groups_on_softmac() {
    nested_groups("softmac");
}

#[test]
fn nested_groups_on_firmware() {
    nested_groups("firmware");
}

#[test]
fn nested_groups_on_firmware_push() {
    nested_groups("firmware_push");
}

/// A group nested in one that is not listed before it is refused with its line.
#[test]
fn a_parent_group_must_come_first() {
    let dir = tempfile::tempdir().unwrap();
    let text = HEAD.to_string()
        + "duration = 1.0\n"
        + &station("a", 7, "group = \"kids\"")
        + "\n[[ap.group]]\nname = \"kids\"\nparent = \"guests\"\n\n[[ap.group]]\n\
           name = \"guests\"\n"
        + FLOOD;
    let path = write(dir.path(), "nested.toml", &text);
    let out = super::airq().arg("check").arg(&path).assert().failure();
    let e = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(e.contains("nested.toml:") && e.contains("parent"), "{e}");
    assert!(
        e.contains("no [[ap.group]] before this one is named `guests`"),
        "{e}"
    );
}

#[test]
fn groups_on_softmac() {
    groups("softmac");
}

#[test]
fn groups_on_firmware() {
    groups("firmware");
}

#[test]
fn groups_on_firmware_push() {
    groups("firmware_push");
}

#[test]
fn a_limit_group_with_the_other_idle_on_softmac() {
    limit_with_the_other_group_idle("softmac");
}

#[test]
fn a_limit_group_with_the_other_idle_on_firmware() {
    limit_with_the_other_group_idle("firmware");
}

#[test]
fn a_limit_group_with_the_other_idle_on_firmware_push() {
    limit_with_the_other_group_idle("firmware_push");
}

#[test]
fn a_limit_group_with_the_other_busy_on_softmac() {
    limit_with_the_other_group_busy("softmac");
}

#[test]
fn a_limit_group_with_the_other_busy_on_firmware() {
    limit_with_the_other_group_busy("firmware");
}

#[test]
fn a_limit_group_with_the_other_busy_on_firmware_push() {
    limit_with_the_other_group_busy("firmware_push");
}
