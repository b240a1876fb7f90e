//! A model backend: runs any typestate as a black box, on a simulated clock.
//!
//! Callins take a fixed time.
//! A `wait` either sees its callback after a latency drawn from a range, or lasts the whole
//! quiescence timeout and answers `quiet`.
//! A callback slower than the timeout is seen as `quiet`, as on a device.
//! Optional noise makes a callback late (held back to a later wait) or missing (the object moves on
//! silently).
//! Each happens with half of the given probability.
//! Every random choice comes from a seeded generator: same seed, same run.
//! Nothing sleeps; time only advances the [`SimClock`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use typestates::mealy::{to_mealy, Mealy};
use typestates::Typestate;

use crate::closure::{Alphabet, Input, Output};
use crate::cost::CostModel;
use crate::learn::Progress;
use crate::oracle::journal::JournalError;
use crate::oracle::pipeline::Confirmation;
use crate::oracle::sul::{Sul, SulError};
use crate::session::{
    learn_setup, Details, EquivalenceChoice, Learned, Origin, Session, Setup, Timing,
};

/// The distinguisher bound when the user asks for no guarantee: DroidStar's.
pub const DEFAULT_BOUND: usize = 2;

/// Learns `typestate` as a black box on `session.jobs` simulated instances timed as `config`
/// says, through the pipeline every backend shares: distinguisher bound [`DEFAULT_BOUND`]
/// unless the user chose a guarantee (the model's own state count only if asked), and each
/// trace confirmed as [`ModelConfig::confirmation`] says unless the user chose.
pub async fn learn(
    typestate: &Typestate,
    config: ModelConfig,
    session: &Session,
    progress: &mut dyn Progress,
) -> Result<Learned, JournalError> {
    let clock = Arc::new(SimClock::default());
    let setup = Setup {
        alphabet: Arc::new(Alphabet::of(typestate.signature())),
        suls: ModelSul::pool(typestate, config, session.jobs.max(1), &clock),
        filters: Vec::new(),
        algorithm: None,
        equivalence: EquivalenceChoice::DistinguisherBound(DEFAULT_BOUND),
        confirmation: config.confirmation(),
        cost: CostModel::default(),
        timing: Timing::Predicted,
        origin: Origin {
            platform: "simulated device (model backend)".to_owned(),
            sources: vec![format!(
                "model backend simulating the protocol of {}",
                typestate.class
            )],
            run: None,
        },
    };
    let learned = learn_setup(setup, session, progress).await?;
    Ok(Learned {
        details: Details::Simulated {
            clock_ms: clock.now_ms(),
        },
        ..learned
    })
}

/// Simulated device time, shared by all instances of one experiment.
#[derive(Debug, Default)]
pub struct SimClock {
    now_ms: AtomicU64,
}

impl SimClock {
    /// Milliseconds since the experiment started.
    pub fn now_ms(&self) -> u64 {
        self.now_ms.load(Ordering::Relaxed)
    }

    fn advance(&self, ms: u64) {
        self.now_ms.fetch_add(ms, Ordering::Relaxed);
    }
}

/// Timing and noise of the simulated device.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelConfig {
    /// Building a fresh object.
    pub reset_ms: u64,
    /// Calling one callin.
    pub callin_ms: u64,
    /// The shortest and longest callback latency.
    pub callback_latency_ms: (u64, u64),
    /// How long a `wait` waits before answering `quiet`.
    pub quiescence_timeout_ms: u64,
    /// Probability that a callback is late or missing in one `wait`; 0 for none.
    pub noise: f64,
    /// Seed of the random choices.
    pub seed: u64,
}

impl ModelConfig {
    /// How many runs of each trace learning confirms by default: once on a device without
    /// noise, which always answers alike; [`Confirmation::NOISY`] with noise.
    pub fn confirmation(&self) -> Confirmation {
        if self.noise > 0.0 {
            Confirmation::NOISY
        } else {
            Confirmation::ONCE
        }
    }
}

impl Default for ModelConfig {
    fn default() -> ModelConfig {
        ModelConfig {
            reset_ms: 1_500,
            callin_ms: 20,
            callback_latency_ms: (50, 450),
            quiescence_timeout_ms: 1_000,
            noise: 0.0,
            seed: 0,
        }
    }
}

/// One simulated instance of a typestate's class.
pub struct ModelSul {
    mealy: Mealy,
    state: u32,
    config: ModelConfig,
    rng: SplitMix64,
    clock: Arc<SimClock>,
}

impl ModelSul {
    /// Instance number `instance` of `typestate`'s class, timed on `clock`.
    pub fn new(
        typestate: &Typestate,
        config: ModelConfig,
        instance: u64,
        clock: Arc<SimClock>,
    ) -> ModelSul {
        let mealy = to_mealy(typestate);
        ModelSul {
            state: mealy.initial,
            mealy,
            config,
            rng: SplitMix64(config.seed ^ instance.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            clock,
        }
    }

    /// `n` instances sharing one clock.
    pub fn pool(
        typestate: &Typestate,
        config: ModelConfig,
        n: usize,
        clock: &Arc<SimClock>,
    ) -> Vec<ModelSul> {
        (0..n as u64)
            .map(|instance| ModelSul::new(typestate, config, instance, Arc::clone(clock)))
            .collect()
    }

    fn wait(&mut self, target: u32, output: Output) -> Output {
        let timeout = self.config.quiescence_timeout_ms;
        match output {
            Output::Callback(_) => {
                let (low, high) = self.config.callback_latency_ms;
                let latency = low + self.rng.below(high.saturating_sub(low) + 1);
                let glitch = self.rng.unit() < self.config.noise;
                if latency > timeout || glitch {
                    self.clock.advance(timeout);
                    if glitch && self.rng.unit() < 0.5 {
                        // Missing: the object moves on, the callback never comes.
                        self.state = target;
                    }
                    return Output::Quiet;
                }
                self.clock.advance(latency);
            }
            Output::Err => {
                let (low, _) = self.config.callback_latency_ms;
                self.clock.advance(low);
            }
            Output::Quiet | Output::Eps => self.clock.advance(timeout),
        }
        self.state = target;
        output
    }
}

impl Sul for ModelSul {
    async fn reset(&mut self) -> Result<(), SulError> {
        self.clock.advance(self.config.reset_ms);
        self.state = self.mealy.initial;
        Ok(())
    }

    async fn step(&mut self, input: Input) -> Result<Output, SulError> {
        let column = self
            .mealy
            .column(input)
            .ok_or_else(|| SulError::new(format!("{input:?} is not an input of the model")))?;
        let (target, output) = self.mealy.transition(self.state, column);
        Ok(match input {
            Input::Callin(_) => {
                self.clock.advance(self.config.callin_ms);
                self.state = target;
                output
            }
            Input::Wait => self.wait(target, output),
        })
    }
}

/// A small seeded generator (SplitMix64): deterministic, and no dependency for it.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..bound` (bound > 0).
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound.max(1)
    }

    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
