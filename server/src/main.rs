//! The `typestar` command line.

fn main() {}
