//! The scenario-key reference: every key of every table of the schema ([`super::file`],
//! [`super::ap_file`], [`super::variant`]) with its type, its default as validation
//! applies it, what it accepts, its unit and what it means. `airq list keys` prints it,
//! `airq list keys --markdown` prints docs/scenario-keys.md. Defaults are read from the
//! simulator's own constants (`airq_sim::ap::config`, `airq::fq`, `airq::aql`, ...), so
//! they follow the code; the tests below hold the reference to the schema itself (serde's
//! list of a table's fields, both ways) and the Markdown file to the reference.
//!
//! Layout: [`tables`] holds the data (one function per table), [`render`] prints it as
//! text or Markdown, `tests` holds it to the schema.

mod render;
mod tables;
#[cfg(test)]
mod tests;

pub use render::{markdown, text, wrap, TEXT_WIDTH};
pub use tables::tables;

use super::traffic::TESTS;
use airq::Duration;

/// The type of a key's value, as TOML writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    String,
    /// One of a fixed set of strings, refused by the schema itself when it is another.
    Choice(&'static [&'static str]),
    /// An integer or a float.
    Number,
    /// An integer.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// An array of strings.
    Strings,
    /// An array of numbers.
    Numbers,
    /// A number, or an array of [number, number] pairs (a schedule).
    NumberOrPairs,
    /// A table with keys of its own, documented as a table of the reference.
    Table,
    /// An array of tables, documented as a table of the reference.
    Tables,
    /// A table of any scenario keys (a variant's `set`).
    AnyKeys,
}

impl Kind {
    /// Its name in the reference.
    pub fn name(self) -> &'static str {
        match self {
            Kind::String | Kind::Choice(_) => "string",
            Kind::Number => "number",
            Kind::Integer => "integer",
            Kind::Boolean => "boolean",
            Kind::Strings => "array of strings",
            Kind::Numbers => "array of numbers",
            Kind::NumberOrPairs => "number or array of [s, dB] pairs",
            Kind::Table => "table",
            Kind::Tables => "array of tables",
            Kind::AnyKeys => "table of keys",
        }
    }
}

/// One key of a table.
#[derive(Clone, Debug)]
pub struct KeyDoc {
    /// Its name in its table.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
    /// Its unit, if it has one.
    pub unit: &'static str,
    /// What it is when it is not given (`required` when it must be).
    pub default: String,
    /// The values it accepts.
    pub allowed: String,
    /// A value it accepts, as TOML.
    pub example: &'static str,
    /// What it means, with the source of its default where there is one.
    pub meaning: String,
}

/// One table of the schema.
#[derive(Clone, Debug)]
pub struct TableDoc {
    /// Its path: `ap.fq_codel`, `station[]` for an array of tables, `` for the top level.
    pub path: &'static str,
    /// What it is.
    pub about: &'static str,
    /// Its keys, in the schema's order.
    pub keys: Vec<KeyDoc>,
}

impl TableDoc {
    /// The full path of its key `name`: `ap.fq_codel.target_ms`, `station[].mcs`.
    pub fn key_path(&self, name: &str) -> String {
        if self.path.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.path)
        }
    }

    /// How the scenario file writes its header: `[ap.fq_codel]`, `[[station]]`.
    pub fn header(&self) -> String {
        match self.path.strip_suffix("[]") {
            _ if self.path.is_empty() => "Top level".to_string(),
            Some(array) => format!("[[{array}]]"),
            None => format!("[{}]", self.path),
        }
    }
}

fn key(
    name: &'static str,
    kind: Kind,
    unit: &'static str,
    default: impl Into<String>,
    allowed: impl Into<String>,
    example: &'static str,
    meaning: impl Into<String>,
) -> KeyDoc {
    let allowed = match kind {
        Kind::Choice(values) => values.join(", "),
        _ => allowed.into(),
    };
    KeyDoc {
        name,
        kind,
        unit,
        default: default.into(),
        allowed,
        example,
        meaning: meaning.into(),
    }
}

/// `d` in milliseconds, without trailing zeros.
fn ms(d: Duration) -> String {
    number(d.as_nanos() as f64 / 1e6)
}

/// `x` as the shortest decimal that reads back as it.
fn number(x: f64) -> String {
    format!("{x}")
}

/// The tests among [`TESTS`] that take `key`.
fn tests_taking(key: &str) -> String {
    let names: Vec<&str> = TESTS
        .iter()
        .filter(|t| t.keys.contains(&key))
        .map(|t| t.name)
        .collect();
    format!("Tests: {}.", names.join(", "))
}
