#!/usr/bin/env bash
# Where the project check's time goes: builds checker-bench in release with line tables
# (into $CARGO_TARGET_DIR or target/, profile directory `profiling`), samples one
# `check-project` run on one thread with `perf record --call-graph dwarf`, and writes the
# share of the run spent inside each phase of the check to bench/results/checker-profile.md.
#
#   bench/checker/profile.sh            needs perf (Debian: linux-perf) and the corpus
#
# Shares are of all samples of the run, inclusive of callees, so nested phases overlap
# (the typing pass is inside `Project::new`); the table says which phase holds which.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
command -v perf >/dev/null || { echo "error: perf is not installed (Debian: apt-get install linux-perf)" >&2; exit 2; }

"$here/fetch-corpus.sh" >/dev/null
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release --quiet -p checker-bench \
    --target-dir "${CARGO_TARGET_DIR:-$root/target}/profiling"
bench="${CARGO_TARGET_DIR:-$root/target}/profiling/release/checker-bench"

data="$(mktemp)"
trap 'rm -f "$data"' EXIT
perf record --quiet --call-graph dwarf,16384 -F 199 -o "$data" \
    "$bench" phase check-project --threads 1 --corpus bench/work/corpus >/dev/null 2>&1
report="$(perf report -i "$data" --children --sort symbol --stdio -g none 2>/dev/null)"

# phase | function whose inclusive share stands for it
phases=(
    "discovery: prefilter, lowering, resolution, typing (Project::new)|checker::project::Project::new"
    "tree-sitter parsing|ts_parser_parse_with_options"
    "lowering to the IR (parsing included)|checker::lang::lower_within"
    "first lowering of each file read (parse, lower, resolve, call sites)|checker::project::Lowering::one"
    "typing calls again with the project's members (past-budget files parsed again)|retype (inlined)"
    "name and type resolution|checker::resolve::resolve"
    "checking the files (Project::check)|checker::project::Project::check"
    "the typestate dataflow of bodies|checker::typestate_flow::analyze_within"
    "private helpers analysed at their calls|checker::typestate_flow::BodyAnalysis::helper_call"
    "joining flow states|<checker::typestate_flow::FlowState as checker::flow::Lattice>::join"
    "the event model of classes|checker::events::Runner::run"
)
{
    echo "# Where the project check's time goes"
    echo
    echo "Produced by \`bench/checker/profile.sh\` on $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD)."
    echo "One \`check-project\` run on one thread over \`bench/work/corpus\`, sampled by \`perf record --call-graph dwarf\` at 199 Hz; load average before: \`$(cut -d' ' -f1-3 /proc/loadavg)\`."
    echo "Shares are of all samples of the process (its threads included), inclusive of callees, and overlap where phases nest."
    echo
    echo "| phase | function | share of samples |"
    echo "|---|---|---:|"
    for row in "${phases[@]}"; do
        name="${row%%|*}"
        function="${row#*|}"
        # A row names an inlined function only where it says so.
        if [[ "$function" == *"(inlined)" ]]; then
            share="$(awk -v f="] $function" 'index($0, f) { print $1; exit }' <<<"$report")"
        else
            share="$(awk -v f="] $function " 'index($0, f) && !/\(inlined\)/ { print $1; exit }' <<<"$report")"
        fi
        echo "| $name | \`$function\` | ${share:-not sampled} |"
    done
    echo
    echo "Parsing counts each time a file is parsed."
    echo "A file whose IR is past the kept budget (\`checker::project::KEPT_TEXT_BYTES\`) is parsed again by each pass that needs its IR: the first any-order check, typing calls again, and the check."
} > bench/results/checker-profile.md
cat bench/results/checker-profile.md
