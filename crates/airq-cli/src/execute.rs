//! Running a scenario's variants: every input is built (and checked) first
//! ([`crate::run_set`]), then the runs go to `jobs` worker threads
//! (`std::thread::scope`), each run a simulator of its own. Results come back in the
//! order the variants were asked for, so output does not depend on the thread count or
//! timing.

use crate::collect::{collect, RunInfo};
use crate::error::CliError;
use crate::progress::{Progress, CHUNK};
use crate::results::ResultsFile;
use crate::run_set::RunSpec;
use airq::Instant;
use airq_emu::air_capture::AirCapture;
use airq_emu::radiotap::Channel;
use airq_sim::bss::Simulation;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How to run.
pub struct Plan<'a> {
    /// The runs, in output order.
    pub runs: &'a [RunSpec],
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Where the bars go.
    pub progress: &'a Progress,
    /// Print each run's wall time and events to standard error.
    pub verbose: bool,
    /// Recorded in each results file.
    pub command_line: &'a [String],
    /// Where the air goes (`airq run --pcap`); only with one run.
    pub pcap: Option<&'a std::path::Path>,
}

/// Worker threads by default: the machine's parallelism.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Makes every run of `plan`; results in `plan.runs` order.
pub fn run_all(plan: &Plan) -> Result<Vec<ResultsFile>, CliError> {
    let inputs = plan.runs;
    let slots: Mutex<Vec<Option<Result<ResultsFile, CliError>>>> =
        Mutex::new(vec![None; inputs.len()]);
    let next = AtomicUsize::new(0);
    let workers = plan.jobs.clamp(1, inputs.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(spec) = inputs.get(i) else { break };
                let result = run_one(plan, spec);
                slots.lock().expect("no worker panics holding it")[i] = Some(result);
            });
        }
    });
    slots
        .into_inner()
        .expect("no worker panics holding it")
        .into_iter()
        .map(|r| r.expect("every run was taken by a worker"))
        .collect()
}

fn run_one(plan: &Plan, spec: &RunSpec) -> Result<ResultsFile, CliError> {
    let (scenario, input, config) = (&spec.scenario, &spec.input, spec.label.as_str());
    let started_utc = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let wall = std::time::Instant::now();
    let mut sim = Simulation::new(input.bss.clone(), &input.ap)
        .map_err(|e| CliError::new(format!("{}: as {config}: {e}", scenario.path)))?;
    let mut capture = match plan.pcap {
        Some(path) => {
            sim.record_air();
            Some(
                AirCapture::create(path, Channel::of(input.bss.bss.band, &input.bss.bss.radio))
                    .map_err(|e| CliError::new(format!("--pcap: cannot create {e}")))?,
            )
        }
        None => None,
    };
    let mut air = Vec::new();
    let bar = plan.progress.bar(config, scenario.duration);
    let end = Instant::ZERO + scenario.duration;
    let mut t = Instant::ZERO;
    while t < end {
        t = (t + CHUNK).min(end);
        sim.run_until(t);
        if let Some(c) = &mut capture {
            // Written as the run goes: a long run's air does not fit in memory.
            sim.take_air(&mut air);
            c.write(&air)
                .map_err(|e| CliError::new(format!("--pcap: cannot write: {e}")))?;
            air.clear();
        }
        bar.update(t - Instant::ZERO, sim.metrics().events);
    }
    bar.finish();
    if let Some(c) = capture {
        c.finish()
            .map_err(|e| CliError::new(format!("--pcap: cannot write: {e}")))?;
    }
    let wall_s = wall.elapsed().as_secs_f64();
    if plan.verbose {
        eprintln!(
            "{config}: {:.1} s simulated in {wall_s:.2} s wall, {} events",
            scenario.duration_s(),
            sim.metrics().events
        );
    }
    let info = RunInfo {
        config: spec.preset.clone(),
        variant: spec.label.clone(),
        variant_set: spec.variant.set.clone(),
        scenario_text: spec.base_text.clone(),
        command_line: plan.command_line.to_vec(),
        started_utc,
        wall_s,
    };
    let admission = crate::admission_data::admission_data(
        sim.ap(),
        scenario.stations.len(),
        input.bss.flows.len(),
    );
    let aggregation = crate::aggregation_data::aggregation_data(sim.ap());
    let codel: Vec<_> = (0..scenario.stations.len() as u32)
        .map(|s| sim.ap().station_codel(airq::StationId(s)))
        .collect();
    let mut results = collect(scenario, input, &sim.into_measured(), info);
    crate::collect::record_station_codel(&mut results, &input.ap, codel);
    debug_assert_eq!(
        (results.stations.len(), results.flows.len()),
        (scenario.stations.len(), input.bss.flows.len())
    );
    results.admission = admission;
    results.aggregation = aggregation;
    Ok(results)
}
