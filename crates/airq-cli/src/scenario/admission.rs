//! `[ap.admission]` → the AP's soft admission control (`ApConfig::admission`, seed
//! netdev 2.2 §4.3, `airq::admission`). Off unless the table says `enabled = true`;
//! parameters without `enabled` are refused, so that a table written to turn it on
//! cannot silently leave it off. Like every parameter table it applies wherever its
//! layer is in use: with the FQ-MAC layer, whose sojourn it measures; a preset with the
//! legacy MAC runs without it (and its results' `ap_config` says so).

use super::ap_file::{AdmissionSection, ApSection, DemoteTo};
use super::location::{KeyPath, SourceMap};
use super::units;
use crate::error::CliError;
use airq::admission::AdmissionParams;
use airq::Ac;
use airq_sim::ap::{ApConfig, MacConfig};

/// Longest target, interval and promotion delay accepted: 1000 s.
const MAX_MS: f64 = 1e6;

/// Checks `[ap.admission]`, naming the key at fault.
pub fn check(section: &ApSection, map: &SourceMap) -> Result<(), CliError> {
    let Some(a) = &section.admission else {
        return Ok(());
    };
    let path = KeyPath::key("ap").join("admission");
    if a.enabled.is_none() {
        let given = [
            ("target_ms", a.target_ms.is_some()),
            ("interval_ms", a.interval_ms.is_some()),
            ("promote_after_ms", a.promote_after_ms.is_some()),
            ("mtu_bytes", a.mtu_bytes.is_some()),
            ("demote_to", a.demote_to.is_some()),
            ("flows", a.flows.is_some()),
        ];
        if let Some((k, _)) = given.iter().find(|(_, g)| *g) {
            return Err(map.error_at(
                &path.join(k),
                "set `enabled = true` to turn admission control on (or `false` to keep it off)",
            ));
        }
    }
    // Times in whole microseconds at least, as CoDel's in [ap.fq_mac].
    for (k, v) in [
        ("target_ms", a.target_ms),
        ("interval_ms", a.interval_ms),
        ("promote_after_ms", a.promote_after_ms),
    ] {
        if let Some(v) = v {
            if !(0.001..=MAX_MS).contains(&v) {
                return Err(map.error_at(
                    &path.join(k),
                    format!("must be 0.001 ms (1 us) to 1000 s, got {v}"),
                ));
            }
        }
    }
    if let Some(n) = a.flows {
        if n == 0 || n > AdmissionParams::MAX_FLOWS {
            return Err(map.error_at(
                &path.join("flows"),
                format!("must be 1 to {}, got {n}", AdmissionParams::MAX_FLOWS),
            ));
        }
    }
    Ok(())
}

/// Turns admission control on when the section enables it and the MAC is FQ-MAC.
pub fn apply(section: &ApSection, c: &mut ApConfig) {
    let Some(a) = &section.admission else {
        return;
    };
    if a.enabled == Some(true) && matches!(c.mac, MacConfig::FqMac(_)) {
        c.admission = Some(params(a));
    }
}

fn params(a: &AdmissionSection) -> AdmissionParams {
    let d = AdmissionParams::default();
    AdmissionParams {
        target: a.target_ms.map_or(d.target, units::from_ms),
        interval: a.interval_ms.map_or(d.interval, units::from_ms),
        promote_after: a.promote_after_ms.map_or(d.promote_after, units::from_ms),
        mtu_bytes: a.mtu_bytes.unwrap_or(d.mtu_bytes),
        demote_to: match a.demote_to {
            None => d.demote_to,
            Some(DemoteTo::Be) => Ac::Be,
            Some(DemoteTo::Bk) => Ac::Bk,
        },
        flows: a.flows.unwrap_or(d.flows),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn scenario(admission: &str) -> String {
        format!(
            "name = \"t\"\nduration = 1.0\n[ap.admission]\n{admission}\n[[station]]\n\
             name = \"a\"\nstandard = \"ht\"\nmcs = 7\n[[traffic]]\ntest = \"udp_flood\"\n"
        )
    }

    #[test]
    fn on_with_fq_mac_only_and_with_its_parameters() {
        let text = scenario("enabled = true\ntarget_ms = 2.5\ndemote_to = \"bk\"");
        let ap = parse("t.toml", &text, &[]).unwrap().ap;
        let p = ap.config("airtime").unwrap().admission.unwrap();
        assert_eq!(p.target, airq::Duration::from_micros(2500));
        assert_eq!(p.demote_to, Ac::Bk);
        assert_eq!(p.interval, AdmissionParams::default().interval);
        assert_eq!(ap.config("fifo").unwrap().admission, None, "legacy MAC");
        let off = parse("t.toml", &scenario("enabled = false"), &[])
            .unwrap()
            .ap;
        assert_eq!(off.config("airtime").unwrap().admission, None);
    }

    #[test]
    fn bad_values_name_file_line_and_key() {
        for (lines, key) in [
            ("target_ms = 5", "target_ms"),
            ("enabled = true\ninterval_ms = 0", "interval_ms"),
            (
                "enabled = true\npromote_after_ms = 1e308",
                "promote_after_ms",
            ),
            ("enabled = true\nflows = 0", "flows"),
        ] {
            let e = parse("t.toml", &scenario(lines), &[])
                .unwrap_err()
                .to_string();
            assert!(e.contains("t.toml:") && e.contains(key), "{lines}: {e}");
        }
        let e = parse(
            "t.toml",
            &scenario("enabled = true\ndemote_to = \"vi\""),
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("t.toml:") && e.contains("demote_to"), "{e}");
    }
}
