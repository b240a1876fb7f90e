//! Active learning of callback typestates (filled in by issue 3).
