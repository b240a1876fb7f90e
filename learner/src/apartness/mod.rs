//! What the observations alone prove about states: the observation tree and apartness
//! between its nodes ([`tree`]), and the identification of nodes when a state bound says the
//! basis already holds every state ([`under_bound`]). L# learns with both, and the
//! state-bound equivalence oracle proves a hypothesis with both, so that neither asks what
//! the other has already shown.

pub(crate) mod tree;
pub(crate) mod under_bound;
