//! The heuristics typestar adds on top of plain L# (Vaandrager, Garhewal, Rot and Wißmann, TACAS 2022).
//! Each is a named option that can be switched off, as LearnLib's `Rule2`/`Rule3` and AALpy's `extension_rule`/`separation_rule` are.
//!
//! With none of them ([`Heuristics::PLAIN`]) the learner is the paper's L#:
//! - R2 asks a basis node's missing transition alone;
//! - R3 asks a frontier node a witness of two of its candidate states;
//! - R1 promotes a node apart from the whole basis;
//! - counterexamples are processed by binary search on the tree.
//!
//! The default ([`Heuristics::ALL`]) switches every heuristic on.

use std::fmt;
use std::str::FromStr;

/// A heuristic added on top of plain L#.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Heuristic {
    /// R2 goes on, in the same run, with the word that best splits the basis, so the new
    /// frontier node starts being identified without a run of its own (LearnLib's `Rule2`
    /// `SEPSEQ`, AALpy's `extension_rule='SepSeq'`).
    SeparatingExtension,
    /// While the basis is the root alone, R2 probes every root transition by one input after
    /// another until some node is apart from the root, instead of by every input at once.
    RootProbing,
    /// R3 asks, of the witnesses between any two candidates, the one that splits the
    /// candidates into the most classes and strands the fewest behind an `err` (plain L#:
    /// a witness of the first two candidates apart).
    BestSplit,
    /// A separating word goes on, in the same run, with the split of the largest class of
    /// candidates it leaves together while that class answers without `err`: a greedy
    /// adaptive distinguishing sequence read off the tree (LearnLib's `Rule3` `ADS`).
    ChainedSplits,
    /// Under a state bound, while the hypothesis has fewer states: R3 goes on with the split
    /// of the whole basis, and frontier nodes and their children are extended by every input
    /// and checked against the state the hypothesis predicts (widening), before an
    /// equivalence query.
    MissingStateSearch,
    /// Under a state bound, once the basis holds every state it allows: a node is also told
    /// from a state when their transitions reach nodes that can be no common state
    /// (identification under the bound).
    IdentificationUnderBound,
}

impl Heuristic {
    /// Every heuristic, in the order of the names.
    pub const ALL: [Heuristic; 6] = [
        Heuristic::SeparatingExtension,
        Heuristic::RootProbing,
        Heuristic::BestSplit,
        Heuristic::ChainedSplits,
        Heuristic::MissingStateSearch,
        Heuristic::IdentificationUnderBound,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::SeparatingExtension => "separating-extension",
            Heuristic::RootProbing => "root-probing",
            Heuristic::BestSplit => "best-split",
            Heuristic::ChainedSplits => "chained-splits",
            Heuristic::MissingStateSearch => "missing-state-search",
            Heuristic::IdentificationUnderBound => "identification-under-bound",
        }
    }

    fn bit(self) -> u8 {
        1 << Heuristic::ALL
            .iter()
            .position(|it| *it == self)
            .expect("every heuristic is in ALL")
    }
}

/// A set of heuristics.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Heuristics(u8);

impl Heuristics {
    /// Plain L#: no heuristic.
    pub const PLAIN: Heuristics = Heuristics(0);
    /// Every heuristic: the default.
    pub const ALL: Heuristics = Heuristics((1 << Heuristic::ALL.len()) - 1);

    /// The same set with `heuristic` added.
    pub fn with(self, heuristic: Heuristic) -> Heuristics {
        Heuristics(self.0 | heuristic.bit())
    }

    /// Whether the set holds `heuristic`.
    pub fn contains(self, heuristic: Heuristic) -> bool {
        self.0 & heuristic.bit() != 0
    }

    /// The variants a comparison runs: plain L#, plain L# with each heuristic alone, and
    /// every heuristic together.
    pub fn variants() -> Vec<Heuristics> {
        let mut variants = vec![Heuristics::PLAIN];
        variants.extend(Heuristic::ALL.map(|it| Heuristics::PLAIN.with(it)));
        variants.push(Heuristics::ALL);
        variants
    }
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics::ALL
    }
}

/// `plain`, `all`, or the names joined by `+`.
impl fmt::Display for Heuristics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Heuristics::PLAIN => f.write_str("plain"),
            Heuristics::ALL => f.write_str("all"),
            set => {
                let names: Vec<_> = Heuristic::ALL
                    .into_iter()
                    .filter(|it| set.contains(*it))
                    .map(Heuristic::name)
                    .collect();
                f.write_str(&names.join("+"))
            }
        }
    }
}

impl fmt::Debug for Heuristics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Parses `plain`, `all`, or heuristic names separated by `,` or `+`.
impl FromStr for Heuristics {
    type Err = String;

    fn from_str(text: &str) -> Result<Heuristics, String> {
        match text {
            "plain" | "none" => return Ok(Heuristics::PLAIN),
            "all" => return Ok(Heuristics::ALL),
            _ => {}
        }
        text.split([',', '+'])
            .try_fold(Heuristics::PLAIN, |set, name| {
                Heuristic::ALL
                    .into_iter()
                    .find(|it| it.name() == name.trim())
                    .map(|it| set.with(it))
                    .ok_or_else(|| {
                        let names: Vec<_> = Heuristic::ALL.map(Heuristic::name).into();
                        format!(
                            "unknown L# heuristic `{}` (expected plain, all, or some of: {})",
                            name.trim(),
                            names.join(", ")
                        )
                    })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for set in Heuristics::variants() {
            assert_eq!(set.to_string().parse::<Heuristics>(), Ok(set));
        }
        let two: Heuristics = "root-probing,best-split".parse().unwrap();
        assert!(two.contains(Heuristic::RootProbing) && two.contains(Heuristic::BestSplit));
        assert!(!two.contains(Heuristic::ChainedSplits));
        assert_eq!(two.to_string(), "root-probing+best-split");
        let error = "best-split,fastest".parse::<Heuristics>().unwrap_err();
        assert!(error.contains("unknown L# heuristic `fastest`"), "{error}");
    }
}
