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
    /// Where and when the class ran, when learned by a backend that runs it.
    pub run: Option<LearningRun>,
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

/// Where and when a learned class ran: the backend, the Android SDK level, whether the code was
/// the platform's own or a simulation of it, and the day.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearningRun {
    /// The backend that ran the class.
    pub backend: Backend,
    /// The Android SDK level, on an Android backend.
    pub sdk: Option<u32>,
    /// What ran: the class's own code, or a simulation standing in for it.
    pub code: Option<Code>,
    /// The day of the run, `YYYY-MM-DD` (UTC).
    pub date: Option<String>,
}

/// A backend that runs the class under study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The host JVM.
    Jvm,
    /// Robolectric on the host JVM.
    Robolectric,
    /// Android devices over adb.
    Android,
}

/// What ran when a class was learned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// The class's own code, with nothing intercepting it.
    Real,
    /// The class's own code, behind shadow methods that call through to it.
    CallsThrough,
    /// A simulation (Robolectric's shadow), not the class's code.
    Simulated,
}

impl Backend {
    /// The keyword used in files.
    pub fn keyword(self) -> &'static str {
        match self {
            Backend::Jvm => "jvm",
            Backend::Robolectric => "robolectric",
            Backend::Android => "android",
        }
    }

    /// Parses a keyword written by [`Backend::keyword`].
    pub fn from_keyword(word: &str) -> Option<Backend> {
        [Backend::Jvm, Backend::Robolectric, Backend::Android]
            .into_iter()
            .find(|it| it.keyword() == word)
    }
}

impl Code {
    /// The keyword used in files.
    pub fn keyword(self) -> &'static str {
        match self {
            Code::Real => "real",
            Code::CallsThrough => "calls_through",
            Code::Simulated => "simulated",
        }
    }

    /// Parses a keyword written by [`Code::keyword`].
    pub fn from_keyword(word: &str) -> Option<Code> {
        [Code::Real, Code::CallsThrough, Code::Simulated]
            .into_iter()
            .find(|it| it.keyword() == word)
    }
}
