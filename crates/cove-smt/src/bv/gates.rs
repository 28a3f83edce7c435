//! An and-inverter gate graph with structural hashing and constant folding: the target of
//! the bit-blaster.
//!
//! Literals follow AIGER (`2 * var + negated`, variable 0 is the constant false), so a graph
//! converts to a `cove-aig` circuit by renumbering alone.

use rustc_hash::FxHashMap;

/// A literal of a [`Gates`] graph: `2 * var + negated`.
pub type GLit = u32;

/// The constant false literal.
pub const G_FALSE: GLit = 0;
/// The constant true literal.
pub const G_TRUE: GLit = 1;

/// What defines a variable of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// Variable 0: the constant false.
    Const,
    /// A free input (a bit of a variable, or a term the blaster does not look into).
    Input,
    /// `a ∧ b`; both fanins have smaller variables.
    And(GLit, GLit),
}

/// The graph: nodes in topological order (fanins before gates).
#[derive(Clone, Debug)]
pub struct Gates {
    nodes: Vec<Node>,
    table: FxHashMap<(GLit, GLit), GLit>,
}

impl Default for Gates {
    fn default() -> Self {
        Gates::new()
    }
}

/// The variable of literal `l`.
#[inline]
pub fn var_of(l: GLit) -> u32 {
    l >> 1
}

impl Gates {
    /// A graph holding only the constant.
    pub fn new() -> Gates {
        Gates {
            nodes: vec![Node::Const],
            table: FxHashMap::default(),
        }
    }

    /// Number of variables (the constant included).
    pub fn num_vars(&self) -> usize {
        self.nodes.len()
    }

    /// What defines variable `v`.
    pub fn node(&self, v: u32) -> Node {
        self.nodes[v as usize]
    }

    /// A fresh input.
    pub fn input(&mut self) -> GLit {
        self.nodes.push(Node::Input);
        2 * (self.nodes.len() as u32 - 1)
    }

    /// `a ∧ b`, built at most once (constants, `a ∧ a` and `a ∧ ¬a` fold).
    pub fn and(&mut self, a: GLit, b: GLit) -> GLit {
        let (a, b) = if a < b { (b, a) } else { (a, b) };
        if b == G_FALSE || a == (b ^ 1) {
            return G_FALSE;
        }
        if b == G_TRUE || a == b {
            return a;
        }
        if let Some(&x) = self.table.get(&(a, b)) {
            return x;
        }
        self.nodes.push(Node::And(a, b));
        let x = 2 * (self.nodes.len() as u32 - 1);
        self.table.insert((a, b), x);
        x
    }

    /// `a ∨ b`.
    pub fn or(&mut self, a: GLit, b: GLit) -> GLit {
        self.and(a ^ 1, b ^ 1) ^ 1
    }

    /// `a ⊕ b`.
    pub fn xor(&mut self, a: GLit, b: GLit) -> GLit {
        // A constant operand: `x ⊕ 0 = x`, `x ⊕ 1 = ¬x`, which is the literal xor.
        if a <= G_TRUE || b <= G_TRUE {
            return a ^ b;
        }
        if a == b {
            return G_FALSE;
        }
        if a == b ^ 1 {
            return G_TRUE;
        }
        let x = self.and(a, b ^ 1);
        let y = self.and(a ^ 1, b);
        self.or(x, y)
    }

    /// `a ↔ b`.
    pub fn iff(&mut self, a: GLit, b: GLit) -> GLit {
        self.xor(a, b) ^ 1
    }

    /// `c ? t : e`.
    pub fn mux(&mut self, c: GLit, t: GLit, e: GLit) -> GLit {
        if c == G_TRUE || t == e {
            return t;
        }
        if c == G_FALSE {
            return e;
        }
        let x = self.and(c, t);
        let y = self.and(c ^ 1, e);
        self.or(x, y)
    }

    /// Conjunction of all `lits` (balanced, for shallow graphs).
    pub fn and_all(&mut self, lits: &[GLit]) -> GLit {
        let mut layer: Vec<GLit> = lits.to_vec();
        if layer.is_empty() {
            return G_TRUE;
        }
        while layer.len() > 1 {
            let mut next = Vec::with_capacity(layer.len().div_ceil(2));
            for pair in layer.chunks(2) {
                next.push(if pair.len() == 2 {
                    self.and(pair[0], pair[1])
                } else {
                    pair[0]
                });
            }
            layer = next;
        }
        layer[0]
    }

    /// Disjunction of all `lits`.
    pub fn or_all(&mut self, lits: &[GLit]) -> GLit {
        let neg: Vec<GLit> = lits.iter().map(|&l| l ^ 1).collect();
        self.and_all(&neg) ^ 1
    }

    /// The value of every variable given the inputs' values (`inputs(v)` for input `v`).
    pub fn simulate(&self, mut inputs: impl FnMut(u32) -> bool) -> Vec<bool> {
        let mut vals = vec![false; self.nodes.len()];
        for (v, n) in self.nodes.iter().enumerate() {
            vals[v] = match *n {
                Node::Const => false,
                Node::Input => inputs(v as u32),
                Node::And(a, b) => lit_value(&vals, a) && lit_value(&vals, b),
            };
        }
        vals
    }
}

/// The value of `l` under variable values `vals`.
#[inline]
pub fn lit_value(vals: &[bool], l: GLit) -> bool {
    vals[var_of(l) as usize] ^ (l & 1 == 1)
}
