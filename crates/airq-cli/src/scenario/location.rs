//! Where in a scenario file something is: key paths (`station.1.mcs`, the syntax of
//! `--set`) and their line and column, found from the spans `toml_edit` keeps, so every
//! error names the file, the line and the key.

use crate::error::CliError;
use std::fmt;
use std::ops::Range;
use toml_edit::{ImDocument, Item, TableLike};

/// One step of a key path: a key of a table, or an index into an array (of tables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A key of a table.
    Key(String),
    /// An index into an array (from 0).
    Index(usize),
}

/// A path to a value of the document, shown as `station.1.mcs` (indices from 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyPath(pub Vec<Seg>);

impl KeyPath {
    /// The path of a top-level key.
    pub fn key(key: &str) -> KeyPath {
        KeyPath(vec![Seg::Key(key.to_string())])
    }

    /// The `index`-th table of the array of tables `array` (`station.2`).
    pub fn entry(array: &str, index: usize) -> KeyPath {
        KeyPath(vec![Seg::Key(array.to_string()), Seg::Index(index)])
    }

    /// This path extended by `key`.
    pub fn join(&self, key: &str) -> KeyPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Key(key.to_string()));
        KeyPath(segs)
    }

    /// This path extended by an index.
    pub fn index(&self, index: usize) -> KeyPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Index(index));
        KeyPath(segs)
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            match seg {
                Seg::Key(k) => f.write_str(k)?,
                Seg::Index(n) => write!(f, "{n}")?,
            }
        }
        Ok(())
    }
}

/// The text of a scenario and its parsed layout, to turn paths and byte offsets into
/// `file:line:column` messages.
pub struct SourceMap {
    file: String,
    text: String,
    doc: Option<ImDocument<String>>,
    /// Overrides applied to the text: (path, who set it and how: `--set k=v`).
    overrides: Vec<(KeyPath, String)>,
}

impl SourceMap {
    /// The map of `text`, read from `file` (as the user named it).
    pub fn new(file: &str, text: &str) -> SourceMap {
        SourceMap {
            file: file.to_string(),
            text: text.to_string(),
            doc: ImDocument::parse(text.to_string()).ok(),
            overrides: Vec::new(),
        }
    }

    /// The same map, told which paths overrides changed, so errors there say so.
    pub fn with_overrides(mut self, overrides: Vec<(KeyPath, String)>) -> SourceMap {
        self.overrides = overrides;
        self
    }

    /// The file name used in messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// An error about the value at `path`: `file:line:col: path: message`, and the line.
    pub fn error_at(&self, path: &KeyPath, message: impl fmt::Display) -> CliError {
        self.format(self.offset_of(path), Some(path), message)
    }

    /// `file:line` of the value at `path` (just the file if it is not there).
    pub fn origin(&self, path: &KeyPath) -> String {
        match self.offset_of(path) {
            Some(offset) => format!("{}:{}", self.file, self.line_col(offset).0),
            None => self.file.clone(),
        }
    }

    fn offset_of(&self, path: &KeyPath) -> Option<usize> {
        let doc = self.doc.as_ref()?;
        span_of(doc.as_table(), &path.0).map(|s| s.start)
    }

    /// An error at byte range `span` of the text (a parse or type error); the key there,
    /// if any, is named.
    pub fn error_at_span(
        &self,
        span: Option<Range<usize>>,
        message: impl fmt::Display,
    ) -> CliError {
        let offset = span.map(|s| s.start);
        let path = match (&self.doc, offset) {
            (Some(d), Some(o)) => path_at(d.as_table(), o, &mut Vec::new()),
            _ => None,
        };
        self.format(offset, path.as_ref(), message)
    }

