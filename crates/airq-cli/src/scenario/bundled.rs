//! The scenarios that ship with airq, built into the binary: `airq run
//! ending-the-anomaly` and `airq list scenarios` work from any folder, with an
//! installed binary too. A file of that name in the current folder wins.

/// `(name, text)` of every scenario in the repository's `scenarios/` folder.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "aggregate-sizing",
        include_str!("../../../../scenarios/aggregate-sizing.toml"),
    ),
    (
        "airtime-weights",
        include_str!("../../../../scenarios/airtime-weights.toml"),
    ),
    (
        "aql-firmware",
        include_str!("../../../../scenarios/aql-firmware.toml"),
    ),
    (
        "emulation-mix",
        include_str!("../../../../scenarios/emulation-mix.toml"),
    ),
    (
        "ending-the-anomaly",
        include_str!("../../../../scenarios/ending-the-anomaly.toml"),
    ),
    (
        "frame-quantum",
        include_str!("../../../../scenarios/frame-quantum.toml"),
    ),
    (
        "guest-limit",
        include_str!("../../../../scenarios/guest-limit.toml"),
    ),
    (
        "just-in-time",
        include_str!("../../../../scenarios/just-in-time.toml"),
    ),
    (
        "near-far",
        include_str!("../../../../scenarios/near-far.toml"),
    ),
    (
        "qos-aggregates",
        include_str!("../../../../scenarios/qos-aggregates.toml"),
    ),
    (
        "rate-vs-range",
        include_str!("../../../../scenarios/rate-vs-range.toml"),
    ),
    (
        "retry-time-limit",
        include_str!("../../../../scenarios/retry-time-limit.toml"),
    ),
    (
        "soft-admission",
        include_str!("../../../../scenarios/soft-admission.toml"),
    ),
    (
        "sparse-station",
        include_str!("../../../../scenarios/sparse-station.toml"),
    ),
    (
        "station-first",
        include_str!("../../../../scenarios/station-first.toml"),
    ),
    (
        "thirty-stations",
        include_str!("../../../../scenarios/thirty-stations.toml"),
    ),
    (
        "udp-flood-anomaly",
        include_str!("../../../../scenarios/udp-flood-anomaly.toml"),
    ),
    (
        "voip-qos",
        include_str!("../../../../scenarios/voip-qos.toml"),
    ),
    (
        "web-page-load",
        include_str!("../../../../scenarios/web-page-load.toml"),
    ),
];

/// The text of the bundled scenario `name` (with or without `.toml`; no folder).
pub fn find(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix(".toml").unwrap_or(name);
    BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_scenarios_folder_is_bundled() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .collect();
        names.sort();
        let mut bundled: Vec<String> = BUNDLED.iter().map(|(n, _)| format!("{n}.toml")).collect();
        bundled.sort();
        assert_eq!(names, bundled, "add new scenario files to BUNDLED");
        assert!(find("ending-the-anomaly.toml").is_some());
        assert!(find("scenarios/ending-the-anomaly").is_none());
    }
}
