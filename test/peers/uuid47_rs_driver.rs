// Runs uuid47-rs, the Rust port of uuidv47 (its source given to scripts/peers-build.sh), over lines
// of "<UUIDv7> <façade>" on stdin, under the key k0 k1 (two hexadecimal numbers, as the port's
// UuidV47Key::new takes them), and writes a line per input: the façade it makes of the UUIDv7, and
// the UUIDv7 it reads from the façade. For test/t/public_uuid.pl, which compares both with idgen's.
use std::io::{self, BufRead, BufWriter, Write};

use uuid47::{Uuid128, UuidV47Key};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: uuid47_rs_driver <k0 hex> <k1 hex> < lines of \"v7 facade\"");
        std::process::exit(2);
    }
    let k0 = u64::from_str_radix(&args[1], 16).expect("k0");
    let k1 = u64::from_str_radix(&args[2], 16).expect("k1");
    let key = UuidV47Key::new(k0, k1);
    let mut out = BufWriter::new(io::stdout());
    for line in io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let mut fields = line.split_whitespace();
        let v7: Uuid128 = fields.next().expect("a UUIDv7").parse().expect("a UUIDv7");
        let facade: Uuid128 = fields.next().expect("a façade").parse().expect("a façade");
        writeln!(out, "{} {}", v7.encode_as_v4facade(&key), facade.decode_from_v4facade(&key)).expect("stdout");
    }
}
