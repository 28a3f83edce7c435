//! Tableau maintenance: variables, slack rows, assignment updates and pivoting.
//!
//! Rows are sparse `Vec<(var, coef)>`; column occurrence lists make `update` and `pivot`
//! touch only rows that mention the variable. Row edits merge through the dense `pos`
//! scratch array (reset after every use) instead of hashing.

use super::{ColEntry, NO_ROW, Row, Simplex, TVar};
use cove_logic::Rational;

/// The slack standing for a linear form, with the factor relating them.
///
/// `var = factor · (Σ aᵢ·xᵢ)` for the form passed to [`Simplex::add_row`], so the atom
/// `Σ aᵢ·xᵢ ≤ b` becomes `var ≤ factor·b` when `factor > 0` and `var ≥ factor·b` when
/// `factor < 0`. (Without a slack, `var` is the single problem variable of the form.)
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RowRef {
    /// The slack or problem variable.
    pub var: TVar,
    /// Non-zero scaling factor.
    pub factor: Rational,
}

impl Simplex {
    /// Adds a problem variable (value 0, unbounded).
    pub fn add_var(&mut self, is_int: bool) -> TVar {
        let v = TVar(self.is_int.len() as u32);
        self.is_int.push(is_int);
        self.beta.push(super::DeltaRational::ZERO);
        self.lower.push(None);
        self.upper.push(None);
        self.basic_row.push(NO_ROW);
        self.cols.push(Vec::new());
        self.defs.push(None);
        self.in_heap.push(false);
        self.pos.push(u32::MAX);
        v
    }

    /// Returns the slack for the linear form `Σ aᵢ·xᵢ`, creating it on first use.
    ///
    /// The form is normalized (slacks in it expanded to their definitions, duplicates merged,
    /// sorted by variable, scaled to coprime integer coefficients with a positive leading
    /// one), so forms equal up to scaling share one slack and integer forms get integer
    /// slacks. Returns `None` for a form that is identically zero; the caller then decides
    /// the atom by its constant.
    pub fn add_row(&mut self, lin: &[(TVar, Rational)]) -> Option<RowRef> {
        let mut acc: Vec<(TVar, Rational)> = Vec::with_capacity(lin.len());
        for (v, a) in lin {
            match &self.defs[v.idx()] {
                Some(def) => {
                    for (w, b) in def {
                        acc.push((*w, a * b));
                    }
                }
                None => acc.push((*v, a.clone())),
            }
        }
        let (norm, factor) = normalize(acc)?;
        if norm.len() == 1 {
            return Some(RowRef {
                var: norm[0].0,
                factor,
            });
        }
        if let Some(&s) = self.row_cache.get(&norm) {
            return Some(RowRef { var: s, factor });
        }
        let is_int = norm.iter().all(|(v, _)| self.is_int[v.idx()]);
        let s = self.add_var(is_int);
        // Value of the new slack under the current assignment.
        let mut val = super::DeltaRational::ZERO;
        for (v, a) in &norm {
            val.add_scaled(a, &self.beta[v.idx()]);
        }
        self.beta[s.idx()] = val;
        // Express the row over nonbasic variables.
        let mut entries: Vec<(TVar, Rational)> = Vec::new();
        for (v, a) in &norm {
            let r = self.basic_row[v.idx()];
            if r == NO_ROW {
                merge_into(&mut self.pos, &mut entries, *v, a.clone());
            } else {
                for (w, b) in &self.rows[r as usize].entries {
                    merge_into(&mut self.pos, &mut entries, *w, a * b);
                }
            }
        }
        for (v, _) in &entries {
            self.pos[v.idx()] = u32::MAX;
        }
        entries.retain(|(_, c)| !c.is_zero());
        let r = self.rows.len();
        self.rows.push(Row {
            basic: s,
            entries: Vec::with_capacity(entries.len()),
            col_idx: Vec::new(),
        });
        for (v, c) in entries {
            self.push_entry(r, v, c);
        }
        self.row_dirty.push(false);
        self.basic_row[s.idx()] = r as u32;
        self.defs[s.idx()] = Some(norm.clone());
        self.row_cache.insert(norm, s);
        Some(RowRef { var: s, factor })
    }

    /// Appends the entry `c·v` to row `k` (`v` must not occur in it yet).
    fn push_entry(&mut self, k: usize, v: TVar, c: Rational) {
        let row = &mut self.rows[k];
        let col = &mut self.cols[v.idx()];
        row.col_idx.push(col.len() as u32);
        col.push(ColEntry {
            row: k as u32,
            idx: row.entries.len() as u32,
        });
        row.entries.push((v, c));
    }

