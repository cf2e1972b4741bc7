//! Writing and reading results files: gzip, atomic writes, version migration.

use super::*;
use crate::error::{io_error, CliError};
use crate::outputs::write_atomically;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

/// The file name of a run: `<scenario>-<config>-seed<N>.json.gz`.
pub fn file_name(scenario: &str, config: &str, seed: u64) -> String {
    format!("{scenario}-{config}-seed{seed}.json.gz")
}

/// The results files' gzip level. zlib-rs at 3 against the default 6, on a 60 s run
/// at 1000 stations (22.7 MB of JSON): 77 against 172 ms, 3.22 against 2.89 MB; on the
/// flagship's 0.17 MB, 1.2 against 2.3 ms and 0.05 MB either way.
const GZIP_LEVEL: u32 = 3;

/// Writes `results` to `path`, gzip-compressed, atomically.
pub fn save(results: &ResultsFile, path: &Path) -> Result<(), CliError> {
    write_atomically(path, |w| {
        let mut gz = GzEncoder::new(w, Compression::new(GZIP_LEVEL));
        // serde_json writes a few bytes at a time, and flate2 zeroes its whole 32 KiB
        // output buffer on every write: unbuffered, that was 2.1 of the 4.0 billion
        // instructions of a 60 s three-station run (issue 19).
        let mut json = BufWriter::with_capacity(1 << 16, &mut gz);
        serde_json::to_writer(&mut json, results)?;
        json.flush()?;
        drop(json);
        gz.finish()?.flush()
    })
}

/// Reads the results file at `path`, migrating older versions.
pub fn load(path: &Path) -> Result<ResultsFile, CliError> {
    let file = std::fs::File::open(path).map_err(|e| io_error("cannot open", path, e))?;
    let mut json = String::new();
    GzDecoder::new(file)
        .read_to_string(&mut json)
        .map_err(|e| io_error("cannot decompress", path, e))?;
    from_json(&json).map_err(|e| e.context(path.display()))
}

/// Parses the JSON of a results file, migrating older versions, and refuses counts that
/// add up past `u64::MAX` ([`sums`]).
pub fn from_json(json: &str) -> Result<ResultsFile, CliError> {
    let r = match parse_current(json) {
        Some(r) => r,
        None => parse_any(json)?,
    };
    sums::check(&r)?;
    Ok(r)
}

/// A file of this build's layout, parsed straight into its structure; `None` for
/// anything else (another version, not a results file, an error), which
/// [`parse_any`] then reads or words the error of. Going through a `serde_json::Value`
/// first, as `parse_any` does, took two thirds of `airq show`'s time at 65,535 stations
/// (issue 20). A file this accepts, `parse_any` accepts with the same content: the same
/// parser reads every number, and version 3 needs no migration (a key given twice, which
/// `parse_any` takes the last of, is an error here, so such a file goes there; so does
/// a file of another version, even one that has this layout).
pub(super) fn parse_current(json: &str) -> Option<ResultsFile> {
    let r: ResultsFile = serde_json::from_str(json).ok()?;
    (r.format == FORMAT_NAME && r.format_version == FORMAT_VERSION).then_some(r)
}

/// Parses a results file of any version through a `serde_json::Value`, migrating it.
pub(super) fn parse_any(json: &str) -> Result<ResultsFile, CliError> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| CliError::new(format!("not JSON: {e}")))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT_NAME) {
        return Err(CliError::new(format!("not an {FORMAT_NAME} file")));
    }
    let version = value
        .get("format_version")
        .and_then(|v| v.as_u64())
        .ok_or_else(|| CliError::new("no format_version"))?;
    if version > u64::from(FORMAT_VERSION) {
        return Err(CliError::new(format!(
            "results format_version {version} is newer than this airq ({}) reads (up to \
             {FORMAT_VERSION}): use a newer airq",
            env!("CARGO_PKG_VERSION")
        )));
    }
    let value = migrate(version, value)?;
    serde_json::from_value(value)
        .map_err(|e| CliError::new(format!("format_version {version} but not its layout: {e}")))
}

/// Brings a file of `version` to [`FORMAT_VERSION`], one version at a time. Version 1
/// is the first; version 2 added `stalls` (version 1 files come from runs that had no
/// stall detector: they load with none recorded); version 3 added the run's `variant`
/// and `variant_set` (a version 2 run was a preset, with the driver in its name when
/// the command line chose it) and holds `ap_config` as data.
pub(super) fn migrate(
    version: u64,
    mut value: serde_json::Value,
) -> Result<serde_json::Value, CliError> {
    match version {
        1 => {
            if let Some(map) = value.as_object_mut() {
                map.insert("stalls".into(), serde_json::Value::Array(Vec::new()));
                map.insert("format_version".into(), 2.into());
            }
            migrate(2, value)
        }
        2 => {
            if let Some(m) = value.get_mut("metadata").and_then(|m| m.as_object_mut()) {
                let config = m.get("config").and_then(|c| c.as_str()).unwrap_or("");
                let overrides: Vec<String> = m
                    .get("overrides")
                    .and_then(|o| o.as_array())
                    .map(|o| {
                        o.iter()
                            .filter_map(|s| s.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                let driver = overrides
                    .iter()
                    .rev()
                    .find_map(|o| o.strip_prefix("ap.driver="))
                    .map(|d| format!("+driver={}", d.trim_matches('"')))
                    .unwrap_or_default();
                let variant = format!("{config}{driver}");
                m.insert("variant".into(), variant.into());
                m.insert("variant_set".into(), serde_json::Value::Array(Vec::new()));
            }
            if let Some(map) = value.as_object_mut() {
                map.insert("format_version".into(), 3.into());
            }
            migrate(3, value)
        }
        3 => Ok(value),
        v => Err(CliError::new(format!("unknown results format_version {v}"))),
    }
}
