//! `include/airq.h` is what cbindgen makes of the crate now.

use std::path::Path;

fn generate() -> String {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn header_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/airq.h");
    let generated = generate();
    if std::env::var_os("AIRQ_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/airq.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "crates/airq-ffi/include/airq.h is out of date with the crate; regenerate it with\n  \
         AIRQ_BLESS=1 cargo test -p airq-ffi --test ffi header"
    );
}
