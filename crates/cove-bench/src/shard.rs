//! `--shard I/N`: a deterministic split of the selected instances into `N` parts, so a
//! cluster runs one part per job (e.g. one SLURM array task each) and `--merge` puts the
//! per-shard result files back together.
//!
//! Instance `k` of the selection (manifest order, after `--filter`/`--limit`) belongs to
//! shard `k mod N`. Round-robin rather than contiguous blocks because manifests are grouped
//! by benchmark family: interleaving gives every shard a similar mix of easy and hard
//! families, so the shards finish at similar times. The selection index of a result,
//! `k = position * N + I`, is recorded in `results.json`, which is how a merge restores the
//! manifest order and proves that no instance is missing.

use std::fmt;
use std::str::FromStr;

/// One part of an `N`-way split: shards are numbered `0..N` (as SLURM's `--array=0-(N-1)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// This shard's number, `0 <= index < count`.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("expected I/N (e.g. 0/10), found `{s}`"))?;
        let index: usize = i
            .trim()
            .parse()
            .map_err(|_| format!("bad shard index `{i}`"))?;
        let count: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("bad shard count `{n}`"))?;
        if count == 0 {
            return Err("the shard count must be at least 1".into());
        }
        if index >= count {
            return Err(format!(
                "shard index {index} out of range: shards are numbered 0..{count} (exclusive)"
            ));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The items of this shard, in their original order.
    pub fn take<T>(&self, items: Vec<T>) -> Vec<T> {
        items
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % self.count == self.index)
            .map(|(_, x)| x)
            .collect()
    }

    /// The selection index of this shard's `position`-th item.
    pub fn selection_index(&self, position: usize) -> usize {
        position * self.count + self.index
    }

    /// How many of `selected` items fall into this shard.
    pub fn size(&self, selected: usize) -> usize {
        selected / self.count + usize::from(self.index < selected % self.count)
    }
}

/// The split a result file came from, recorded in its configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardInfo {
    /// Which shard.
    #[serde(flatten)]
    pub shard: Shard,
    /// Instances selected before the split (the size of the whole run).
    pub selected: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(
            "3/10".parse(),
            Ok(Shard {
                index: 3,
                count: 10
            })
        );
        assert_eq!("0/1".parse(), Ok(Shard { index: 0, count: 1 }));
        assert!("10/10".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("1".parse::<Shard>().is_err());
        assert!("a/2".parse::<Shard>().is_err());
        assert_eq!(Shard { index: 2, count: 5 }.to_string(), "2/5");
    }

    #[test]
    fn shards_partition_the_selection() {
        let items: Vec<usize> = (0..11).collect();
        let mut seen = Vec::new();
        for index in 0..4 {
            let s = Shard { index, count: 4 };
            let part = s.take(items.clone());
            assert_eq!(part.len(), s.size(items.len()));
            for (pos, &x) in part.iter().enumerate() {
                assert_eq!(s.selection_index(pos), x);
            }
            seen.extend(part);
        }
        seen.sort();
        assert_eq!(seen, items);
        // More shards than items: the extra shards are empty.
        assert_eq!(
            Shard { index: 5, count: 8 }.take(vec![1, 2, 3]),
            Vec::<i32>::new()
        );
    }
}
