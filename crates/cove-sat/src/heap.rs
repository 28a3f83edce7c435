//! A binary max-heap of variables keyed by an external activity array (MiniSat's `Heap`).
//!
//! Invariant: `pos[heap[i]] == i` for every slot `i`, `pos[v] == ABSENT` for variables not in
//! the heap, and `act[heap[parent(i)]] >= act[heap[i]]`.

const ABSENT: u32 = u32::MAX;

/// Max-heap of variable indices.
#[derive(Default, Debug, Clone)]
pub(crate) struct VarHeap {
    heap: Vec<u32>,
    pos: Vec<u32>,
}

impl VarHeap {
    /// Makes room for variables `0..n`.
    pub(crate) fn grow_to(&mut self, n: usize) {
        if self.pos.len() < n {
            self.pos.resize(n, ABSENT);
        }
    }

    /// Whether `v` is in the heap.
    #[inline]
    pub(crate) fn contains(&self, v: u32) -> bool {
        self.pos[v as usize] != ABSENT
    }

    /// Number of elements.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.heap.len()
    }

    /// Inserts `v` if absent.
    pub(crate) fn insert(&mut self, v: u32, act: &[f64]) {
        if self.contains(v) {
            return;
        }
        self.pos[v as usize] = self.heap.len() as u32;
        self.heap.push(v);
        self.up(self.heap.len() - 1, act);
    }

    /// Restores the heap order after the activity of `v` increased.
    #[inline]
    pub(crate) fn increased(&mut self, v: u32, act: &[f64]) {
        if self.contains(v) {
            self.up(self.pos[v as usize] as usize, act);
        }
    }

    /// Removes and returns the variable of highest activity.
    pub(crate) fn pop(&mut self, act: &[f64]) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.pos[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.down(0, act);
        }
        Some(top)
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        while i > 0 {
            let p = (i - 1) / 2;
            let pv = self.heap[p];
            if act[pv as usize] >= act[v as usize] {
                break;
            }
            self.heap[i] = pv;
            self.pos[pv as usize] = i as u32;
            i = p;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && act[self.heap[r] as usize] > act[self.heap[l] as usize] {
                r
            } else {
                l
            };
            let cv = self.heap[c];
            if act[cv as usize] <= act[v as usize] {
                break;
            }
            self.heap[i] = cv;
            self.pos[cv as usize] = i as u32;
            i = c;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }

    /// Checks the heap invariant (used by `check_invariants` and tests).
    pub(crate) fn is_valid(&self, act: &[f64]) -> bool {
        self.heap.iter().enumerate().all(|(i, &v)| {
            self.pos[v as usize] as usize == i
                && (i == 0 || act[self.heap[(i - 1) / 2] as usize] >= act[v as usize])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_activity_order() {
        let mut act = vec![3.0, 1.0, 4.0, 1.5, 9.0, 2.6];
        let mut h = VarHeap::default();
        h.grow_to(act.len());
        for v in 0..act.len() as u32 {
            h.insert(v, &act);
        }
        h.insert(2, &act);
        assert_eq!(h.len(), 6);
        act[1] = 10.0;
        h.increased(1, &act);
        assert!(h.is_valid(&act));
        let order: Vec<u32> = std::iter::from_fn(|| h.pop(&act)).collect();
        assert_eq!(order, vec![1, 4, 2, 0, 5, 3]);
        assert!(!h.contains(4));
    }
}
