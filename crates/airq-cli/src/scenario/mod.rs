//! Scenario files: read, changed by `--set`, parsed with every key and value checked,
//! into a [`Scenario`] the simulator can be built from (`crate::build`). Errors name the
//! file, line and key; nothing here panics on bad input.

pub mod ap;
pub mod ap_file;
pub mod file;
pub mod location;
pub mod overrides;
pub mod station;
pub mod traffic;
pub mod units;
mod validate;

use crate::error::{io_error, CliError};
use airq::Duration;
use airq_sim::bss::WiredLink;
use airq_sim::mac::link::BssConfig;
use location::SourceMap;
use overrides::Override;
use std::path::Path;

pub use ap::ApSpec;
pub use station::Station;
pub use traffic::{Test, Traffic, TESTS};

/// A checked scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The `name` key: names the results files.
    pub name: String,
    /// The `description` key.
    pub description: String,
    /// The file, as the user named it.
    pub path: String,
    /// The scenario text after `--set` overrides: everything the run depends on.
    pub text: String,
    /// The overrides, as given.
    pub overrides: Vec<String>,
    /// Simulated time.
    pub duration: Duration,
    /// Step of the time series.
    pub step: Duration,
    /// The root seed.
    pub seed: u64,
    /// BSS-wide radio settings.
    pub bss: BssConfig,
    /// Packets each station's own queue holds, if not the simulator's default.
    pub station_queue_packets: Option<usize>,
    /// The server's link to the AP.
    pub wired: WiredLink,
    /// Stations, `count` groups expanded.
    pub stations: Vec<Station>,
    /// Traffic entries, in file order.
    pub traffic: Vec<Traffic>,
    /// The AP, ready to be configured as any preset.
    pub ap: ApSpec,
}

impl Scenario {
    /// Duration in seconds, for display and summaries.
    pub fn duration_s(&self) -> f64 {
        self.duration.as_secs_f64()
    }
}

/// Reads the scenario at `path` and applies `overrides` (`key.path=value`, in order).
pub fn load(path: &Path, overrides: &[String]) -> Result<Scenario, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| io_error("cannot read", path, e))?;
    parse(&path.display().to_string(), &text, overrides)
}

/// Parses scenario `text` (read from `file`) with `overrides` applied.
pub fn parse(file: &str, text: &str, overrides: &[String]) -> Result<Scenario, CliError> {
    let parsed: Vec<Override> = overrides
        .iter()
        .map(|o| Override::parse(o))
        .collect::<Result<_, _>>()?;
    // A file that is not TOML is reported against the file itself, not the edited text.
    if let Err(e) = text.parse::<toml_edit::DocumentMut>() {
        return Err(SourceMap::new(file, text).error_at_span(e.span(), e.message()));
    }
    let text = overrides::apply(text, &parsed)?;
    let map = SourceMap::new(file, &text).with_overrides(
        parsed
            .iter()
            .map(|o| (o.path.clone(), o.raw.clone()))
            .collect(),
    );
    let raw: file::ScenarioFile =
        toml::from_str(&text).map_err(|e| map.error_at_span(e.span(), e.message()))?;
    validate::validate(raw, file, &text, overrides, &map)
}
