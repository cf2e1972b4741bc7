//! `--set key.path=value`: changes to a scenario made on the command line, applied to the
//! parsed TOML document before it is validated, so an override is checked exactly like
//! the file. Paths use dots and 0-based indices into arrays of tables
//! (`station.1.mcs=7` is the second `[[station]]`); the value is TOML (`7`, `true`,
//! `["a", "b"]`, `"text"`), and a bare word is taken as a string (`ap.preset=fifo`).

use super::location::{KeyPath, Seg};
use crate::error::CliError;
use toml_edit::{DocumentMut, Item, Table, Value};

/// One `--set` override (or one key of a variant's `set`).
#[derive(Clone, Debug)]
pub struct Override {
    /// Who asked for it, for messages: `--set`, or `variant `NAME``.
    pub source: String,
    /// `key.path=value`, as given.
    pub raw: String,
    /// Where it goes.
    pub path: KeyPath,
    /// The value, as TOML.
    pub value: Value,
}

impl Override {
    /// Parses `key.path=value` given with `--set`.
    pub fn parse(raw: &str) -> Result<Override, CliError> {
        Override::parse_from(raw, "--set")
    }

    /// Parses `key.path=value` that `source` asks for.
    pub fn parse_from(raw: &str, source: &str) -> Result<Override, CliError> {
        let bad = |why: &str| CliError::new(format!("{source} {raw}: {why}"));
        let (path, value) = raw
            .split_once('=')
            .ok_or_else(|| bad("expected key.path=value"))?;
        let mut segs = Vec::new();
        for part in path.trim().split('.') {
            if part.is_empty() {
                return Err(bad("empty key in the path"));
            }
            if let Ok(i) = part.parse::<usize>() {
                segs.push(Seg::Index(i));
            } else if part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                segs.push(Seg::Key(part.to_string()));
            } else {
                return Err(bad(&format!("`{part}` is not a key")));
            }
        }
        if !matches!(segs.first(), Some(Seg::Key(_))) {
            return Err(bad("the path must start with a key"));
        }
        let value = value.trim();
        let value = value
            .parse::<Value>()
            .unwrap_or_else(|_| Value::from(value));
        Ok(Override {
            source: source.to_string(),
            raw: raw.to_string(),
            path: KeyPath(segs),
            value,
        })
    }
}

/// `text` with every override applied in order; the error names the override whose path
/// does not fit the document.
pub fn apply(text: &str, overrides: &[Override]) -> Result<String, CliError> {
    if overrides.is_empty() {
        return Ok(text.to_string());
    }
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| CliError::new(e.to_string()))?;
    for o in overrides {
        set(doc.as_item_mut(), &o.path.0, &o.value, &mut Vec::new())
            .map_err(|why| CliError::new(format!("{} {}: {why}", o.source, o.raw)))?;
    }
    Ok(doc.to_string())
}

