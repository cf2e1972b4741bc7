//! Scenario files: read, changed by `--set`, parsed with every key and value checked,
//! into a [`Scenario`] the simulator can be built from (`crate::build`). Errors name the
//! file, line and key; nothing here panics on bad input.

pub mod admission;
pub mod aggregation;
pub mod ap;
pub mod ap_file;
pub mod bundled;
pub mod file;
pub mod location;
pub mod overrides;
mod radio;
pub mod reference;
pub mod retry;
pub mod station;
pub mod traffic;
pub mod units;
mod validate;
pub mod variant;

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
pub use variant::Variant;

/// A checked scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The `name` key: names the results files.
    pub name: String,
    /// The `description` key.
    pub description: String,
    /// The file, as the user named it.
    pub path: String,
    /// The scenario text after `--set` overrides (and a variant's changes, for a
    /// variant's scenario): everything the run depends on.
    pub text: String,
    /// The `--set` overrides, as given (a variant's changes are not among them).
    pub overrides: Vec<String>,
    /// Simulated time.
    pub duration: Duration,
    /// Step of the time series.
    pub step: Duration,
    /// Warm-up left out of every summary (the time series keep it).
    pub omit: Duration,
    /// The root seed.
    pub seed: u64,
    /// Repetitions: seeds from `seed` on.
    pub seeds: u32,
    /// BSS-wide radio settings.
    pub bss: BssConfig,
    /// The MAC timing the BSS got from its stations when `bss.timing` is not set, said
    /// by `check` and `run` and kept in the results; `None` for the plain OFDM default.
    pub derived_timing: Option<String>,
    /// The ERP protection the BSS uses, and whether the stations called for it or
    /// `bss.protection` set it; said by `check` and `run` and kept in the results;
    /// `None` without protection.
    pub protection_note: Option<String>,
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
    /// Its `[[variant]]` tables.
    pub variants: Vec<Variant>,
}

impl Scenario {
    /// Duration in seconds, for display and summaries.
    pub fn duration_s(&self) -> f64 {
        self.duration.as_secs_f64()
    }
}

/// Reads the scenario at `path` — or, when there is no such file and `path` is a bare
/// name, the bundled scenario of that name — and applies `overrides` (`key.path=value`,
/// in order).
pub fn load(path: &Path, overrides: &[String]) -> Result<Scenario, CliError> {
    let shown = path.display().to_string();
    if !path.exists() && path.components().count() == 1 {
        if let Some(text) = bundled::find(&shown) {
            return parse(&shown, text, overrides);
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        let error = io_error("cannot read", path, e);
        if path.components().count() == 1 {
            CliError::new(format!(
                "{error} (and no bundled scenario has that name: {})",
                bundled::BUNDLED
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        } else {
            error
        }
    })?;
    parse(&shown, &text, overrides)
}

/// Parses scenario `text` (read from `file`) with `overrides` applied.
pub fn parse(file: &str, text: &str, overrides: &[String]) -> Result<Scenario, CliError> {
    let parsed: Vec<Override> = overrides
        .iter()
        .map(|o| Override::parse(o))
        .collect::<Result<_, _>>()?;
    parse_overridden(file, text, overrides, &parsed)
}

/// The scenario `base` as `variant` changes it (after the `--set`s, which stay in
/// `overrides`), checked like the file itself: an error says which variant asked for
/// what. Its text has both applied.
pub fn of_variant(base: &Scenario, variant: &Variant) -> Result<Scenario, CliError> {
    let global: Vec<Override> = base
        .overrides
        .iter()
        .map(|o| Override::parse(o))
        .collect::<Result<_, _>>()?;
    let own = variant.overrides()?;
    if let Some((o, g)) = own
        .iter()
        .find_map(|o| global.iter().find(|g| g.path == o.path).map(|g| (o, g)))
    {
        return Err(CliError::new(format!(
            "variant `{}` ({}) sets {} and --set sets {}: say it once",
            variant.name, variant.origin, o.raw, g.raw
        )));
    }
    parse_overridden(&base.path, &base.text, &base.overrides, &own)
}

/// A deserialiser's message in the scenario's words: no Rust type names (`expected
/// struct FqSection` is `expected a table`), and a choice among names is a value, not
/// a "variant" (a word the scenarios use for something else).
fn plain(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("struct ") {
        out += &rest[..at];
        let after = &rest[at + "struct ".len()..];
        let name_len = after
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(after.len());
        out += "a table";
        rest = &after[name_len..];
    }
    out += rest;
    out.replace("unknown variant", "unknown value")
}

/// Parses `text` with `parsed` applied; `overrides` are the `--set`s among them.
fn parse_overridden(
    file: &str,
    text: &str,
    overrides: &[String],
    parsed: &[Override],
) -> Result<Scenario, CliError> {
    // A file that is not TOML is reported against the file itself, not the edited text.
    if let Err(e) = text.parse::<toml_edit::DocumentMut>() {
        return Err(SourceMap::new(file, text).error_at_span(e.span(), e.message()));
    }
    let text = overrides::apply(text, parsed)?;
    let map = SourceMap::new(file, &text).with_overrides(
        parsed
            .iter()
            .map(|o| (o.path.clone(), format!("{} {}", o.source, o.raw)))
            .collect(),
    );
    let raw: file::ScenarioFile =
        toml::from_str(&text).map_err(|e| map.error_at_span(e.span(), plain(e.message())))?;
    validate::validate(raw, file, &text, overrides, &map)
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn deserialiser_messages_name_no_rust_types() {
        assert_eq!(
            plain("invalid type: integer `3`, expected struct FqSection"),
            "invalid type: integer `3`, expected a table"
        );
        assert_eq!(
            plain("unknown variant `codel`, expected one of `none`"),
            "unknown value `codel`, expected one of `none`"
        );
    }
}