    /// The 1-based line and column of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    fn format(
        &self,
        offset: Option<usize>,
        path: Option<&KeyPath>,
        message: impl fmt::Display,
    ) -> CliError {
        let key = path.map(|p| format!("{p}: ")).unwrap_or_default();
        let set_by = path
            .and_then(|p| {
                self.overrides
                    .iter()
                    .find(|(o, _)| p.0.starts_with(&o.0) || o.0.starts_with(&p.0))
            })
            .map(|(_, by)| format!(" (set by {by})"))
            .unwrap_or_default();
        let message = format!("{message}{set_by}");
        let Some(offset) = offset else {
            return CliError::new(format!("{}: {key}{message}", self.file));
        };
        let (line, col) = self.line_col(offset);
        let source = self.text.lines().nth(line - 1).unwrap_or("");
        CliError::new(format!(
            "{}:{line}:{col}: {key}{message}\n{line:>5} | {source}",
            self.file
        ))
    }
}

/// The span of the key (or, failing that, the value) at `path`, or of the deepest part
/// of it that exists.
fn span_of(table: &dyn TableLike, path: &[Seg]) -> Option<Range<usize>> {
    let (Seg::Key(k), rest) = path.split_first()? else {
        return None;
    };
    let (key, item) = table.get_key_value(k)?;
    let here = key.span().or_else(|| item.span());
    let deeper = match rest.split_first() {
        None => None,
        Some((Seg::Index(i), rest)) => match item {
            Item::ArrayOfTables(a) => a.get(*i).and_then(|t| {
                if rest.is_empty() {
                    t.span()
                } else {
                    span_of(t, rest).or(t.span())
                }
            }),
            Item::Value(toml_edit::Value::Array(a)) => a.get(*i).and_then(|v| v.span()),
            _ => None,
        },
        Some((Seg::Key(_), _)) => item.as_table_like().and_then(|t| span_of(t, rest)),
    };
    deeper.or(here)
}

/// The path of the key or value whose span contains `offset`.
fn path_at(table: &dyn TableLike, offset: usize, prefix: &mut Vec<Seg>) -> Option<KeyPath> {
    let contains = |s: Option<Range<usize>>| s.is_some_and(|s| s.contains(&offset));
    for (k, _) in table.iter() {
        let Some((key, item)) = table.get_key_value(k) else {
            continue;
        };
        prefix.push(Seg::Key(k.to_string()));
        let found = if contains(key.span()) {
            Some(KeyPath(prefix.clone()))
        } else {
            match item {
                Item::ArrayOfTables(a) => a.iter().enumerate().find_map(|(i, t)| {
                    prefix.push(Seg::Index(i));
                    let found = path_at(t, offset, prefix)
                        .or_else(|| contains(t.span()).then(|| KeyPath(prefix.clone())));
                    prefix.pop();
                    found
                }),
                _ => match item.as_table_like() {
                    Some(t) => path_at(t, offset, prefix),
                    None => contains(item.span()).then(|| KeyPath(prefix.clone())),
                },
            }
        };
        prefix.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str =
        "name = \"x\"\n\n[[station]]\nname = \"a\"\n\n[[station]]\nname = \"b\"\nmcs = 7\n";

    #[test]
    fn paths_resolve_to_their_line() {
        let map = SourceMap::new("s.toml", TEXT);
        let path = KeyPath::entry("station", 1).join("mcs");
        assert_eq!(path.to_string(), "station.1.mcs");
        let e = map.error_at(&path, "bad");
        assert!(
            e.message().starts_with("s.toml:8:1: station.1.mcs: bad"),
            "{e}"
        );
        let e = map.error_at(&KeyPath::entry("station", 1), "bad");
        assert!(e.message().starts_with("s.toml:6:"), "{e}");
    }

    #[test]
    fn offsets_resolve_to_their_key() {
        let map = SourceMap::new("s.toml", TEXT);
        let offset = TEXT.find("mcs").unwrap();
        let e = map.error_at_span(Some(offset..offset + 3), "unknown");
        assert!(
            e.message()
                .starts_with("s.toml:8:1: station.1.mcs: unknown"),
            "{e}"
        );
        assert_eq!(map.line_col(0), (1, 1));
    }
}
