use super::super::parse;
use super::*;

/// A valid scenario with every array of tables present, so that an unknown key can
/// be set in each.
const EVERY_TABLE: &str = r#"name = "every-table"
duration = 60.0

[ap]
preset = "airtime"

[[ap.group]]
name = "g"

[[station]]
name = "fast"
standard = "ht"
mcs = 7

[[station]]
name = "slow"
standard = "ht"
mcs = 0

[[traffic]]
test = "udp_flood"

[[variant]]
name = "v"
preset = "fifo"
"#;

/// The `--set` path of a key of `table`: the first entry of an array of tables.
fn set_path(table: &TableDoc, key: &str) -> String {
    table.key_path(key).replace("[]", ".0")
}

/// The names serde's "unknown field/value `zzz`, expected ..." message lists.
fn expected_names(message: &str) -> Vec<String> {
    let (_, list) = message
        .split_once(", expected ")
        .unwrap_or_else(|| panic!("no list of expected names in: {message}"));
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_reference_lists_every_key_of_every_table_and_no_other() {
    for table in tables() {
        let set = format!("{}=1", set_path(&table, "zzz"));
        let e = parse("t.toml", EVERY_TABLE, std::slice::from_ref(&set))
            .expect_err(&set)
            .to_string();
        assert!(e.contains("unknown field `zzz`"), "{set}: {e}");
        let mut schema = expected_names(&e);
        let mut reference: Vec<String> = table.keys.iter().map(|k| k.name.to_string()).collect();
        schema.sort();
        reference.sort();
        assert_eq!(
            reference,
            schema,
            "the reference's keys of {} (left) are not the schema's (right)",
            table.header()
        );
    }
}

#[test]
fn every_table_of_a_key_is_a_table_of_the_reference() {
    let tables = tables();
    for table in &tables {
        for k in &table.keys {
            let path = table.key_path(k.name);
            let want = match k.kind {
                Kind::Table => path,
                Kind::Tables => format!("{path}[]"),
                _ => continue,
            };
            assert!(
                tables.iter().any(|t| t.path == want),
                "{want} has no table in the reference"
            );
        }
    }
}

#[test]
fn every_example_is_accepted_by_the_schema() {
    for table in tables() {
        for k in &table.keys {
            let set = format!("{}={}", set_path(&table, k.name), k.example);
            if let Err(e) = parse("t.toml", EVERY_TABLE, std::slice::from_ref(&set)) {
                let e = e.to_string();
                assert!(
                    !e.contains("unknown field") && !e.contains("invalid type"),
                    "{set}: {e}"
                );
            }
        }
    }
}

#[test]
fn the_values_of_a_choice_are_the_schemas() {
    for table in tables() {
        for k in &table.keys {
            let Kind::Choice(values) = k.kind else {
                continue;
            };
            let set = format!("{}=zzz", set_path(&table, k.name));
            let e = parse("t.toml", EVERY_TABLE, std::slice::from_ref(&set))
                .expect_err(&set)
                .to_string();
            assert!(e.contains("unknown value `zzz`"), "{set}: {e}");
            let mut schema = expected_names(&e);
            let mut reference: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            schema.sort();
            reference.sort();
            assert_eq!(reference, schema, "{set}");
        }
    }
}

#[test]
fn the_text_fits_its_width() {
    for line in text().lines() {
        assert!(line.chars().count() <= TEXT_WIDTH, "too wide: {line}");
    }
}

#[test]
fn the_markdown_file_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/scenario-keys.md");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == markdown(),
        "docs/scenario-keys.md is out of date; regenerate it from the repository's \
         root with:\n    cargo run -q -p airq-cli -- list keys --markdown > \
         docs/scenario-keys.md"
    );
}
