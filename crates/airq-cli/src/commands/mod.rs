//! The commands: each takes its parsed arguments, prints to standard output, and returns
//! a [`CliError`] for `main` to print.

pub mod check;
pub mod completions;
pub mod emulate;
pub mod help;
pub mod list;
pub mod plot;
pub mod reproduce;
pub mod run;
pub mod show;
pub mod sweep;

use crate::cli::RunArgs;
use crate::error::CliError;
use crate::execute::{run_all, Plan};
use crate::export::{flent_file_name, write_flent_files};
use crate::outputs::{self, Target};
use crate::progress::Progress;
use crate::results::{self, ResultsFile, RunKey, StationSummary};
use crate::run_set::RunSpec;
use crate::summary;
use std::path::PathBuf;

/// How much to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verbosity {
    /// Errors only.
    Quiet,
    /// Tables and progress bars.
    Normal,
    /// Also each run's wall time and events, and the files written.
    Verbose,
}

/// Makes the runs of `specs` and writes the results files, and the `--json` and
/// `--csv` summaries and `--flent` data files if asked. Every output is checked before
/// the first simulation starts: folders writable, no results file of another run
/// replaced without `--force`.
pub fn run_and_write(
    specs: &[RunSpec],
    jobs: usize,
    args: &RunArgs,
    verbosity: Verbosity,
) -> Result<Vec<ResultsFile>, CliError> {
    run_and_write_with(specs, jobs, args, verbosity, None)
}

/// [`run_and_write`], with the air of the one run in `specs` written to `pcap` if
/// given (`airq run --pcap`).
pub fn run_and_write_with(
    specs: &[RunSpec],
    jobs: usize,
    args: &RunArgs,
    verbosity: Verbosity,
    pcap: Option<&std::path::Path>,
) -> Result<Vec<ResultsFile>, CliError> {
    let paths = check_outputs(specs, args)?;
    let total = specs
        .iter()
        .fold(airq::Duration::ZERO, |t, s| t + s.scenario.duration);
    let progress = Progress::new(verbosity != Verbosity::Quiet, specs.len(), total);
    let command_line: Vec<String> = std::env::args().collect();
    let runs = run_all(&Plan {
        runs: specs,
        jobs,
        progress: &progress,
        verbose: verbosity == Verbosity::Verbose,
        command_line: &command_line,
        pcap,
    })?;
    let verbose = verbosity == Verbosity::Verbose;
    for (r, path) in runs.iter().zip(&paths) {
        for warning in warnings(r) {
            eprintln!("{warning}");
        }
        results::save(r, path)?;
        if verbose {
            eprintln!("wrote {}", path.display());
        }
    }
    write_summaries(&runs, args, verbose)?;
    Ok(runs)
}

/// The outputs beside the results files that `--flent`, `--json` and `--csv` ask for.
pub(super) fn write_summaries(
    runs: &[ResultsFile],
    args: &RunArgs,
    verbose: bool,
) -> Result<(), CliError> {
    if args.flent {
        for path in write_flent_files(runs, &args.output)? {
            if verbose {
                eprintln!("wrote {}", path.display());
            }
        }
    }
    if let Some(path) = &args.json {
        match Target::of(path) {
            Target::Stdout => {
                let json = serde_json::to_string_pretty(&summary::summarise(runs))
                    .map_err(|e| CliError::new(format!("cannot encode the summary: {e}")))?;
                Target::Stdout.write(&(json + "\n"))?
            }
            Target::File(path) => summary::write_json(runs, &path)?,
        }
    }
    if let Some(path) = &args.csv {
        match Target::of(path) {
            Target::Stdout => Target::Stdout.write(&summary::csv(runs))?,
            Target::File(path) => summary::write_csv(runs, &path)?,
        }
    }
    Ok(())
}

/// Checks the `--json` and `--csv` targets before anything runs.
pub(super) fn check_summary_targets(args: &RunArgs) -> Result<(), CliError> {
    for target in [&args.json, &args.csv].into_iter().flatten() {
        Target::of(target).check()?;
    }
    Ok(())
}

