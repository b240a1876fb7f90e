//! Golden tests of the renderings: each `test_data/render/X.typestate` sits beside its DOT
//! (`X.dot`, and `X.sink.dot` with the error sink), Mermaid (`X.mmd`, `X.sink.mmd`) and
//! protocol table (`X.md`). Rewrite them with `UPDATE_EXPECT=1 cargo test -p typestates --test render`.

mod golden;

use golden::{check_golden, files_with_extension, manifest_path};
use typestates::format::parse;
use typestates::render::{dot, mermaid, table, Options};

#[test]
fn renderings_match_the_files_beside_each_input() {
    for input in files_with_extension(&manifest_path("test_data/render"), "typestate") {
        let text = std::fs::read_to_string(&input).expect("test input is readable");
        let typestate = parse(&input.display().to_string(), &text)
            .unwrap_or_else(|errors| panic!("{errors:?}"));
        let plain = Options::default();
        let sink = Options { error_sink: true };
        let outputs = [
            ("dot", dot::render(&typestate, plain)),
            ("sink.dot", dot::render(&typestate, sink)),
            ("mmd", mermaid::render(&typestate, plain)),
            ("sink.mmd", mermaid::render(&typestate, sink)),
            ("md", table::render(&typestate)),
        ];
        for (extension, output) in outputs {
            check_golden(&input.with_extension(extension), &output);
        }
    }
}
