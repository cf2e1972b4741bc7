//! Progress bars: simulated time, events per second and ETA, one bar per run, drawn on
//! standard error only when it is a terminal and `-q` was not given; with several runs
//! (a comparison, repetitions, a sweep) a bar of all of them above, with the whole
//! command's ETA, and each run's bar cleared when it ends. Bars stretch or shrink to the
//! terminal's width, so they never wrap. The simulator runs in chunks
//! of simulated time so the bars move.

use airq::Duration;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Simulated time between two updates of a bar.
pub const CHUNK: Duration = Duration::from_millis(500);

/// The bars of one command.
pub struct Progress {
    multi: Option<MultiProgress>,
    total: Option<ProgressBar>,
}

impl Progress {
    /// Bars if `wanted` and standard error is a terminal, for `runs` runs of `total`
    /// simulated time together; otherwise nothing is drawn.
    pub fn new(wanted: bool, runs: usize, total: Duration) -> Progress {
        let multi = (wanted && std::io::stderr().is_terminal())
            .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
        let total = multi.as_ref().filter(|_| runs > 1).map(|m| {
            let style = ProgressStyle::with_template(
                "{prefix:>12} [{wide_bar}] {pos}/{len} simulated s ({msg}) ETA {eta}",
            )
            .expect("a valid template")
            .progress_chars("=> ");
            let bar = m.add(ProgressBar::new(total.as_nanos() / 1_000_000_000));
            bar.set_style(style);
            bar.set_prefix("all");
            bar.set_message(format!("{runs} runs"));
            bar
        });
        Progress { multi, total }
    }

    /// A bar for a run labelled `label` of `duration` simulated time.
    pub fn bar(&self, label: &str, duration: Duration) -> RunBar {
        let bar = self.multi.as_ref().map(|m| {
            let style = ProgressStyle::with_template("{prefix:>12} [{wide_bar}] {msg} ETA {eta}")
                .expect("a valid template")
                .progress_chars("=> ");
            let bar = m.add(ProgressBar::new(duration.as_nanos() / 1_000_000));
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            bar
        });
        RunBar {
            bar,
            total: self.total.clone(),
            done_ms: std::sync::atomic::AtomicU64::new(0),
            duration,
            wall: std::time::Instant::now(),
        }
    }
}

/// One run's bar (a no-op when bars are off).
pub struct RunBar {
    bar: Option<ProgressBar>,
    /// The bar of all runs, moved by this run's progress.
    total: Option<ProgressBar>,
    /// Simulated ms of this run already counted in `total`.
    done_ms: std::sync::atomic::AtomicU64,
    duration: Duration,
    wall: std::time::Instant,
}

impl RunBar {
    /// The run has reached `now` simulated, after `events` events.
    pub fn update(&self, now: Duration, events: u64) {
        let Some(bar) = &self.bar else { return };
        if let Some(total) = &self.total {
            let ms = now.as_nanos() / 1_000_000;
            let before = self.done_ms.swap(ms, std::sync::atomic::Ordering::Relaxed);
            // Whole simulated seconds crossed since the last update.
            total.inc(ms / 1000 - before / 1000);
        }
        let wall = self.wall.elapsed().as_secs_f64().max(1e-9);
        bar.set_position(now.as_nanos() / 1_000_000);
        let rate = events as f64 / wall;
        let rate = if rate >= 1e6 {
            format!("{:.2} M", rate / 1e6)
        } else {
            format!("{:.0} k", rate / 1e3)
        };
        bar.set_message(format!(
            "{:.1}/{:.1} s, {rate} events/s",
            now.as_secs_f64(),
            self.duration.as_secs_f64(),
        ));
    }

    /// The run is over.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            if self.total.is_some() {
                bar.finish_and_clear();
            } else {
                bar.finish();
            }
        }
    }
}
