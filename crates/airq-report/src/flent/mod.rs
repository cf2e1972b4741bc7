//! Export of one run as a flent data file, so that flent (`flent -i FILE -p all_scaled`,
//! `-f csv`, `-f summary`, ...) can plot airq results and compare them with testbed runs.
//!
//! The file is flent's format version 4 (`FILEFORMAT_VERSION` in flent's
//! `flent/resultset.py`): gzip-compressed JSON with `version`, `metadata`, `x_values`,
//! `results` (series on the x grid, `null` for gaps) and `raw_values` (timestamped
//! samples). The run poses as the flent test that runs its traffic, one flent host per
//! station ([`mapping`] gives the rule and the series names), with the `wifi_stats`
//! mixin's per-station airtime keyed by station name ([`series`]). flent recomputes the
//! aggregates (sums, averages, Jain's fairness of the goodput and of the airtime) when
//! it loads the file.
//!
//! flent's plots cut `DELAY` seconds (its `--delay`, default 5, not stored in the file)
//! from both ends of a run for CDFs and box plots: runs shorter than 10 s show nothing
//! there unless flent is run with `--delay 0`.

mod grid;
mod mapping;
mod series;
mod time;

use std::io::Write;
use std::path::Path;

use flate2::{Compression, GzBuilder};
use serde_json::{json, Map, Value};

use crate::error::ReportError;
use crate::model::RunView;

/// The flent file format version written (flent ≥ 1.9 reads it; 2.3.0 checked).
pub const FLENT_FORMAT_VERSION: u32 = 4;

/// The file name ending flent recognises for gzip-compressed data files.
pub const FLENT_SUFFIX: &str = ".flent.gz";

/// Writes `run` of `scenario` as a flent data file at `path`, which must end in
/// `.flent.gz`; `title` is flent's `TITLE`, which labels the run in flent's plots of
/// several files (what sets it apart: its design, settings and seed). The same run
/// always gives the same bytes (the gzip header carries no time stamp).
pub fn write_flent(
    run: &RunView,
    scenario: &str,
    title: &str,
    path: &Path,
) -> Result<(), ReportError> {
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if !file_name.ends_with(FLENT_SUFFIX) {
        return Err(ReportError::UnsupportedExtension {
            path: path.to_path_buf(),
            expected: FLENT_SUFFIX,
        });
    }
    let document = flent_document(run, scenario, title, file_name)?;
    let encode_failed = |e: std::io::Error| ReportError::Encode {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut gz = GzBuilder::new().write(Vec::new(), Compression::default());
    serde_json::to_writer_pretty(&mut gz, &document).map_err(|e| ReportError::Encode {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    gz.write_all(b"\n").map_err(encode_failed)?;
    let bytes = gz.finish().map_err(encode_failed)?;
    std::fs::write(path, bytes).map_err(|e| ReportError::io(path, e))
}

/// The flent JSON document of `run`: `title` goes into `TITLE`, `data_filename` into
/// `DATA_FILENAME`.
pub fn flent_document(
    run: &RunView,
    scenario: &str,
    title: &str,
    data_filename: &str,
) -> Result<Value, ReportError> {
    run.validate()?;
    let points = run.steps() + 1;
    let mapping = mapping::map(run);
    let exported = series::export(run, &mapping, points);
    if exported.raw_values.is_empty() {
        return Err(ReportError::empty(format!(
            "run \"{}\" has no samples to export (no goodput, ping or airtime series)",
            run.config
        )));
    }
    let x_values: Vec<f64> = (0..points).map(|k| k as f64 * run.step_s).collect();
    let mut metadata = metadata(run, &mapping, scenario, title, data_filename);
    metadata.insert("SERIES_META".into(), Value::Object(exported.series_meta));
    Ok(json!({
        "version": FLENT_FORMAT_VERSION,
        "metadata": metadata,
        "x_values": x_values,
        "results": exported.results,
        "raw_values": exported.raw_values,
    }))
}

/// flent's recorded settings (`RECORDED_SETTINGS` in resultset.py, every key present as
/// its formatters expect) plus `T0` and airq's own keys.
fn metadata(
    run: &RunView,
    mapping: &mapping::Mapping,
    scenario: &str,
    title: &str,
    data_filename: &str,
) -> Map<String, Value> {
    let start = time::format_utc(run.start_time_unix_s);
    let mut test_parameters = mapping.test_parameters.clone();
    if series::has_airtime(run) {
        let stations: Vec<String> = run
            .stations
            .iter()
            .map(|s| mapping::flent_host(&s.name))
            .collect();
        test_parameters.insert("wifi_stats_hosts".into(), json!(series::AP_HOST));
        test_parameters.insert("wifi_stats_interfaces".into(), json!("wlan0"));
        test_parameters.insert("wifi_stats_stations".into(), json!(stations.join(",")));
    }
    let hosts = &mapping.hosts;
    let entries = [
        ("NAME", json!(mapping.test)),
        ("TITLE", json!(title)),
        (
            "NOTE",
            json!(format!("airq simulation, AP design {}", run.config)),
        ),
        ("HOST", json!(hosts.first())),
        ("HOSTS", json!(hosts)),
        ("LOCAL_HOST", json!("airq-sim")),
        ("TIME", json!(start)),
        ("T0", json!(start)),
        ("LENGTH", json!(run.duration_s)),
        ("TOTAL_LENGTH", json!(run.duration_s)),
        ("STEP_SIZE", json!(run.step_s)),
        ("TEST_PARAMETERS", Value::Object(test_parameters)),
        ("FLENT_VERSION", Value::Null),
        ("IP_VERSION", json!(4)),
        ("BATCH_NAME", Value::Null),
        ("BATCH_TIME", Value::Null),
        ("BATCH_TITLE", Value::Null),
        ("BATCH_UUID", Value::Null),
        ("DATA_FILENAME", json!(data_filename)),
        ("HTTP_GETTER_URLLIST", mapping.http_urllist.clone()),
        ("HTTP_GETTER_DNS", Value::Null),
        ("HTTP_GETTER_WORKERS", Value::Null),
        ("FAILED_RUNNERS", json!(0)),
        ("AIRQ_SCENARIO", json!(scenario)),
        ("AIRQ_CONFIG", json!(run.config)),
    ];
    entries
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

#[cfg(test)]
mod tests;
