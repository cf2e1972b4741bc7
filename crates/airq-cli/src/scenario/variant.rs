//! Variants: named AP configurations a comparison runs side by side — a preset and
//! changes to any scenario key — from the scenario's `[[variant]]` tables or from
//! `--variant NAME:key=value,...` on the command line. The name labels everything a run
//! writes (tables, results files, plots, JSON, flent files).
//!
//! ```toml
//! [[variant]]
//! name = "fq_codel+airtime"          # letters, digits and - _ . + =
//! preset = "fifo"                    # default: the scenario's [ap] preset
//! set = { "ap.qdisc" = "fq_codel", "ap.scheduler" = "airtime" }
//! ```

use super::location::{KeyPath, SourceMap};
use super::overrides::Override;
use crate::error::CliError;
use airq_sim::ap::PRESET_NAMES;
use serde::Deserialize;

/// Longest variant name: it goes into file names.
pub const MAX_NAME_LEN: usize = 64;

/// Keys a variant may not change: they are the run's, not the AP's configuration.
const RUN_KEYS: [&str; 6] = ["name", "description", "seed", "duration", "step", "variant"];

/// A `[[variant]]` table as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSection {
    /// Labels the variant's runs.
    pub name: String,
    /// The AP preset it starts from (default: the scenario's).
    pub preset: Option<String>,
    /// Scenario keys it changes, as `--set` would: `"ap.qdisc" = "fq_codel"`, or nested
    /// tables (`ap = { qdisc = "fq_codel" }`).
    #[serde(default)]
    pub set: toml::Table,
}

/// A checked variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Its name.
    pub name: String,
    /// The AP preset it starts from; `None`: the scenario's.
    pub preset: Option<String>,
    /// Its changes, `key.path=value`, applied after the command line's `--set`s.
    pub set: Vec<String>,
    /// Where it was defined: `file:line`, or `--variant`.
    pub origin: String,
}

impl Variant {
    /// The variant that is a preset unchanged.
    pub fn preset(name: &str) -> Variant {
        Variant {
            name: name.to_string(),
            preset: Some(name.to_string()),
            set: Vec::new(),
            origin: "--configs".to_string(),
        }
    }

    /// Its changes as overrides, each saying it comes from this variant.
    pub fn overrides(&self) -> Result<Vec<Override>, CliError> {
        let source = format!("variant `{}` ({}):", self.name, self.origin);
        self.set
            .iter()
            .map(|raw| Override::parse_from(raw, &source))
            .collect()
    }
}

/// Checks the scenario's `[[variant]]` tables: names, presets and the keys they set.
pub fn check_all(sections: &[VariantSection], map: &SourceMap) -> Result<Vec<Variant>, CliError> {
    let mut variants: Vec<Variant> = Vec::with_capacity(sections.len());
    for (i, v) in sections.iter().enumerate() {
        let path = KeyPath::entry("variant", i);
        let at = |key: &str, why: String| map.error_at(&path.join(key), why);
        check_name(&v.name).map_err(|why| at("name", why))?;
        if variants.iter().any(|o| o.name == v.name) {
            return Err(at("name", format!("a second variant `{}`", v.name)));
        }
        if let Some(p) = &v.preset {
            check_preset(p).map_err(|why| at("preset", why))?;
        }
        let mut set = Vec::new();
        flatten(&v.set, "", &mut set);
        for raw in &set {
            check_key(raw).map_err(|why| at("set", why))?;
            Override::parse(raw).map_err(|e| at("set", e.message().to_string()))?;
        }
        variants.push(Variant {
            name: v.name.clone(),
            preset: v.preset.clone(),
            set,
            origin: map.origin(&path),
        });
    }
    Ok(variants)
}

/// `--variant SPEC`: `NAME` (a `[[variant]]` of the scenario, or a preset) or
/// `NAME:key=value,key=value,...` (`preset=P` names the preset it starts from).
pub fn from_command_line(spec: &str, defined: &[Variant]) -> Result<Variant, CliError> {
    let bad = |why: String| CliError::new(format!("--variant {spec}: {why}"));
    let (name, changes) = match spec.split_once(':') {
        Some((name, changes)) => (name.trim(), Some(changes)),
        None => (spec.trim(), None),
    };
    check_name(name).map_err(bad)?;
    let Some(changes) = changes else {
        if let Some(v) = defined.iter().find(|v| v.name == name) {
            return Ok(v.clone());
        }
        if PRESET_NAMES.contains(&name) {
            return Ok(Variant::preset(name));
        }
        let names: Vec<&str> = defined.iter().map(|v| v.name.as_str()).collect();
        return Err(bad(format!(
            "no variant `{name}` in the scenario ({}) and no preset of that name ({}); \
             define one here with `{name}:key=value,...`",
            if names.is_empty() {
                "it has none".to_string()
            } else {
                names.join(", ")
            },
            PRESET_NAMES.join(", ")
        )));
    };
    if defined.iter().any(|v| v.name == name) {
        return Err(bad(format!(
            "the scenario already has a variant `{name}`: give this one another name"
        )));
    }
    let mut preset = None;
    let mut set = Vec::new();
    for change in split_top_level(changes) {
        let change = change.trim();
        match change.split_once('=') {
            Some((key, value)) if key.trim() == "preset" => {
                let value = value.trim().trim_matches('"');
                check_preset(value).map_err(bad)?;
                preset = Some(value.to_string());
            }
            _ => {
                check_key(change).map_err(bad)?;
                Override::parse_from(change, &format!("--variant {name}:"))?;
                set.push(change.to_string());
            }
        }
    }
    Ok(Variant {
        name: name.to_string(),
        preset,
        set,
        origin: "--variant".to_string(),
    })
}