    /// Removes entry `i` of row `k` (swap-remove on both the row and the column list,
    /// fixing the back-pointers of the entries that moved). Returns the coefficient.
    fn remove_entry(&mut self, k: usize, i: usize) -> Rational {
        let (v, c) = self.rows[k].entries.swap_remove(i);
        let ci = self.rows[k].col_idx.swap_remove(i) as usize;
        if i < self.rows[k].entries.len() {
            // The former last entry of row k now sits at i.
            let w = self.rows[k].entries[i].0;
            let wc = self.rows[k].col_idx[i] as usize;
            self.cols[w.idx()][wc].idx = i as u32;
        }
        let col = &mut self.cols[v.idx()];
        col.swap_remove(ci);
        if ci < col.len() {
            let moved = col[ci];
            self.rows[moved.row as usize].col_idx[moved.idx as usize] = ci as u32;
        }
        c
    }

    /// Sets nonbasic `x` to `v`, shifting every basic variable whose row mentions `x`.
    pub(super) fn update(&mut self, x: TVar, v: super::DeltaRational) {
        let diff = v.sub(&self.beta[x.idx()]);
        for i in 0..self.cols[x.idx()].len() {
            let ColEntry { row, idx } = self.cols[x.idx()][i];
            let row = &self.rows[row as usize];
            let b = row.basic;
            self.beta[b.idx()].add_scaled(&row.entries[idx as usize].1, &diff);
            self.note_basic(b);
        }
        self.beta[x.idx()] = v;
    }

    /// Pivots basic `xi` (row `r`) with nonbasic `xj`, first moving `xi` to `v`.
    pub(super) fn pivot_and_update(
        &mut self,
        r: usize,
        xi: TVar,
        xj: TVar,
        v: &super::DeltaRational,
    ) {
        let a_ij = coef_in(&self.rows[r].entries, xj).clone();
        let theta = v.sub(&self.beta[xi.idx()]).scale(&a_ij.recip());
        self.beta[xi.idx()] = v.clone();
        self.beta[xj.idx()] = self.beta[xj.idx()].add(&theta);
        for i in 0..self.cols[xj.idx()].len() {
            let ColEntry { row: k, idx } = self.cols[xj.idx()][i];
            if k as usize == r {
                continue;
            }
            let row = &self.rows[k as usize];
            let b = row.basic;
            self.beta[b.idx()].add_scaled(&row.entries[idx as usize].1, &theta);
            self.note_basic(b);
        }
        self.pivot(r, xi, xj);
        self.note_basic(xj);
        self.stats.pivots += 1;
    }

    /// Makes `xj` basic in row `r` (where `xi` was basic) and eliminates it elsewhere.
    fn pivot(&mut self, r: usize, xi: TVar, xj: TVar) {
        let j = self.rows[r]
            .entries
            .iter()
            .position(|(v, _)| *v == xj)
            .expect("pivot column in row");
        let a_ij = self.remove_entry(r, j);
        let inv = a_ij.recip();
        let neg_inv = -&inv;
        for (_, a) in self.rows[r].entries.iter_mut() {
            *a = super::fast::mul(a, &neg_inv);
        }
        self.push_entry(r, xi, inv);
        self.rows[r].basic = xj;
        self.basic_row[xj.idx()] = r as u32;
        self.basic_row[xi.idx()] = NO_ROW;
        // Eliminate xj from every other row: row_k += c · row_r.
        let def = std::mem::take(&mut self.rows[r].entries);
        while let Some(&ColEntry { row: k, idx }) = self.cols[xj.idx()].last() {
            let c = self.remove_entry(k as usize, idx as usize);
            self.add_scaled_row(k as usize, &c, &def);
        }
        self.rows[r].entries = def;
        if self.propagation {
            self.mark_dirty(r);
        }
    }

    /// `row_k += c · src`, dropping entries that cancel.
    fn add_scaled_row(&mut self, k: usize, c: &Rational, src: &[(TVar, Rational)]) {
        for (i, (v, _)) in self.rows[k].entries.iter().enumerate() {
            self.pos[v.idx()] = i as u32;
        }
        let mut cancelled = false;
        for (v, a) in src {
            let pi = self.pos[v.idx()];
            if pi == u32::MAX {
                self.pos[v.idx()] = self.rows[k].entries.len() as u32;
                self.push_entry(k, *v, super::fast::mul(c, a));
            } else {
                let e = &mut self.rows[k].entries[pi as usize].1;
                super::fast::add_mul(e, c, a);
                cancelled |= e.is_zero();
            }
        }
        for (v, _) in &self.rows[k].entries {
            self.pos[v.idx()] = u32::MAX;
        }
        if cancelled {
            let mut i = 0;
            while i < self.rows[k].entries.len() {
                if self.rows[k].entries[i].1.is_zero() {
                    self.remove_entry(k, i);
                } else {
                    i += 1;
                }
            }
        }
        if self.propagation {
            self.mark_dirty(k);
        }
    }

