//! `include/cove.h` is generated from `src/lib.rs` by cbindgen and committed, so C users
//! need no Rust tooling to read it. This test regenerates it and fails when the committed
//! header differs (CI runs it); `COVE_BLESS=1 cargo test -p cove-capi --test header`
//! rewrites the committed header.

use std::path::PathBuf;

#[test]
fn committed_header_is_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8 header");
    let path = dir.join("include/cove.h");
    if std::env::var_os("COVE_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/cove.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/cove.h is stale: regenerate it with \
         `COVE_BLESS=1 cargo test -p cove-capi --test header` and commit it"
    );
}
