//! Android API levels: the ranges a protocol's level-dependent steps apply to, and the sets of
//! levels a violation happens on.
//!
//! A range is written `23..28` (both ends included), `..22` (up to 22) or `29..` (29 and later).
//! A set of ranges is written with commas: `21..22, 29..30`.

use std::fmt;

/// The API levels from `min` to `max`, both included; `None` leaves that side open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ApiLevels {
    /// The first level, or every level below `max`.
    pub min: Option<u32>,
    /// The last level, or every level from `min` on.
    pub max: Option<u32>,
}

impl ApiLevels {
    /// Every level.
    pub const ALL: ApiLevels = ApiLevels {
        min: None,
        max: None,
    };

    /// Reads `23..28`, `..22` or `29..`; `None` for anything else, an empty range included.
    pub fn parse(text: &str) -> Option<ApiLevels> {
        let (min, max) = text.split_once("..")?;
        let end = |side: &str| -> Option<Option<u32>> {
            if side.is_empty() {
                Some(None)
            } else if side.bytes().all(|b| b.is_ascii_digit()) {
                side.parse().ok().map(Some)
            } else {
                None
            }
        };
        let levels = ApiLevels {
            min: end(min)?,
            max: end(max)?,
        };
        (levels != ApiLevels::ALL && !levels.is_empty()).then_some(levels)
    }

    /// Whether the range holds no level (`30..29`).
    pub fn is_empty(self) -> bool {
        matches!((self.min, self.max), (Some(min), Some(max)) if min > max)
    }

    /// Whether `level` is in the range.
    pub fn contains(self, level: u32) -> bool {
        self.min.is_none_or(|min| min <= level) && self.max.is_none_or(|max| level <= max)
    }

    /// The levels in both ranges (possibly empty).
    pub fn intersect(self, other: ApiLevels) -> ApiLevels {
        let min = self.min.max(other.min);
        let max = match (self.max, other.max) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (one, None) | (None, one) => one,
        };
        ApiLevels { min, max }
    }

    /// Whether the two ranges share a level.
    pub fn overlaps(self, other: ApiLevels) -> bool {
        !self.intersect(other).is_empty()
    }

    /// The levels at which behaviour may change across this range's ends: its first level and
    /// the one after its last.
    pub fn boundaries(self) -> impl Iterator<Item = u32> {
        self.min
            .into_iter()
            .chain(self.max.and_then(|max| max.checked_add(1)))
    }

    /// Cuts the range at `boundaries` (levels where behaviour may change) into pieces that no
    /// boundary splits, in order.
    pub fn split(self, boundaries: impl IntoIterator<Item = u32>) -> Vec<ApiLevels> {
        let mut cuts: Vec<u32> = boundaries
            .into_iter()
            .filter(|&b| self.min.is_none_or(|min| min < b) && self.contains(b))
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut pieces = Vec::with_capacity(cuts.len() + 1);
        let mut min = self.min;
        for cut in cuts {
            pieces.push(ApiLevels {
                min,
                max: Some(cut - 1),
            });
            min = Some(cut);
        }
        pieces.push(ApiLevels { min, max: self.max });
        pieces
    }

    /// A level inside the range, standing for all of it.
    pub fn representative(self) -> u32 {
        self.min.or(self.max).unwrap_or(1)
    }
}

impl fmt::Display for ApiLevels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (Some(min), Some(max)) if min == max => write!(f, "{min}"),
            (min, max) => {
                if let Some(min) = min {
                    write!(f, "{min}")?;
                }
                write!(f, "..")?;
                if let Some(max) = max {
                    write!(f, "{max}")?;
                }
                Ok(())
            }
        }
    }
}

/// A union of ranges, kept sorted and merged: the levels a violation happens on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LevelSet {
    ranges: Vec<ApiLevels>,
}

impl LevelSet {
    /// The set holding the levels of `range`.
    pub fn of(range: ApiLevels) -> LevelSet {
        let mut set = LevelSet::default();
        set.add(range);
        set
    }

    /// Adds the levels of `range`, merging it with the ranges it touches.
    pub fn add(&mut self, range: ApiLevels) {
        if range.is_empty() {
            return;
        }
        self.ranges.push(range);
        self.ranges.sort_by_key(|r| (r.min.is_some(), r.min));
        let mut merged: Vec<ApiLevels> = Vec::with_capacity(self.ranges.len());
        for range in self.ranges.drain(..) {
            match merged.last_mut() {
                Some(last) if touches(*last, range) => {
                    last.max = match (last.max, range.max) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
                _ => merged.push(range),
            }
        }
        self.ranges = merged;
    }

    /// The ranges, sorted and disjoint, none adjacent to the next.
    pub fn ranges(&self) -> &[ApiLevels] {
        &self.ranges
    }

    /// Whether the set holds every level.
    pub fn is_all(&self) -> bool {
        self.ranges == [ApiLevels::ALL]
    }
}

/// Whether `next`, which starts no earlier than `last`, starts within `last` or right after it.
fn touches(last: ApiLevels, next: ApiLevels) -> bool {
    match (last.max, next.min) {
        (None, _) | (_, None) => true,
        (Some(max), Some(min)) => min <= max.saturating_add(1),
    }
}

impl fmt::Display for LevelSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, range) in self.ranges.iter().enumerate() {
            if index > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{range}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(text: &str) -> ApiLevels {
        ApiLevels::parse(text).expect("a range")
    }

    #[test]
    fn ranges_read_and_print_back() {
        for text in ["23..28", "..22", "29..", "24"] {
            let range = if text == "24" {
                levels("24..24")
            } else {
                levels(text)
            };
            assert_eq!(range.to_string(), text);
        }
        for bad in ["", "..", "23", "a..3", "30..29", "1..2..3", "-1..2"] {
            assert_eq!(ApiLevels::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_range_splits_at_the_boundaries_inside_it() {
        let pieces = levels("21..30").split([23, 29, 21, 40, 5]);
        let texts: Vec<String> = pieces.iter().map(ToString::to_string).collect();
        assert_eq!(texts, ["21..22", "23..28", "29..30"]);
        let open: Vec<String> = ApiLevels::ALL
            .split([23])
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(open, ["..22", "23.."]);
    }

    #[test]
    fn a_set_merges_touching_ranges() {
        let mut set = LevelSet::default();
        set.add(levels("29..30"));
        set.add(levels("21..22"));
        assert_eq!(set.to_string(), "21..22, 29..30");
        set.add(levels("23..28"));
        assert_eq!(set.to_string(), "21..30");
        set.add(levels("..3"));
        set.add(ApiLevels::ALL.intersect(levels("25..")));
        assert_eq!(set.to_string(), "..3, 21..");
        set.add(ApiLevels::ALL);
        assert!(set.is_all());
    }
}