/// The results file of each run, every output checked before anything runs.
fn check_outputs(specs: &[RunSpec], args: &RunArgs) -> Result<Vec<PathBuf>, CliError> {
    outputs::check_folder(&args.output)?;
    check_summary_targets(args)?;
    let mut paths: Vec<PathBuf> = Vec::with_capacity(specs.len());
    for spec in specs {
        let scenario = &spec.scenario;
        let label = results::file_label(&spec.label, &scenario.overrides);
        let path = args
            .output
            .join(results::file_name(&scenario.name, &label, scenario.seed));
        if let Some(i) = paths.iter().position(|p| *p == path) {
            return Err(CliError::new(format!(
                "`{}` and `{}` would both be written to {}: name them apart",
                specs[i].label,
                spec.label,
                path.display()
            )));
        }
        let key = RunKey {
            scenario: scenario.name.clone(),
            scenario_text: spec.base_text.clone(),
            variant: spec.label.clone(),
            variant_set: spec.variant.set.clone(),
            config: spec.preset.clone(),
            seed: scenario.seed,
            duration_s: scenario.duration_s(),
        };
        outputs::check_replace(&path, &key, args.force)?;
        paths.push(path);
    }
    Ok(paths)
}

/// What must not pass unnoticed about a run: its stalls, a run in which no packet was
/// delivered at all (its tables would show zeros, as if measured), and its starved
/// stations.
pub fn warnings(r: &ResultsFile) -> Vec<String> {
    let mut out = unsound(r);
    out.extend(collapse_warning(r));
    out.extend(starvation_warning(r));
    out
}

/// A warning that most exchanges collided: the channel collapsed under contention, as
/// the DCF does when more stations contend at once than their windows keep apart
/// (thousands of stations each with a frame to send). Such a run's throughput and
/// fairness figures (a Jain's index over next to no traffic) describe the collapse, not
/// the AP's queueing, and must not pass unnoticed. At most 18% of the exchanges
/// collide in the bundled scenarios.
pub fn collapse_warning(r: &ResultsFile) -> Option<String> {
    let c = &r.channel;
    if c.exchanges < COLLAPSE_MIN_EXCHANGES || c.collisions * 2 <= c.exchanges {
        return None;
    }
    let m = &r.metadata;
    let total_mbps: f64 = r.stations.iter().map(|s| s.goodput_mbps).sum();
    Some(format!(
        "airq: WARNING: {}: {:.0}% of the {} exchanges collided ({:.2} \
         s of collisions against {:.2} s of frames that got through): the channel \
         collapsed under the contention of {} stations, and delivered {total_mbps:.2} \
         Mbit/s in all. Its throughput and fairness figures are those of the collapse, \
         not of the AP's queueing.",
        m.run_name(),
        100.0 * c.collided_share(),
        c.exchanges,
        c.collision_s,
        c.busy_s,
        r.stations.len()
    ))
}

/// Fewer exchanges than this are too few to call a collapse.
const COLLAPSE_MIN_EXCHANGES: u64 = 100;

/// The warnings that say a run's figures are not those of a working AP with traffic:
/// its stalls, and a run in which no packet was delivered. (A starved station is not
/// among them: a design can starve a station, e.g. EDCA a best-effort one beside a
/// saturated voice queue, and a comparison may be about exactly that.)
pub fn unsound(r: &ResultsFile) -> Vec<String> {
    let mut out: Vec<String> = stall_warning(r).into_iter().collect();
    if !r.delivered_any() {
        let m = &r.metadata;
        let (down, up) = r.stations.iter().fold((0, 0), |(d, u), s| {
            (d + s.rx_packets_down, u + s.rx_packets_up)
        });
        let one_way = if down + up > 0 {
            format!(
                " ({down} packets reached the stations and {up} came from them, none of \
                 them a flow's data or a ping's answer)"
            )
        } else {
            String::new()
        };
        out.push(format!(
            "airq: WARNING: {}: nothing was delivered end to end in the measured {} s: no \
             flow had goodput and no ping was answered{one_way}. These are not the \
             figures of a network with traffic. Check the stations' links, the traffic's \
             stations, start and stop, and the warm-up (omit).",
            m.run_name(),
            m.duration_s - m.omit_s
        ));
    }
    out
}

