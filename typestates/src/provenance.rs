//! Where a typestate comes from: learned by which tool on which platform, or written from which
//! documents, and with which learning statistics.

/// How a typestate came to be.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The kind of origin.
    pub kind: ProvenanceKind,
    /// Sources in words: a paper section, a reference page, a learning run.
    pub sources: Vec<String>,
    /// The platform it was learned or documented on: "Android 23 (LG Nexus 5)", "OpenJDK 17".
    pub platform: Option<String>,
    /// Statistics of the learning run, when learned.
    pub stats: Option<LearningStats>,
}

/// The kind of origin of a typestate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProvenanceKind {
    /// Learned by typestar by running the class.
    Learned,
    /// Transcribed from an automaton DroidStar learned on a device.
    Droidstar,
    /// Written by hand from papers and reference documentation.
    #[default]
    Documented,
}

impl ProvenanceKind {
    /// The keyword used in files.
    pub fn keyword(self) -> &'static str {
        match self {
            ProvenanceKind::Learned => "learned",
            ProvenanceKind::Droidstar => "droidstar",
            ProvenanceKind::Documented => "documented",
        }
    }

    /// Parses a keyword written by [`ProvenanceKind::keyword`].
    pub fn from_keyword(word: &str) -> Option<ProvenanceKind> {
        [
            ProvenanceKind::Learned,
            ProvenanceKind::Droidstar,
            ProvenanceKind::Documented,
        ]
        .into_iter()
        .find(|kind| kind.keyword() == word)
    }
}

/// Statistics of a learning run, in the columns of DroidStar's Table 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LearningStats {
    /// Number of states of the learned typestate (error sink excluded).
    pub states: u32,
    /// Wall-clock (or simulated device) time in milliseconds.
    pub time_ms: u64,
    /// Membership queries asked by the learner.
    pub mq_asked: u64,
    /// Membership queries actually executed.
    pub mq_executed: u64,
    /// Equivalence queries.
    pub eq: u32,
    /// The distinguisher bound used.
    pub distinguisher_bound: Option<u32>,
}