/// A name that can go into a file name and a table header.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return Err(format!(
            "a variant's name is 1 to {MAX_NAME_LEN} characters, got {}",
            name.len()
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+' | '='))
    {
        return Err(format!(
            "`{name}`: a variant's name has letters, digits, `-`, `_`, `.`, `+` and `=` only \
             (it names files)"
        ));
    }
    Ok(())
}

fn check_preset(name: &str) -> Result<(), String> {
    if PRESET_NAMES.contains(&name) {
        return Ok(());
    }
    Err(format!(
        "no preset `{name}`; presets: {}",
        PRESET_NAMES.join(", ")
    ))
}

/// A variant changes configuration, not the run: refuses seed, duration and the like,
/// and `ap.preset` (the variant's own `preset` says that).
fn check_key(raw: &str) -> Result<(), String> {
    let key = raw.split_once('=').map_or(raw, |(k, _)| k).trim();
    let first = key.split('.').next().unwrap_or(key);
    if RUN_KEYS.contains(&first) {
        return Err(format!(
            "`{key}`: a variant changes the configuration, not the run ({} are the run's: \
             give them with --set, --seed or --duration)",
            RUN_KEYS.join(", ")
        ));
    }
    if key == "ap.preset" {
        return Err("`ap.preset`: give the variant's `preset` instead".to_string());
    }
    Ok(())
}

/// `key.path=value` for every leaf of `table` (nested tables become dotted paths).
fn flatten(table: &toml::Table, prefix: &str, out: &mut Vec<String>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::Table(t) => flatten(t, &path, out),
            v => out.push(format!("{path}={v}")),
        }
    }
}

/// `a=1,b=[1, 2],c="x,y"` split at the commas outside brackets and quotes.
pub fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defined() -> Vec<Variant> {
        vec![Variant {
            name: "mine".into(),
            preset: Some("fifo".into()),
            set: vec!["ap.qdisc=\"fq_codel\"".into()],
            origin: "s.toml:9".into(),
        }]
    }

    #[test]
    fn command_line_variants_name_a_defined_one_a_preset_or_define_one() {
        assert_eq!(from_command_line("mine", &defined()).unwrap(), defined()[0]);
        assert_eq!(
            from_command_line("fq_mac", &defined()).unwrap(),
            Variant::preset("fq_mac")
        );
        let v = from_command_line(
            "t5:preset=airtime,ap.fq_mac.target_ms=5,ap.group.0.stations=[\"a\", \"b\"]",
            &defined(),
        )
        .unwrap();
        assert_eq!(v.preset.as_deref(), Some("airtime"));
        assert_eq!(
            v.set,
            [
                "ap.fq_mac.target_ms=5",
                "ap.group.0.stations=[\"a\", \"b\"]"
            ]
        );
    }

    #[test]
    fn bad_command_line_variants_say_why() {
        let e = |s: &str| from_command_line(s, &defined()).unwrap_err().to_string();
        assert!(e("nope").contains("no variant `nope`"), "{}", e("nope"));
        assert!(e("mine:ap.qdisc=none").contains("already has a variant `mine`"));
        assert!(e("x:preset=fastest").contains("no preset `fastest`"));
        assert!(e("x:seed=3").contains("not the run"));
        assert!(e("x:ap.preset=fifo").contains("variant's `preset`"));
        assert!(e("a/b:ap.qdisc=none").contains("letters, digits"));
        assert!(e("x:ap..q=1").contains("empty key"), "{}", e("x:ap..q=1"));
    }

    #[test]
    fn nested_tables_in_set_become_dotted_paths() {
        let table: toml::Table =
            toml::from_str("\"ap.qdisc\" = \"fq_codel\"\nap = { fq_mac = { target_ms = 5.0 } }\n")
                .unwrap();
        let mut out = Vec::new();
        flatten(&table, "", &mut out);
        assert_eq!(out, ["ap.fq_mac.target_ms=5.0", "ap.qdisc=\"fq_codel\""]);
    }
}