/// A warning naming every stall of the run, if it had any: its figures were made by an
/// AP that held frames back for no reason, so they must not pass unnoticed. Printed
/// even with `--quiet`; the results file keeps the stalls.
pub fn stall_warning(r: &ResultsFile) -> Option<String> {
    if r.stalls.is_empty() {
        return None;
    }
    let m = &r.metadata;
    let list: Vec<String> = r
        .stalls
        .iter()
        .take(5)
        .map(|s| {
            format!(
                "{} idle from {:.3} s to at least {:.3} s",
                s.station, s.idle_since_s, s.detected_at_s
            )
        })
        .collect();
    let more = r.stalls.len().saturating_sub(list.len());
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    Some(format!(
        "airq: WARNING: {}: the AP stalled {} time(s) — it held frames \
         that no airtime limit held back while the medium stayed idle: {}{more}. These are \
         not the figures of a working AP: unless the scenario asks for it (a host latency \
         as long as the stall threshold), this is a defect of the model; please report it.",
        m.run_name(),
        r.stalls.len(),
        list.join("; ")
    ))
}

/// A warning naming the stations the AP starved, if it starved any: it held packets for
/// them, sent them nothing and delivered none for a second or more of the measured
/// time, while the medium may have been busy all along (so no stall was seen). Their
/// figures are those of a scheduler, driver or EDCA that left them out, not of their
/// links: a defect unless the scenario asks for it (a saturated higher-priority AC
/// starves lower ones).
pub fn starvation_warning(r: &ResultsFile) -> Option<String> {
    if r.starvation.is_empty() {
        return None;
    }
    let m = &r.metadata;
    let list: Vec<String> = r
        .starvation
        .iter()
        .take(5)
        .map(|s| match s.until_s {
            Some(until) => format!("{} from {:.1} s to {:.1} s", s.station, s.since_s, until),
            None => format!("{} from {:.1} s to the end", s.station, s.since_s),
        })
        .collect();
    let more = r.starvation.len().saturating_sub(list.len());
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let head = format!(
        "airq: WARNING: {}: the AP starved stations {} time(s): it \
         held packets for each, sent it nothing and delivered none for 1 s or more of the \
         measured time: {}{more}.",
        m.run_name(),
        r.starvation.len(),
        list.join("; ")
    );
    // Packets that never left the qdisc, the MAC layer holding none of them all the
    // while: the driver's queue limit, shared by the stations, was full of other
    // stations' frames. The design's lock-out, not a scheduler passing stations over.
    let locked_out = r.starvation.iter().filter(|s| s.above_mac).count();
    if locked_out == r.starvation.len() {
        return Some(format!(
            "{head} Each time, all its packets waited in the qdisc and the MAC layer held \
             none of them: the driver's queue limit, which the stations share, was full of \
             other stations' frames, so the scheduler had nothing of it to send. That is \
             the lock-out of a driver without per-station queues under a qdisc (what \
             FQ-MAC's per-station queues remove), the design's behaviour rather than a \
             station the scheduler left out; its figures are those of that design."
        ));
    }
    // Another station's packets in a higher-priority AC all the while: EDCA gives a
    // saturated higher AC the medium (the QoS-versus-fairness experiments), the design's
    // priority, not a scheduler passing stations over.
    let behind = r.starvation.iter().filter(|s| s.behind_higher_ac).count();
    if behind == r.starvation.len() {
        return Some(format!(
            "{head} Each time, the AP held another station's packets in an access category \
             of higher priority than any of its own (VO over BE, say) all the while: EDCA's \
             priority between the AP's access categories gives a saturated higher one the \
             medium and starves the lower ones. That is the design's QoS at work rather \
             than a station the scheduler left out; its figures are those of that design."
        ));
    }
    let notes: Vec<String> = [
        (
            locked_out,
            "lock-outs: every packet in the qdisc, the driver's shared queue \
                      full of other stations' frames",
        ),
        (
            behind,
            "behind a higher-priority access category: another station's packets \
                  in it all the while",
        ),
    ]
    .into_iter()
    .filter(|&(n, _)| n > 0)
    .map(|(n, what)| format!("{n} of the episodes were {what}"))
    .collect();
    let notes = match notes.is_empty() {
        true => String::new(),
        false => format!(" ({})", notes.join("; ")),
    };
    // A station served at a slow pace all along (a slow link's fair share among many,
    // or one station's turn among hundreds) waits a second now and then without being
    // left out: say its pace instead of calling it a defect. The pace is of its turns,
    // the exchanges that carried its frames, not of its packets: an aggregate of a
    // dozen packets a second is a turn a second. A station that got nothing at all has
    // no pace of its own; it counts as slow-paced only if the stations' average pace is
    // slow (thousands of stations sharing the channel), and the warning says so.
    let measured_s = (m.duration_s - m.omit_s).max(0.0);
    let all_turns: f64 = r.stations.iter().map(downlink_turns).sum();
    let mean_interval_s = if all_turns > 0.0 {
        measured_s * r.stations.len() as f64 / all_turns
    } else {
        f64::INFINITY
    };
    let mut starved: Vec<&str> = r.starvation.iter().map(|s| s.station.as_str()).collect();
    starved.sort_unstable();
    starved.dedup();
    let mut paces: Vec<String> = Vec::new();
    for st in r
        .stations
        .iter()
        .filter(|st| starved.binary_search(&st.name.as_str()).is_ok())
    {
        let turns = downlink_turns(st);
        let pace = if turns == 0.0 {
            (mean_interval_s >= SLOW_PACE_S).then(|| match all_turns > 0.0 {
                true => format!(
                    "{} no packet in the measured time, where a station got a turn every \
                     {mean_interval_s:.2} s on average",
                    st.name
                ),
                false => format!(
                    "{} no packet in the measured time, where no station got a turn",
                    st.name
                ),
            })
        } else {
            let interval_s = measured_s / turns;
            (interval_s >= SLOW_PACE_S).then(|| {
                format!(
                    "{} a turn every {interval_s:.2} s on average, {} packet{} in all, \
                     {:.1}% of the airtime",
                    st.name,
                    st.rx_packets_down,
                    if st.rx_packets_down == 1 { "" } else { "s" },
                    st.airtime_share * 100.0
                )
            })
        };
        match pace {
            Some(pace) => paces.push(pace),
            None => {
                paces.clear();
                break;
            }
        }
    }
    if !paces.is_empty() && paces.len() == starved.len() {
        let shown = paces.len().min(5);
        let more = match paces.len() - shown {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        return Some(format!(
            "{head} Each was served at a slow pace all along ({}{more}): at that pace a \
             second without a turn is expected, so this is the share the design gave it \
             rather than a station left out now and then. Check that the share is the one \
             the design means to give.",
            paces[..shown].join("; ")
        ));
    }
    // Hundreds of stations sharing one AP each wait long for a turn, and all starting
    // together collide for seconds: say so where the run is that crowded.
    let collided = r.channel.collided_share();
    let collisions = if r.stations.len() >= CROWDED_STATIONS || collided >= 0.1 {
        format!(
            ", so many stations that each waits long for its turn or its frames collide: \
             {} stations, {:.0}% of the exchanges collided",
            r.stations.len(),
            100.0 * collided
        )
    } else {
        String::new()
    };
    Some(format!(
        "{head} The medium need not have been idle (that would be a stall): the \
         scheduler, the driver or EDCA left the station out, so its figures are not \
         those of its link. Unless the scenario asks for it (saturated traffic in a \
         higher-priority AC{collisions}), this is a defect of the model; please \
         report it{notes}."
    ))
}

/// The exchanges that carried `st`'s downlink frames (its turns at the medium), from
/// its MPDU transmissions, those it received and those that failed, over their mean
/// per PPDU; 0 without any. An estimate: a copy the station discarded counts as
/// received.
fn downlink_turns(st: &StationSummary) -> f64 {
    if st.mpdus_per_ampdu_down > 0.0 {
        (st.rx_packets_down + st.mpdu_failures_down) as f64 / st.mpdus_per_ampdu_down
    } else {
        0.0
    }
}

/// A run with this many stations or more is crowded enough for a station to wait
/// seconds for its turn at its fair share.
const CROWDED_STATIONS: usize = 100;

/// A station that got a turn (an exchange carrying its frames) every this many seconds
/// or less often, on average over the measured time, is served at a slow pace: a
/// starvation episode of a second is within four of its intervals.
const SLOW_PACE_S: f64 = 0.25;

/// The results file of `r` in the output directory of `args`.
pub fn results_path(r: &ResultsFile, args: &RunArgs) -> PathBuf {
    let m = &r.metadata;
    args.output
        .join(results::file_name(&m.scenario, &m.file_label(), m.seed))
}

/// Where the results files of `runs` went, and their flent files with `--flent`: one
/// line each.
pub fn written(runs: &[ResultsFile], args: &RunArgs) -> String {
    let mut lines = Vec::new();
    for r in runs {
        let m = &r.metadata;
        lines.push(format!("results: {}", results_path(r, args).display()));
        if args.flent {
            let flent = flent_file_name(&m.scenario, &m.file_label(), m.seed);
            lines.push(format!("flent: {}", args.output.join(flent).display()));
        }
    }
    lines.join("\n")
}