fn set(item: &mut Item, path: &[Seg], value: &Value, done: &mut Vec<Seg>) -> Result<(), String> {
    let Some((seg, rest)) = path.split_first() else {
        *item = Item::Value(value.clone());
        return Ok(());
    };
    let here = KeyPath(done.clone());
    let shown = if done.is_empty() {
        "the document".to_string()
    } else {
        format!("`{here}`")
    };
    // An entry of an array of tables may be named instead of numbered:
    // `station.slow.mcs` is the `[[station]]` whose `name` is `slow`.
    if let (Seg::Key(k), Item::ArrayOfTables(a)) = (seg, &*item) {
        let names: Vec<&str> = a
            .iter()
            .filter_map(|t| t.get("name").and_then(|n| n.as_str()))
            .collect();
        let Some(i) = names.iter().position(|n| n == k) else {
            return Err(format!(
                "{shown} is a list of tables: name an entry by its `name` ({}) or its index \
                 from 0",
                if names.is_empty() {
                    "none has one".to_string()
                } else {
                    names.join(", ")
                }
            ));
        };
        let mut path = vec![Seg::Index(i)];
        path.extend_from_slice(rest);
        return set(item, &path, value, done);
    }
    done.push(seg.clone());
    match seg {
        Seg::Key(k) => {
            let type_name = item.type_name();
            let table = item
                .as_table_like_mut()
                .ok_or_else(|| format!("{shown} is {type_name}, not a table"))?;
            if rest.is_empty() {
                // Keeps the key's place, and so every line of the file.
                table.insert(k, Item::Value(value.clone()));
                return Ok(());
            }
            if table.get(k).is_none() {
                table.insert(k, Item::Table(Table::new()));
            }
            let child = table.get_mut(k).expect("inserted above");
            set(child, rest, value, done)
        }
        Seg::Index(i) => {
            let len = match item {
                Item::ArrayOfTables(a) => a.len(),
                Item::Value(Value::Array(a)) => a.len(),
                _ => return Err(format!("{shown} is {}, not an array", item.type_name())),
            };
            if *i >= len {
                let range = match len {
                    0 => "none".to_string(),
                    1 => "index 0".to_string(),
                    n => format!("indices 0 to {}", n - 1),
                };
                return Err(format!("{shown} has {len} entries ({range})"));
            }
            match item {
                Item::ArrayOfTables(a) => {
                    let mut child = Item::Table(a.get(*i).expect("in range").clone());
                    set(&mut child, rest, value, done)?;
                    let table = child
                        .into_table()
                        .map_err(|_| format!("`{}` must stay a table", KeyPath(done.clone())))?;
                    *a.get_mut(*i).expect("in range") = table;
                    Ok(())
                }
                Item::Value(Value::Array(a)) => {
                    let mut child = Item::Value(a.get(*i).expect("in range").clone());
                    set(&mut child, rest, value, done)?;
                    let v = child
                        .into_value()
                        .map_err(|_| format!("`{}` must stay a value", KeyPath(done.clone())))?;
                    a.replace(*i, v);
                    Ok(())
                }
                _ => unreachable!("checked above"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "duration = 30.0\n\n[ap]\npreset = \"airtime\"\n\n[[station]]\nmcs = 15\n\n[[station]]\nmcs = 0\n";

    fn applied(sets: &[&str]) -> Result<String, CliError> {
        let o: Result<Vec<_>, _> = sets.iter().map(|s| Override::parse(s)).collect();
        apply(TEXT, &o?)
    }

    #[test]
    fn overrides_change_values_in_place() {
        let out = applied(&["duration=5", "station.1.mcs=7", "ap.preset=fifo"]).unwrap();
        let doc: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(doc["duration"].as_integer(), Some(5));
        assert_eq!(doc["ap"]["preset"].as_str(), Some("fifo"));
        assert_eq!(doc["station"][1]["mcs"].as_integer(), Some(7));
        assert_eq!(doc["station"][0]["mcs"].as_integer(), Some(15));
        // Lines stay where they were, so errors still point into the user's file.
        assert_eq!(out.lines().count(), TEXT.lines().count());
    }

    #[test]
    fn entries_of_a_list_of_tables_are_named_or_numbered() {
        let text =
            "[[station]]\nname = \"fast\"\nmcs = 15\n\n[[station]]\nname = \"slow\"\nmcs = 0\n";
        let o = [Override::parse("station.slow.mcs=3").unwrap()];
        let doc: toml::Table = toml::from_str(&apply(text, &o).unwrap()).unwrap();
        assert_eq!(doc["station"][1]["mcs"].as_integer(), Some(3));
        assert_eq!(doc["station"][0]["mcs"].as_integer(), Some(15));
        let o = [Override::parse("station.medium.mcs=3").unwrap()];
        assert_eq!(
            apply(text, &o).unwrap_err().message(),
            "--set station.medium.mcs=3: `station` is a list of tables: name an entry by its \
             `name` (fast, slow) or its index from 0"
        );
    }

    #[test]
    fn new_keys_and_tables_are_created() {
        let out = applied(&["seed=9", "wired.delay_ms=3.5"]).unwrap();
        let doc: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(doc["seed"].as_integer(), Some(9));
        assert_eq!(doc["wired"]["delay_ms"].as_float(), Some(3.5));
    }

    #[test]
    fn bad_paths_are_named() {
        let e = applied(&["station.5.mcs=7"]).unwrap_err();
        assert_eq!(
            e.message(),
            "--set station.5.mcs=7: `station` has 2 entries (indices 0 to 1)"
        );
        let e = applied(&["duration.x=1"]).unwrap_err();
        assert_eq!(
            e.message(),
            "--set duration.x=1: `duration` is float, not a table"
        );
        let e = applied(&["ap.preset.0=1"]).unwrap_err();
        assert_eq!(
            e.message(),
            "--set ap.preset.0=1: `ap.preset` is string, not an array"
        );
        let e = Override::parse("duration").unwrap_err();
        assert_eq!(e.message(), "--set duration: expected key.path=value");
        let e = Override::parse("a..b=1").unwrap_err();
        assert_eq!(e.message(), "--set a..b=1: empty key in the path");
    }
}