    pub(super) fn mark_dirty(&mut self, r: usize) {
        if !self.row_dirty[r] {
            self.row_dirty[r] = true;
            self.dirty_rows.push(r as u32);
        }
    }

    /// The rows of the tableau as `(basic, entries)` (for cuts and diagnostics).
    pub fn rows(&self) -> impl Iterator<Item = (TVar, &[(TVar, Rational)])> {
        self.rows.iter().map(|r| (r.basic, r.entries.as_slice()))
    }

    /// The row in which `v` is basic.
    pub fn row_of(&self, v: TVar) -> Option<&[(TVar, Rational)]> {
        match self.basic_row[v.idx()] {
            NO_ROW => None,
            r => Some(&self.rows[r as usize].entries),
        }
    }

    /// Debug check of the tableau invariants: rows hold under `beta`, `cols` are exact,
    /// nonbasic variables respect their bounds, and each row equals the slack definitions.
    pub fn check_invariants(&self) -> Result<(), String> {
        for (r, row) in self.rows.iter().enumerate() {
            let mut val = super::DeltaRational::ZERO;
            for (v, _) in &row.entries {
                if self.basic_row[v.idx()] != NO_ROW {
                    return Err(format!("basic {v:?} in row {r}"));
                }
            }
            for (i, (v, _)) in row.entries.iter().enumerate() {
                let ce = self.cols[v.idx()].get(row.col_idx[i] as usize);
                if !ce.is_some_and(|ce| ce.row as usize == r && ce.idx as usize == i) {
                    return Err(format!("bad column back-pointer {v:?} row {r}"));
                }
            }
            for (v, a) in &row.entries {
                val.add_scaled(a, &self.beta[v.idx()]);
            }
            if val != self.beta[row.basic.idx()] {
                return Err(format!("row {r} violated"));
            }
        }
        for v in 0..self.num_vars() {
            let x = TVar(v as u32);
            if self.basic_row[v] == NO_ROW && (self.below_lower(x) || self.above_upper(x)) {
                return Err(format!("nonbasic {x:?} out of bounds"));
            }
            for (ci, ce) in self.cols[v].iter().enumerate() {
                let row = &self.rows[ce.row as usize];
                if row.entries.get(ce.idx as usize).map(|e| e.0) != Some(x)
                    || row.col_idx[ce.idx as usize] as usize != ci
                {
                    return Err(format!("stale col occurrence {x:?} row {}", ce.row));
                }
            }
        }
        Ok(())
    }
}

/// Coefficient of `x` in a row known to contain it.
pub(super) fn coef_in(entries: &[(TVar, Rational)], x: TVar) -> &Rational {
    &entries
        .iter()
        .find(|(v, _)| *v == x)
        .expect("variable in row")
        .1
}

fn merge_into(pos: &mut [u32], entries: &mut Vec<(TVar, Rational)>, v: TVar, a: Rational) {
    let p = pos[v.idx()];
    if p == u32::MAX {
        pos[v.idx()] = entries.len() as u32;
        entries.push((v, a));
    } else {
        entries[p as usize].1 += &a;
    }
}

/// Merges, sorts and scales a form to coprime integers with positive leading coefficient.
/// Returns the form and the factor applied, or `None` if it is zero.
pub(super) fn normalize(
    mut acc: Vec<(TVar, Rational)>,
) -> Option<(Vec<(TVar, Rational)>, Rational)> {
    acc.sort_by_key(|(v, _)| *v);
    let mut out: Vec<(TVar, Rational)> = Vec::with_capacity(acc.len());
    for (v, a) in acc {
        match out.last_mut() {
            Some((w, b)) if *w == v => *b += &a,
            _ => out.push((v, a)),
        }
    }
    out.retain(|(_, a)| !a.is_zero());
    if out.is_empty() {
        return None;
    }
    let mut den_lcm = Rational::ONE;
    let mut num_gcd = Rational::ZERO;
    for (_, a) in &out {
        den_lcm = den_lcm.lcm(&Rational::from_bigint(a.denom()));
        num_gcd = num_gcd.gcd(&Rational::from_bigint(a.numer()));
    }
    let mut factor = den_lcm / num_gcd;
    if out[0].1.is_negative() {
        factor = -factor;
    }
    if !factor.is_one() {
        for (_, a) in out.iter_mut() {
            *a *= &factor;
        }
    }
    Some((out, factor))
}
