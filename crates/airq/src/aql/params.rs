//! Parameters of Airtime Queue Limits: the per-station, per-AC `aql_limit_low` and
//! `aql_limit_high`, the interface-wide `aql_threshold`, the enable switches, the
//! airtime estimator and the optional self-tuning of the limits.
//!
//! Defaults are those of Linux mac80211 (`include/net/cfg80211.h`
//! `IEEE80211_DEFAULT_AQL_TXQ_LIMIT_L`/`_H` and `IEEE80211_AQL_THRESHOLD`, applied to all
//! four ACs in `ieee80211_alloc_hw_nm`, main.c): 5000 µs, 12000 µs and 24000 µs.

use core::fmt;

use super::estimate::AirtimeEstimator;
use super::self_tuning::SelfTuningParams;
use crate::ids::Ac;

/// `IEEE80211_DEFAULT_AQL_TXQ_LIMIT_L`: a station-AC may always have this much airtime
/// pending in the hardware.
pub const DEFAULT_AQL_LIMIT_LOW_US: u32 = 5_000;
/// `IEEE80211_DEFAULT_AQL_TXQ_LIMIT_H`: a station-AC may have this much pending while the
/// interface total is below the threshold.
pub const DEFAULT_AQL_LIMIT_HIGH_US: u32 = 12_000;
/// `IEEE80211_AQL_THRESHOLD`: interface-wide pending airtime above which every station
/// is held to its low limit.
pub const DEFAULT_AQL_THRESHOLD_US: u32 = 24_000;

/// The pair of limits one station-AC is gated by (mac80211 `sta->airtime[ac]
/// .aql_limit_low/high`, written per station through debugfs `aql`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AqlLimits {
    pub aql_limit_low_us: u32,
    pub aql_limit_high_us: u32,
}

impl AqlLimits {
    /// The kernel's defaults, 5000 / 12000 µs.
    pub const DEFAULT: AqlLimits = AqlLimits {
        aql_limit_low_us: DEFAULT_AQL_LIMIT_LOW_US,
        aql_limit_high_us: DEFAULT_AQL_LIMIT_HIGH_US,
    };

    /// Both non-zero and low ≤ high.
    pub fn validate(&self, ac: Ac) -> Result<(), AqlParamsError> {
        let err = |field, reason| Err(AqlParamsError::new(field, Some(ac), reason));
        if self.aql_limit_low_us == 0 {
            return err("aql_limit_low_us", "must be non-zero");
        }
        if self.aql_limit_high_us == 0 {
            return err("aql_limit_high_us", "must be non-zero");
        }
        if self.aql_limit_low_us > self.aql_limit_high_us {
            return err("aql_limit_low_us", "must not exceed aql_limit_high_us");
        }
        Ok(())
    }
}

/// Configuration of [`super::Aql`] for one radio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AqlParams {
    /// Per-AC limits new stations start with (indexed by [`Ac::index`]); the same for
    /// all four ACs by default, as in the kernel.
    pub limits: [AqlLimits; Ac::COUNT],
    /// Interface-wide pending airtime, all stations and ACs, above which stations are
    /// held to their low limit.
    pub aql_threshold_us: u32,
    /// The driver supports AQL (`NL80211_EXT_FEATURE_AQL`). When false both gates always
    /// allow; accounting still runs.
    pub enabled: bool,
    /// The debugfs `aql_enable` switch. When false the station gate always allows but,
    /// as in the kernel (which tests only the ext-feature there), the per-AC PHY gate
    /// stays in force.
    pub station_gate_enabled: bool,
    /// How a packet's airtime is estimated at dequeue.
    pub estimator: AirtimeEstimator,
    /// Tune each station-AC's limit from completions ([`super::self_tuning`]); `None`
    /// (the default) gates exactly as the kernel does.
    pub self_tuning: Option<SelfTuningParams>,
}

impl Default for AqlParams {
    fn default() -> Self {
        AqlParams {
            limits: [AqlLimits::DEFAULT; Ac::COUNT],
            aql_threshold_us: DEFAULT_AQL_THRESHOLD_US,
            enabled: true,
            station_gate_enabled: true,
            estimator: AirtimeEstimator::default(),
            self_tuning: None,
        }
    }
}

impl AqlParams {
    /// Checks every field; the error names the first offending one.
    pub fn validate(&self) -> Result<(), AqlParamsError> {
        for ac in Ac::ALL {
            self.limits[ac.index()].validate(ac)?;
        }
        if self.aql_threshold_us == 0 {
            return Err(AqlParamsError::new(
                "aql_threshold_us",
                None,
                "must be non-zero",
            ));
        }
        self.estimator.validate()?;
        if let Some(tuning) = &self.self_tuning {
            tuning.validate(&self.limits)?;
        }
        Ok(())
    }
}

/// An invalid parameter: which field (and AC, for per-AC fields) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AqlParamsError {
    pub field: &'static str,
    pub ac: Option<Ac>,
    pub reason: &'static str,
}

impl AqlParamsError {
    pub const fn new(field: &'static str, ac: Option<Ac>, reason: &'static str) -> Self {
        AqlParamsError { field, ac, reason }
    }
}

impl fmt::Display for AqlParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ac {
            Some(ac) => write!(f, "{}[{}]: {}", self.field, ac, self.reason),
            None => write!(f, "{}: {}", self.field, self.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn defaults_are_the_kernels_and_valid() {
        let p = AqlParams::default();
        assert!(p.validate().is_ok());
        for ac in Ac::ALL {
            assert_eq!(p.limits[ac.index()].aql_limit_low_us, 5_000);
            assert_eq!(p.limits[ac.index()].aql_limit_high_us, 12_000);
        }
        assert_eq!(p.aql_threshold_us, 24_000);
        assert!(p.enabled && p.station_gate_enabled && p.self_tuning.is_none());
    }

    #[test]
    fn errors_name_the_field() {
        let mut p = AqlParams::default();
        p.limits[Ac::Be.index()].aql_limit_low_us = 13_000;
        let e = p.validate().unwrap_err();
        assert_eq!(
            e.to_string(),
            "aql_limit_low_us[BE]: must not exceed aql_limit_high_us"
        );

        let mut p = AqlParams::default();
        p.limits[Ac::Vo.index()].aql_limit_high_us = 0;
        assert_eq!(p.validate().unwrap_err().field, "aql_limit_high_us");

        let p = AqlParams {
            aql_threshold_us: 0,
            ..AqlParams::default()
        };
        assert_eq!(
            p.validate().unwrap_err().to_string(),
            "aql_threshold_us: must be non-zero"
        );
    }

    #[test]
    fn low_equal_to_high_is_allowed() {
        let limits = AqlLimits {
            aql_limit_low_us: 4_000,
            aql_limit_high_us: 4_000,
        };
        assert!(limits.validate(Ac::Bk).is_ok());
    }
}
