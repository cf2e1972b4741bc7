//! CoDel's integer control law, `next = t + interval / sqrt(count)` (RFC 8289 §4.4, §5.6),
//! computed as Linux does (`codel_impl.h`: `codel_Newton_step`, `codel_control_law`).
//!
//! Linux keeps `1/sqrt(count)` as a Q0.32 fixed-point number and refines it with one
//! Newton–Raphson step for the reciprocal square root each time `count` changes:
//! `x' = x/2 · (3 − count·x²)`. One step per increment is exact for large counts but
//! approximate for the first few (count 2 gives 0.5, not 0.707) — the schedule of the
//! first drops is therefore a little faster than the RFC's floating-point pseudocode.
//! We keep all 32 fraction bits (Linux stores 16 to save memory).

use crate::time::{Duration, Instant};

/// `1/sqrt(1)` in Q0.32: the largest value, as Linux's `~0U`.
pub(crate) const REC_INV_SQRT_ONE: u32 = u32::MAX;

/// One Newton step of `x = 1/sqrt(count)` in Q0.32.
pub(crate) fn newton_step(rec_inv_sqrt: u32, count: u32) -> u32 {
    let x = u64::from(rec_inv_sqrt);
    let x2 = (x * x) >> 32;
    // 3 − count·x², in Q32.32; saturates rather than wraps if the estimate is far off.
    let val = (3u64 << 32).saturating_sub(u64::from(count) * x2);
    // Divide by 4 first to keep the product in 64 bits, then undo it together with the /2.
    let next = ((val >> 2) * x) >> (32 - 2 + 1);
    next.min(u64::from(u32::MAX)) as u32
}

/// `t + interval · rec_inv_sqrt` with `rec_inv_sqrt` in Q0.32.
pub(crate) fn control_law(t: Instant, interval: Duration, rec_inv_sqrt: u32) -> Instant {
    let scaled = (u128::from(interval.as_nanos()) * u128::from(rec_inv_sqrt)) >> 32;
    t + Duration::from_nanos(scaled as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn as_f64(q32: u32) -> f64 {
        f64::from(q32) / 4_294_967_296.0
    }

    #[test]
    fn first_steps_follow_the_newton_recurrence() {
        // Hand computation of x' = x/2·(3 − n·x²) from x = 1:
        // n=2: 0.5·(3−2) = 0.5; n=3: 0.25·(3−0.75) = 0.5625;
        // n=4: 0.28125·(3−4·0.31640625) = 0.48779296875.
        let x2 = newton_step(REC_INV_SQRT_ONE, 2);
        let x3 = newton_step(x2, 3);
        let x4 = newton_step(x3, 4);
        assert!((as_f64(x2) - 0.5).abs() < 1e-6);
        assert!((as_f64(x3) - 0.5625).abs() < 1e-6);
        assert!((as_f64(x4) - 0.487_792_968_75).abs() < 1e-6);
    }

    #[test]
    fn converges_to_reciprocal_square_root() {
        // RFC 8289 §5.6: the interval shrinks as 1/sqrt(count).
        let mut x = REC_INV_SQRT_ONE;
        for n in 2..=10_000u32 {
            x = newton_step(x, n);
            if n >= 20 {
                let exact = 1.0 / f64::from(n).sqrt();
                assert!(
                    (as_f64(x) - exact).abs() / exact < 0.01,
                    "count {n}: {} vs {exact}",
                    as_f64(x)
                );
            }
        }
    }

    #[test]
    fn control_law_scales_interval() {
        let t = Instant::from_millis(1000);
        let interval = Duration::from_millis(100);
        assert_eq!(
            control_law(t, interval, 1 << 31),
            Instant::from_millis(1050)
        );
        let one = control_law(t, interval, REC_INV_SQRT_ONE);
        assert!(
            one <= Instant::from_millis(1100)
                && one >= Instant::from_millis(1100) - Duration::from_nanos(1)
        );
    }
}
