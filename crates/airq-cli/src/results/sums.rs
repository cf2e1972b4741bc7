//! The counts of a results file that the tables and plots add up, checked when the file
//! is loaded: a station's drops over their causes (`StationSummary::total_drops`), the
//! ping requests of a station's flows (`ResultsFile::station_ping`) and of a whole run
//! (the latency plot's pooled CDF), and at each sample the cumulative bytes of a
//! station's flows (the plots' per-step goodput, `report_view`). A simulator's counts
//! never come near 2⁶⁴ − 1; a file whose counts add up past it was written by hand or
//! mangled, and is refused with the field that passes the limit (issue 20), where the sums
//! used to panic in debug builds and wrap, or saturate to a number shown as if measured,
//! in release.
//!
//! Totals over the whole run bound every subset of it, so one pass checks each sum:
//! every station's drops, every flow's `pings_sent`, and each sample's `flow_rx_bytes`
//! over all flows.

use super::ResultsFile;
use crate::error::CliError;

/// Refuses `r` when one of the sums above would pass `u64::MAX`.
pub(super) fn check(r: &ResultsFile) -> Result<(), CliError> {
    let past = |field: String, what: &str| {
        CliError::new(format!(
            "{field}: {what} add up past {} (2^64 - 1), more than any run counts: the file \
             was changed after it was written",
            u64::MAX
        ))
    };
    for (i, s) in r.stations.iter().enumerate() {
        if s.drops
            .values()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            .is_none()
        {
            let field = format!("stations[{i}].drops (station `{}`)", s.name);
            return Err(past(field, "the drops of its causes"));
        }
    }
    let mut pings = 0u64;
    for (i, f) in r.flows.iter().enumerate() {
        pings = pings
            .checked_add(f.pings_sent.unwrap_or(0))
            .ok_or_else(|| past(format!("flows[{i}].pings_sent"), "the run's ping requests"))?;
    }
    for (k, row) in r.series.flow_rx_bytes.iter().enumerate() {
        if row
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            .is_none()
        {
            let field = format!("series.flow_rx_bytes[{k}]");
            return Err(past(field, "the flows' byte counts"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::results::from_json;

    /// The udp-flood results file of the fuzz corpus (format 3), as JSON.
    fn fixture() -> serde_json::Value {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fuzz/corpus/results_file/udp-flood-anomaly-fifo-seed1.json"
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn load(v: &serde_json::Value) -> Result<(), String> {
        from_json(&v.to_string())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn counts_that_fit_load() {
        let mut v = fixture();
        v["stations"][0]["drops"] = serde_json::json!({ "a": u64::MAX - 1, "b": 1 });
        load(&v).unwrap();
    }

    #[test]
    fn drops_past_u64_max_are_refused_naming_the_station() {
        let mut v = fixture();
        v["stations"][1]["drops"] = serde_json::json!({ "a": u64::MAX, "b": 1 });
        let e = load(&v).unwrap_err();
        assert!(e.starts_with("stations[1].drops (station `"), "{e}");
        assert!(e.contains("add up past 18446744073709551615"), "{e}");
    }

    #[test]
    fn ping_requests_past_u64_max_are_refused_naming_the_flow() {
        let mut v = fixture();
        let flows = v["flows"].as_array_mut().unwrap();
        assert!(flows.len() >= 2);
        flows[0]["pings_sent"] = u64::MAX.into();
        flows[1]["pings_sent"] = 1.into();
        let e = load(&v).unwrap_err();
        assert!(e.starts_with("flows[1].pings_sent: "), "{e}");
    }

    #[test]
    fn flow_bytes_past_u64_max_at_a_sample_are_refused_naming_it() {
        let mut v = fixture();
        let rows = v["series"]["flow_rx_bytes"].as_array_mut().unwrap();
        let row = rows[3].as_array_mut().unwrap();
        assert!(row.len() >= 2);
        row[0] = u64::MAX.into();
        row[1] = 1.into();
        let e = load(&v).unwrap_err();
        assert!(e.starts_with("series.flow_rx_bytes[3]: "), "{e}");
    }
}
