//! What the observations alone prove about states.
//! [`tree`] holds the observation tree and apartness between its nodes.
//! [`under_bound`] identifies nodes when a state bound says the basis already holds every state.
//! L# learns with both, and the state-bound equivalence oracle proves a hypothesis with both.
//! So neither asks what the other has already shown.

pub(crate) mod tree;
pub(crate) mod under_bound;
