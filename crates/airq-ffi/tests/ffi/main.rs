//! The C API from outside: the committed header against cbindgen's, the contract's
//! error paths through the exported functions, and the C example compiled with the
//! system's C compiler, run plain, under valgrind and with AddressSanitizer/UBSan.

mod c_example;
mod contract;
mod header;
