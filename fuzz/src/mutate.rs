//! Mutations for the stable-toolchain harness: what libFuzzer's own mutators do to a
//! seed, in small — bits flipped, bytes set to boundary values, ranges erased,
//! duplicated or spliced in from another seed — plus, for text, a number or a word
//! replaced by a hostile one (NaN, infinities, `u64::MAX`, `1e308`, a huge count), which
//! byte mutations rarely produce whole. Deterministic for a seed ([`Rng`]).

/// xorshift64*: enough to pick mutations, reproducible for a seed.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value; 0 is moved off the fixed point).
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Tokens put in place of a number or a word of a text input.
const HOSTILE: &[&str] = &[
    "0",
    "-1",
    "1",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "1e308",
    "-1e308",
    "1e-300",
    "5e-324",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e999",
    "0.0",
    "-0.0",
    "1e9",
    "1e13",
    "200000",
    "10000000",
    "\"\"",
    "\"x\"",
    "true",
    "null",
    "[]",
    "{}",
    "[[]]",
    "\"../x\"",
];

/// Bytes a mutated byte is set to: the boundaries of each width, and ASCII that
/// changes how text is read.
const BOUNDARY: &[u8] = &[
    0, 1, 0x7f, 0x80, 0xff, b'"', b'[', b']', b'{', b'}', b'=', b'\n',
];

/// `data` mutated one to four times; `other` is another seed to splice from.
pub fn mutate(data: &[u8], other: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = data.to_vec();
    for _ in 0..1 + rng.below(4) {
        once(&mut out, other, rng);
    }
    out
}

fn once(out: &mut Vec<u8>, other: &[u8], rng: &mut Rng) {
    let at = rng.below(out.len() + 1);
    match rng.below(8) {
        0 if !out.is_empty() => {
            let i = rng.below(out.len());
            out[i] ^= 1 << rng.below(8);
        }
        1 if !out.is_empty() => {
            let i = rng.below(out.len());
            out[i] = BOUNDARY[rng.below(BOUNDARY.len())];
        }
        2 => {
            let end = (at + 1 + rng.below(64)).min(out.len());
            out.drain(at.min(end)..end);
        }
        3 if !out.is_empty() => {
            let start = rng.below(out.len());
            let end = (start + 1 + rng.below(256)).min(out.len());
            let chunk = out[start..end].to_vec();
            out.splice(at..at, chunk);
        }
        4 if !other.is_empty() => {
            let start = rng.below(other.len());
            let end = (start + 1 + rng.below(256)).min(other.len());
            out.splice(at..at, other[start..end].iter().copied());
        }
        5 => {
            let end = at + rng.below(out.len() - at + 1);
            out.truncate(end.max(at));
        }
        _ => replace_token(out, rng),
    }
}

/// Replaces a number or a word (a run of `[A-Za-z0-9_.+-]`) by a hostile token.
fn replace_token(out: &mut Vec<u8>, rng: &mut Rng) {
    let word = |b: u8| b.is_ascii_alphanumeric() || b"_.+-".contains(&b);
    let starts: Vec<usize> = (0..out.len())
        .filter(|&i| word(out[i]) && (i == 0 || !word(out[i - 1])))
        .collect();
    if starts.is_empty() {
        return;
    }
    // Numbers more often than words: most keys take one.
    let numeric: Vec<usize> = starts
        .iter()
        .copied()
        .filter(|&i| out[i].is_ascii_digit() || out[i] == b'-')
        .collect();
    let pool = if !numeric.is_empty() && rng.below(4) != 0 {
        &numeric
    } else {
        &starts
    };
    let start = pool[rng.below(pool.len())];
    let end = (start..out.len())
        .find(|&i| !word(out[i]))
        .unwrap_or(out.len());
    let token = HOSTILE[rng.below(HOSTILE.len())].as_bytes();
    out.splice(start..end, token.iter().copied());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_mutants() {
        let data = b"[run]\nduration_s = 30\nseed = 1\n";
        let a: Vec<_> = (0..50)
            .scan(Rng::new(7), |r, _| Some(mutate(data, b"x", r)))
            .collect();
        let b: Vec<_> = (0..50)
            .scan(Rng::new(7), |r, _| Some(mutate(data, b"x", r)))
            .collect();
        assert_eq!(a, b);
        assert!(a.iter().any(|m| m.as_slice() != data));
    }

    #[test]
    fn a_token_is_replaced_whole() {
        let mut rng = Rng::new(1);
        let mut seen_hostile = false;
        for _ in 0..200 {
            let mut out = b"count = 12\n".to_vec();
            replace_token(&mut out, &mut rng);
            let text = String::from_utf8(out).unwrap();
            seen_hostile |= HOSTILE.iter().any(|h| text == format!("count = {h}\n"));
        }
        assert!(seen_hostile);
    }
}
