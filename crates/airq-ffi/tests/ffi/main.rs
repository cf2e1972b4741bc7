//! The C API from outside: the committed header against cbindgen's, and the contract's
//! error paths through the exported functions.

mod contract;
mod header;
