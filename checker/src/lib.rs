//! Static checking of client code against typestates (filled in by issue 5).
