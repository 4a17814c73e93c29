//! The text parser on arbitrary bytes: it never panics, and whatever it accepts prints to text
//! that parses back to the same printed text (the round trip of docs/ir.md §6.3).
#![no_main]

use libfuzzer_sys::fuzz_target;
use poolopt::ir::{parse, print_module};

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(module) = parse(src) {
        let printed = print_module(&module);
        let again = parse(&printed).expect("printed IR parses back");
        assert_eq!(
            print_module(&again),
            printed,
            "print/parse is not a fixed point"
        );
        // The verifier never panics either.
        let _ = poolopt::ir::verify(&module);
    }
});
