//! BTOR2 reader (word-level hardware, the HWMCC word-level track's format).
//!
//! Supported: `sort bitvec`, `input`, `state`, `init`, `next`, `bad`, `constraint`, `output`,
//! every bit-vector operator of the BTOR2 specification (`not inc dec neg redand redor redxor`,
//! `add sub mul udiv urem sdiv srem smod`, `and or xor nand nor xnor implies iff`,
//! `sll srl sra rol ror`, `eq neq ult ulte ugt ugte slt slte sgt sgte`,
//! `concat slice uext sext`, `ite`, `uaddo saddo umulo smulo usubo ssubo sdivo`,
//! `const constd consth one ones zero`) and negated arguments (`-id`); arrays (memories):
//! `sort array`, `read`, `write`, array states with `init` (a constant array from an element
//! value, or another array) and `next`, `ite` and `eq`/`neq` over arrays. Refused as
//! unsupported, with the position of the offending token: array inputs, array indices wider
//! than [`MAX_INDEX_WIDTH`] bits, `fair` and `justice` (liveness).
//!
//! The bit-blaster represents an array of at most [`MAX_ARRAY_BITS`] bits as the bit-vector of
//! all its cells, cell `k` at bits `k·w .. (k+1)·w` for element width `w` ([`ArraySort`]):
//! equality of arrays is then the equality of these words (extensionality), `ite` selects whole
//! memories, and a state of array sort is `2^index · w` bits of state; such memories are
//! decided exactly, a register per cell. Larger memories are read all the same (the simulator
//! keeps memories sparse, [`crate::btor2_sim::Mem`]) and decided by another route: the CHC
//! encoding over the theory of arrays (the `cove` facade's BTOR2 route).
//!
//! The reader never panics and never recurses: every argument must be defined on an earlier
//! line, so the nodes come out topologically ordered; widths are bounded by [`MAX_WIDTH`].
//! Errors carry the 1-based line and column of the offending token.
//!
//! [`crate::btor2_blast`] turns a [`Model`] into an [`crate::Aig`]; [`crate::btor2_sim`]
//! simulates it at word level and checks BTOR2 witnesses.

use std::collections::HashMap;
use std::fmt;

/// Largest bit-vector width accepted (bounds the bit-blasted circuit on hostile input).
pub const MAX_WIDTH: u32 = 1 << 16;

/// Largest array the bit-blaster takes, in bits (cells times element width): every cell is a
/// register of the bit-blasted circuit. Larger memories are decided over the theory of arrays.
pub const MAX_ARRAY_BITS: u64 = 1 << 20;

/// Widest array index accepted (memories of up to 2^64 cells: every address space of real
/// hardware).
pub const MAX_INDEX_WIDTH: u32 = 64;

/// The sort of an array node: `2^index` cells of `elem` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArraySort {
    /// Width of the index.
    pub index: u32,
    /// Width of an element.
    pub elem: u32,
}

impl ArraySort {
    /// Number of cells.
    pub fn cells(self) -> u128 {
        1u128 << self.index
    }

    /// Number of bits (cells times element width).
    pub fn bits(self) -> u128 {
        self.cells() * self.elem as u128
    }

    /// Whether the bit-blaster takes arrays of this sort (at most [`MAX_ARRAY_BITS`] bits).
    pub fn blastable(self) -> bool {
        self.bits() <= MAX_ARRAY_BITS as u128
    }

    /// [`Node::width`] of a node of this sort: its bits when blastable, else 0.
    fn node_width(self) -> u32 {
        if self.blastable() {
            self.bits() as u32
        } else {
            0
        }
    }
}

/// A malformed or unsupported BTOR2 file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Btor2Error {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in bytes).
    pub col: usize,
    /// What is wrong.
    pub msg: String,
    /// Well formed but outside what Cove supports (arrays, liveness).
    pub unsupported: bool,
}

impl fmt::Display for Btor2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.msg)
    }
}

impl std::error::Error for Btor2Error {}

/// A reference to a node, possibly bit-wise negated (`-id` in the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg {
    /// Node index in [`Model::nodes`].
    pub node: usize,
    /// Bit-wise negation.
    pub neg: bool,
}

/// Unary operators (result width = argument width, except the reductions: 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum UnOp {
    Not,
    Inc,
    Dec,
    Neg,
    Redand,
    Redor,
    Redxor,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Smod,
    And,
    Or,
    Xor,
    Nand,
    Nor,
    Xnor,
    Implies,
    Iff,
    Sll,
    Srl,
    Sra,
    Rol,
    Ror,
    Eq,
    Neq,
    Ult,
    Ulte,
    Ugt,
    Ugte,
    Slt,
    Slte,
    Sgt,
    Sgte,
    Concat,
    Uaddo,
    Saddo,
    Umulo,
    Smulo,
    Usubo,
    Ssubo,
    Sdivo,
}

impl BinOp {
    /// Whether the result is one bit (comparisons and overflow predicates).
    pub fn is_predicate(self) -> bool {
        use BinOp::*;
        matches!(
            self,
            Eq | Neq
                | Ult
                | Ulte
                | Ugt
                | Ugte
                | Slt
                | Slte
                | Sgt
                | Sgte
                | Uaddo
                | Saddo
                | Umulo
                | Smulo
                | Usubo
                | Ssubo
                | Sdivo
        )
    }
}

/// What a node computes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// The `i`-th input (declaration order).
    Input(usize),
    /// The `i`-th state (declaration order).
    State(usize),
    /// A constant, least significant bit first.
    Const(Vec<bool>),
    /// Unary operator.
    Un(UnOp, Arg),
    /// Binary operator.
    Bin(BinOp, Arg, Arg),
    /// If-then-else on a one-bit condition.
    Ite(Arg, Arg, Arg),
    /// Bits `upper..=lower` of the argument.
    Slice(Arg, u32, u32),
    /// Zero extension by the given number of bits.
    Uext(Arg, u32),
    /// Sign extension by the given number of bits.
    Sext(Arg, u32),
    /// The element of an array at an index.
    Read(Arg, Arg),
    /// The array with one element replaced: array, index, value.
    Write(Arg, Arg, Arg),
    /// The array whose every element is the argument (an array state's `init` by an element).
    ConstArray(Arg),
}

impl Op {
    /// The arguments, in order.
    pub fn args(&self) -> Vec<Arg> {
        match self {
            Op::Input(_) | Op::State(_) | Op::Const(_) => vec![],
            Op::Un(_, a)
            | Op::Slice(a, _, _)
            | Op::Uext(a, _)
            | Op::Sext(a, _)
            | Op::ConstArray(a) => vec![*a],
            Op::Bin(_, a, b) | Op::Read(a, b) => vec![*a, *b],
            Op::Ite(a, b, c) | Op::Write(a, b, c) => vec![*a, *b, *c],
        }
    }
}

/// A node: a bit-vector or an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Width in bits (≥ 1); for an array, of all its cells together when the bit-blaster
    /// takes it ([`ArraySort::blastable`]), else 0.
    pub width: u32,
    /// For an array node, its sort (`None` for bit-vectors).
    pub array: Option<ArraySort>,
    /// Definition.
    pub op: Op,
    /// BTOR2 id (line id).
    pub id: i64,
}

/// A state variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Its node.
    pub node: usize,
    /// Initial value (`None`: any value).
    pub init: Option<Arg>,
    /// Next-state function (`None`: a fresh value at every step).
    pub next: Option<Arg>,
    /// Symbol, if any.
    pub name: Option<String>,
}

/// An input variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// Its node.
    pub node: usize,
    /// Symbol, if any.
    pub name: Option<String>,
}

/// A BTOR2 model over bit-vectors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    /// Nodes, topologically ordered (arguments before users).
    pub nodes: Vec<Node>,
    /// Inputs in declaration order.
    pub inputs: Vec<Input>,
    /// States in declaration order.
    pub states: Vec<State>,
    /// Bad-state properties (one bit each).
    pub bads: Vec<Arg>,
    /// Invariant constraints (one bit each).
    pub constraints: Vec<Arg>,
    /// Outputs (informational).
    pub outputs: Vec<Arg>,
    /// The states with an `init` whose value is not a constant, in an order in which each
    /// one's value depends only on states that are uninitialised or come earlier.
    pub init_order: Vec<usize>,
}

impl Model {
    /// The first memory too large for the bit-blaster ([`ArraySort::blastable`]), if any.
    pub fn unblastable_array(&self) -> Option<&Node> {
        self.nodes
            .iter()
            .find(|n| n.array.is_some_and(|s| !s.blastable()))
    }

    /// Width of an argument.
    pub fn width(&self, a: Arg) -> u32 {
        self.nodes[a.node].width
    }

    /// Whether the value of node `n` is determined by constants alone (no input or state in
    /// its cone).
    pub fn constant_nodes(&self) -> Vec<bool> {
        let mut c = vec![false; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            c[i] = match &n.op {
                Op::Input(_) | Op::State(_) => false,
                Op::Const(_) => true,
                Op::Un(_, a)
                | Op::Slice(a, _, _)
                | Op::Uext(a, _)
                | Op::Sext(a, _)
                | Op::ConstArray(a) => c[a.node],
                Op::Bin(_, a, b) | Op::Read(a, b) => c[a.node] && c[b.node],
                Op::Ite(a, b, d) | Op::Write(a, b, d) => c[a.node] && c[b.node] && c[d.node],
            };
        }
        c
    }
}

#[derive(Clone, Copy)]
enum Entry {
    Sort(u32),
    ArraySort(ArraySort),
    Node(usize),
    /// A line that cannot be referenced (init, next, bad, …).
    Other,
}

struct Tok<'a> {
    text: &'a str,
    col: usize,
}

struct Line<'a> {
    no: usize,
    toks: Vec<Tok<'a>>,
    /// Column just past the last token (errors about missing tokens point there).
    end: usize,
}

type R<T> = Result<T, Btor2Error>;

impl Line<'_> {
    fn err<T>(&self, i: usize, msg: impl Into<String>) -> R<T> {
        let col = self.toks.get(i).map_or(self.end, |t| t.col);
        Err(Btor2Error {
            line: self.no,
            col,
            msg: msg.into(),
            unsupported: false,
        })
    }
    fn unsupported<T>(&self, i: usize, msg: impl Into<String>) -> R<T> {
        let mut e = self.err::<T>(i, msg);
        if let Err(e) = &mut e {
            e.unsupported = true;
        }
        e
    }
    fn tok(&self, i: usize, what: &str) -> R<&str> {
        match self.toks.get(i) {
            Some(t) => Ok(t.text),
            None => self.err(i, format!("missing {what}")),
        }
    }
    fn int(&self, i: usize, what: &str) -> R<i64> {
        let t = self.tok(i, what)?;
        let ok = !t.is_empty()
            && t.len() <= 18
            && t.bytes()
                .enumerate()
                .all(|(k, b)| b.is_ascii_digit() || (k == 0 && b == b'-' && t.len() > 1));
        match t.parse::<i64>() {
            Ok(v) if ok => Ok(v),
            _ => self.err(
                i,
                format!("expected {what} (an integer), found '{}'", short(t)),
            ),
        }
    }
    fn uint(&self, i: usize, what: &str) -> R<u32> {
        let v = self.int(i, what)?;
        if !(0..=MAX_WIDTH as i64).contains(&v) {
            return self.err(i, format!("{what} {v} is out of range (0..={MAX_WIDTH})"));
        }
        Ok(v as u32)
    }
}

fn short(t: &str) -> String {
    t.chars().take(40).collect()
}

struct Parser {
    ids: HashMap<i64, Entry>,
    m: Model,
    /// Per state node: whether `init` / `next` was seen.
    seen_init: Vec<bool>,
    seen_next: Vec<bool>,
    state_of_node: HashMap<usize, usize>,
    /// Per state: where its `init` line's value is (refusals of initial values point there).
    init_pos: HashMap<usize, (usize, usize)>,
}

impl Parser {
    fn sort(&self, l: &Line, i: usize) -> R<u32> {
        match self.sort_any(l, i)? {
            (w, None) => Ok(w),
            (_, Some(_)) => l.err(i, "expected a bit-vector sort, found an array sort"),
        }
    }

    /// A sort of either kind: its width and, for arrays, the array sort.
    fn sort_any(&self, l: &Line, i: usize) -> R<(u32, Option<ArraySort>)> {
        let id = l.int(i, "sort id")?;
        match self.ids.get(&id) {
            Some(Entry::Sort(w)) => Ok((*w, None)),
            Some(Entry::ArraySort(a)) => Ok((a.node_width(), Some(*a))),
            Some(_) => l.err(i, format!("{id} is not a sort")),
            None => l.err(i, format!("sort {id} is not defined")),
        }
    }

    /// Argument `i` as a bit-vector (arrays are refused).
    fn bv_arg(&self, l: &Line, i: usize) -> R<Arg> {
        let a = self.arg(l, i)?;
        if self.m.nodes[a.node].array.is_some() {
            return l.err(i, "expected a bit-vector, found an array");
        }
        Ok(a)
    }

    /// Argument `i` as an array of sort `want` (a negated array is refused).
    fn array_arg(&self, l: &Line, i: usize, want: Option<ArraySort>) -> R<(Arg, ArraySort)> {
        let a = self.arg(l, i)?;
        let Some(s) = self.m.nodes[a.node].array else {
            return l.err(i, "expected an array, found a bit-vector");
        };
        if a.neg {
            return l.err(i, "an array cannot be negated");
        }
        if let Some(w) = want
            && w != s
        {
            return l.err(
                i,
                format!(
                    "array sort mismatch: index {} element {}, expected index {} element {}",
                    s.index, s.elem, w.index, w.elem
                ),
            );
        }
        Ok((a, s))
    }

    fn arg(&self, l: &Line, i: usize) -> R<Arg> {
        let id = l.int(i, "argument id")?;
        let (neg, key) = if id < 0 { (true, -id) } else { (false, id) };
        match self.ids.get(&key) {
            Some(Entry::Node(n)) => Ok(Arg { node: *n, neg }),
            Some(Entry::Sort(_) | Entry::ArraySort(_)) => {
                l.err(i, format!("{key} is a sort, not a node"))
            }
            Some(Entry::Other) => l.err(i, format!("line {key} has no value")),
            None => l.err(
                i,
                format!("node {key} is not defined (arguments must come first)"),
            ),
        }
    }

    fn add_node(&mut self, id: i64, width: u32, op: Op) -> usize {
        let n = self.m.nodes.len();
        self.m.nodes.push(Node {
            width,
            array: None,
            op,
            id,
        });
        self.ids.insert(id, Entry::Node(n));
        n
    }

    fn add_array_node(&mut self, id: i64, sort: ArraySort, op: Op, named: bool) -> usize {
        let n = self.m.nodes.len();
        self.m.nodes.push(Node {
            width: sort.node_width(),
            array: Some(sort),
            op,
            id,
        });
        if named {
            self.ids.insert(id, Entry::Node(n));
        }
        n
    }

    fn expect_width(&self, l: &Line, i: usize, a: Arg, w: u32) -> R<()> {
        let aw = self.m.width(a);
        if aw != w {
            return l.err(i, format!("argument has width {aw}, expected {w}"));
        }
        Ok(())
    }

    fn line(&mut self, l: &Line) -> R<()> {
        let id = l.int(0, "node id")?;
        if id <= 0 {
            return l.err(0, "ids must be positive");
        }
        if self.ids.contains_key(&id) {
            return l.err(0, format!("id {id} is defined twice"));
        }
        let kw = l.tok(1, "keyword")?;
        // The symbol (optional) follows the fixed arguments.
        let symbol = |k: usize| l.toks.get(k).map(|t| t.text.to_string());
        let extra = |k: usize| -> R<()> {
            if l.toks.len() > k {
                return l.err(k, format!("unexpected token '{}'", short(l.toks[k].text)));
            }
            Ok(())
        };
        use BinOp::*;
        let bin = match kw {
            "add" => Some(Add),
            "sub" => Some(Sub),
            "mul" => Some(Mul),
            "udiv" => Some(Udiv),
            "urem" => Some(Urem),
            "sdiv" => Some(Sdiv),
            "srem" => Some(Srem),
            "smod" => Some(Smod),
            "and" => Some(And),
            "or" => Some(Or),
            "xor" => Some(Xor),
            "nand" => Some(Nand),
            "nor" => Some(Nor),
            "xnor" => Some(Xnor),
            "implies" => Some(Implies),
            "iff" => Some(Iff),
            "sll" => Some(Sll),
            "srl" => Some(Srl),
            "sra" => Some(Sra),
            "rol" => Some(Rol),
            "ror" => Some(Ror),
            "eq" => Some(Eq),
            "neq" => Some(Neq),
            "ult" => Some(Ult),
            "ulte" => Some(Ulte),
            "ugt" => Some(Ugt),
            "ugte" => Some(Ugte),
            "slt" => Some(Slt),
            "slte" => Some(Slte),
            "sgt" => Some(Sgt),
            "sgte" => Some(Sgte),
            "concat" => Some(Concat),
            "uaddo" => Some(Uaddo),
            "saddo" => Some(Saddo),
            "umulo" => Some(Umulo),
            "smulo" => Some(Smulo),
            "usubo" => Some(Usubo),
            "ssubo" => Some(Ssubo),
            "sdivo" => Some(Sdivo),
            _ => None,
        };
        if let Some(op) = bin {
            let w = self.sort(l, 2)?;
            let a = self.arg(l, 3)?;
            let b = self.arg(l, 4)?;
            extra(6)?;
            let (sa, sb) = (self.m.nodes[a.node].array, self.m.nodes[b.node].array);
            if sa.is_some() || sb.is_some() {
                // Arrays: extensional equality only.
                if !matches!(op, Eq | Neq) {
                    return l.err(3, format!("'{kw}' takes bit-vectors, not arrays"));
                }
                self.array_arg(l, 3, None)?;
                self.array_arg(l, 4, sa)?;
            }
            let (wa, wb) = (self.m.width(a), self.m.width(b));
            let want = match op {
                Concat => {
                    if wa as u64 + wb as u64 != w as u64 {
                        return l.err(
                            2,
                            format!(
                                "concat of widths {wa} and {wb} has width {}, the sort {w}",
                                wa as u64 + wb as u64
                            ),
                        );
                    }
                    w
                }
                _ => {
                    if wa != wb {
                        return l.err(4, format!("arguments have widths {wa} and {wb}"));
                    }
                    if matches!(op, Implies | Iff) && wa != 1 {
                        return l.err(3, format!("'{kw}' takes one-bit arguments, not width {wa}"));
                    }
                    if op.is_predicate() { 1 } else { wa }
                }
            };
            if w != want {
                return l.err(2, format!("'{kw}' has width {want}, the sort says {w}"));
            }
            self.add_node(id, w, Op::Bin(op, a, b));
            return Ok(());
        }
        let un = match kw {
            "not" => Some(UnOp::Not),
            "inc" => Some(UnOp::Inc),
            "dec" => Some(UnOp::Dec),
            "neg" => Some(UnOp::Neg),
            "redand" => Some(UnOp::Redand),
            "redor" => Some(UnOp::Redor),
            "redxor" => Some(UnOp::Redxor),
            _ => None,
        };
        if let Some(op) = un {
            let w = self.sort(l, 2)?;
            let a = self.bv_arg(l, 3)?;
            extra(5)?;
            let want = if matches!(op, UnOp::Redand | UnOp::Redor | UnOp::Redxor) {
                1
            } else {
                self.m.width(a)
            };
            if w != want {
                return l.err(2, format!("'{kw}' has width {want}, the sort says {w}"));
            }
            self.add_node(id, w, Op::Un(op, a));
            return Ok(());
        }
        match kw {
            "sort" => {
                let k = l.tok(2, "sort kind")?;
                match k {
                    "bitvec" => {
                        let w = l.uint(3, "width")?;
                        if w == 0 {
                            return l.err(3, "width must be at least 1");
                        }
                        extra(4)?;
                        self.ids.insert(id, Entry::Sort(w));
                    }
                    "array" => {
                        let idx = self.sort(l, 3)?;
                        let elem = self.sort(l, 4)?;
                        extra(5)?;
                        let sort = ArraySort { index: idx, elem };
                        if idx > MAX_INDEX_WIDTH {
                            return l.unsupported(
                                3,
                                format!(
                                    "an array index of {idx} bits is wider than \
                                     {MAX_INDEX_WIDTH} bits"
                                ),
                            );
                        }
                        self.ids.insert(id, Entry::ArraySort(sort));
                    }
                    _ => return l.err(2, format!("unknown sort '{}'", short(k))),
                }
            }
            "input" | "state" => {
                let (w, array) = self.sort_any(l, 2)?;
                extra(4)?;
                let name = symbol(3);
                if array.is_some() && kw == "input" {
                    return l.unsupported(2, "array inputs are not supported (array states are)");
                }
                if kw == "input" {
                    let i = self.m.inputs.len();
                    let n = self.add_node(id, w, Op::Input(i));
                    self.m.inputs.push(Input { node: n, name });
                } else {
                    let i = self.m.states.len();
                    let n = match array {
                        Some(sort) => self.add_array_node(id, sort, Op::State(i), true),
                        None => self.add_node(id, w, Op::State(i)),
                    };
                    self.m.states.push(State {
                        node: n,
                        init: None,
                        next: None,
                        name,
                    });
                    self.seen_init.push(false);
                    self.seen_next.push(false);
                    self.state_of_node.insert(n, i);
                }
            }
            "init" | "next" => {
                let (w, array) = self.sort_any(l, 2)?;
                let s = self.arg(l, 3)?;
                let mut v = self.arg(l, 4)?;
                extra(6)?;
                let Some(&si) = self.state_of_node.get(&s.node).filter(|_| !s.neg) else {
                    return l.err(3, format!("'{kw}' needs a state"));
                };
                if self.m.nodes[s.node].array != array {
                    return l.err(2, "the sort is not the state's");
                }
                self.expect_width(l, 3, s, w)?;
                match array {
                    Some(sort) if kw == "init" && self.m.nodes[v.node].array.is_none() => {
                        // A memory initialised to one element value everywhere.
                        self.expect_width(l, 4, v, sort.elem)?;
                        let n = self.add_array_node(id, sort, Op::ConstArray(v), false);
                        v = Arg {
                            node: n,
                            neg: false,
                        };
                    }
                    Some(sort) => {
                        self.array_arg(l, 4, Some(sort))?;
                    }
                    None => {
                        self.bv_arg(l, 4)?;
                        self.expect_width(l, 4, v, w)?;
                    }
                }
                let seen = if kw == "init" {
                    &mut self.seen_init[si]
                } else {
                    &mut self.seen_next[si]
                };
                if *seen {
                    return l.err(3, format!("state has a second '{kw}'"));
                }
                *seen = true;
                if kw == "init" {
                    self.init_pos.insert(si, (l.no, l.toks[4].col));
                    self.m.states[si].init = Some(v);
                } else {
                    self.m.states[si].next = Some(v);
                }
                self.ids.insert(id, Entry::Other);
            }
            "bad" | "constraint" | "output" => {
                let a = self.bv_arg(l, 2)?;
                extra(4)?;
                if kw != "output" && self.m.width(a) != 1 {
                    return l.err(
                        2,
                        format!(
                            "'{kw}' needs a one-bit argument, not width {}",
                            self.m.width(a)
                        ),
                    );
                }
                match kw {
                    "bad" => self.m.bads.push(a),
                    "constraint" => self.m.constraints.push(a),
                    _ => self.m.outputs.push(a),
                }
                self.ids.insert(id, Entry::Other);
            }
            "fair" | "justice" => {
                return l.unsupported(
                    1,
                    format!("'{kw}' (liveness) is not supported; safety properties ('bad') only"),
                );
            }
            "read" => {
                let w = self.sort(l, 2)?;
                let (a, sort) = self.array_arg(l, 3, None)?;
                let i = self.bv_arg(l, 4)?;
                extra(6)?;
                self.expect_width(l, 4, i, sort.index)?;
                if w != sort.elem {
                    return l.err(
                        2,
                        format!("'read' has width {}, the sort says {w}", sort.elem),
                    );
                }
                self.add_node(id, w, Op::Read(a, i));
            }
            "write" => {
                let (_, array) = self.sort_any(l, 2)?;
                let Some(sort) = array else {
                    return l.err(2, "'write' has an array sort");
                };
                let (a, _) = self.array_arg(l, 3, Some(sort))?;
                let i = self.bv_arg(l, 4)?;
                let v = self.bv_arg(l, 5)?;
                extra(7)?;
                self.expect_width(l, 4, i, sort.index)?;
                self.expect_width(l, 5, v, sort.elem)?;
                self.add_array_node(id, sort, Op::Write(a, i, v), true);
            }
            "const" | "constd" | "consth" | "one" | "ones" | "zero" => {
                let w = self.sort(l, 2)?;
                let bits = match kw {
                    "zero" | "one" | "ones" => {
                        extra(4)?;
                        let mut b = vec![kw == "ones"; w as usize];
                        if kw == "one" {
                            b[0] = true;
                        }
                        b
                    }
                    _ => {
                        let t = l.tok(3, "constant value")?;
                        extra(5)?;
                        match parse_const(kw, t, w) {
                            Ok(b) => b,
                            Err(msg) => return l.err(3, msg),
                        }
                    }
                };
                self.add_node(id, w, Op::Const(bits));
            }
            "ite" => {
                let (w, array) = self.sort_any(l, 2)?;
                let c = self.bv_arg(l, 3)?;
                self.expect_width(l, 3, c, 1)?;
                if let Some(sort) = array {
                    let (a, _) = self.array_arg(l, 4, Some(sort))?;
                    let (b, _) = self.array_arg(l, 5, Some(sort))?;
                    extra(7)?;
                    self.add_array_node(id, sort, Op::Ite(c, a, b), true);
                } else {
                    let a = self.bv_arg(l, 4)?;
                    let b = self.bv_arg(l, 5)?;
                    extra(7)?;
                    self.expect_width(l, 4, a, w)?;
                    self.expect_width(l, 5, b, w)?;
                    self.add_node(id, w, Op::Ite(c, a, b));
                }
            }
            "slice" => {
                let w = self.sort(l, 2)?;
                let a = self.bv_arg(l, 3)?;
                let u = l.uint(4, "upper bit")?;
                let lo = l.uint(5, "lower bit")?;
                extra(7)?;
                let aw = self.m.width(a);
                if u >= aw || lo > u {
                    return l.err(4, format!("slice {u} {lo} of a {aw}-bit argument"));
                }
                if w != u - lo + 1 {
                    return l.err(
                        2,
                        format!("slice has width {}, the sort says {w}", u - lo + 1),
                    );
                }
                self.add_node(id, w, Op::Slice(a, u, lo));
            }
            "uext" | "sext" => {
                let w = self.sort(l, 2)?;
                let a = self.bv_arg(l, 3)?;
                let n = l.uint(4, "extension width")?;
                extra(6)?;
                let aw = self.m.width(a);
                if aw as u64 + n as u64 != w as u64 {
                    return l.err(
                        2,
                        format!(
                            "{kw} of a {aw}-bit argument by {n} has width {}, the sort says {w}",
                            aw as u64 + n as u64
                        ),
                    );
                }
                let op = if kw == "uext" {
                    Op::Uext(a, n)
                } else {
                    Op::Sext(a, n)
                };
                self.add_node(id, w, op);
            }
            _ => return l.err(1, format!("unknown keyword '{}'", short(kw))),
        }
        Ok(())
    }
}

/// Bits (least significant first) of a `const` (binary), `constd` (decimal, possibly
/// negative) or `consth` (hexadecimal) literal of width `w`.
fn parse_const(kw: &str, t: &str, w: u32) -> Result<Vec<bool>, String> {
    let w = w as usize;
    match kw {
        "const" => {
            if t.len() != w || !t.bytes().all(|b| b == b'0' || b == b'1') {
                return Err(format!("expected {w} binary digits, found '{}'", short(t)));
            }
            Ok(t.bytes().rev().map(|b| b == b'1').collect())
        }
        "consth" => {
            let mut bits = Vec::with_capacity(w);
            for c in t.bytes().rev() {
                let Some(d) = (c as char).to_digit(16) else {
                    return Err(format!("expected hexadecimal digits, found '{}'", short(t)));
                };
                for k in 0..4 {
                    bits.push(d >> k & 1 == 1);
                }
            }
            if t.is_empty() {
                return Err("empty constant".into());
            }
            if bits.len() > w {
                if bits[w..].iter().any(|&b| b) {
                    return Err(format!("constant '{}' does not fit in {w} bits", short(t)));
                }
                bits.truncate(w);
            }
            bits.resize(w, false);
            Ok(bits)
        }
        _ => {
            let (neg, digits) = match t.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, t),
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("expected a decimal number, found '{}'", short(t)));
            }
            // Magnitude in 64-bit limbs, one more than the width needs (overflow check).
            let nl = w / 64 + 2;
            let mut limbs = vec![0u64; nl];
            for d in digits.bytes() {
                let mut carry = (d - b'0') as u128;
                for x in limbs.iter_mut() {
                    let v = (*x as u128) * 10 + carry;
                    *x = v as u64;
                    carry = v >> 64;
                }
                let too_big =
                    carry != 0 || (w..nl * 64).any(|i| limbs[i / 64] >> (i % 64) & 1 == 1);
                if too_big {
                    return Err(format!("constant '{}' does not fit in {w} bits", short(t)));
                }
            }
            let mut bits: Vec<bool> = (0..w).map(|i| limbs[i / 64] >> (i % 64) & 1 == 1).collect();
            if neg {
                // Two's complement: invert and add one.
                let mut carry = true;
                for b in bits.iter_mut() {
                    let v = !*b;
                    *b = v ^ carry;
                    carry &= v;
                }
            }
            Ok(bits)
        }
    }
}

/// Reads a BTOR2 model.
pub fn parse_btor2(src: &[u8]) -> Result<Model, Btor2Error> {
    let mut p = Parser {
        ids: HashMap::new(),
        m: Model::default(),
        seen_init: Vec::new(),
        seen_next: Vec::new(),
        state_of_node: HashMap::new(),
        init_pos: HashMap::new(),
    };
    let text = match std::str::from_utf8(src) {
        Ok(t) => t,
        Err(e) => {
            let upto = &src[..e.valid_up_to()];
            let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
            let col = upto.len() - upto.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
            return Err(Btor2Error {
                line,
                col,
                msg: "invalid UTF-8".into(),
                unsupported: false,
            });
        }
    };
    for (no, raw) in text.split('\n').enumerate() {
        let mut toks = Vec::new();
        let mut end = 1;
        let bytes = raw.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if bytes[i] == b';' {
                break;
            }
            let s = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            toks.push(Tok {
                text: &raw[s..i],
                col: s + 1,
            });
            end = i + 1;
        }
        if toks.is_empty() {
            continue;
        }
        let l = Line {
            no: no + 1,
            toks,
            end,
        };
        p.line(&l)?;
    }
    let mut m = p.m;
    let init_pos = p.init_pos;
    m.init_order = init_order(&m).map_err(|(s, msg)| {
        let (line, col) = init_pos.get(&s).copied().unwrap_or((1, 1));
        Btor2Error {
            line,
            col,
            msg,
            unsupported: true,
        }
    })?;
    Ok(m)
}

/// The order in which non-constant initial values are computed (see [`Model::init_order`]);
/// refuses initial values that read inputs or depend on each other cyclically.
fn init_order(m: &Model) -> Result<Vec<usize>, (usize, String)> {
    let konst = m.constant_nodes();
    // Per state with a non-constant init: the states its init value reads.
    let mut deps: Vec<Option<Vec<usize>>> = vec![None; m.states.len()];
    let mut mark = vec![usize::MAX; m.nodes.len()];
    for (si, s) in m.states.iter().enumerate() {
        let Some(v) = s.init else { continue };
        if konst[v.node] {
            continue;
        }
        let mut d = Vec::new();
        let mut stack = vec![v.node];
        while let Some(n) = stack.pop() {
            if mark[n] == si || konst[n] {
                continue;
            }
            mark[n] = si;
            match &m.nodes[n].op {
                Op::Input(_) => {
                    return Err((
                        si,
                        "initial values that read inputs are not supported".into(),
                    ));
                }
                Op::State(t) => d.push(*t),
                op => stack.extend(op.args().iter().map(|a| a.node)),
            }
        }
        deps[si] = Some(d);
    }
    // Kahn's algorithm over "t's initial value is needed by s".
    let mut pending: Vec<usize> = vec![0; m.states.len()];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); m.states.len()];
    for (si, d) in deps.iter().enumerate() {
        if let Some(d) = d {
            for &t in d {
                if deps[t].is_some() {
                    pending[si] += 1;
                    users[t].push(si);
                }
            }
        }
    }
    let mut ready: Vec<usize> = (0..m.states.len())
        .rev()
        .filter(|&s| deps[s].is_some() && pending[s] == 0)
        .collect();
    let mut order = Vec::new();
    while let Some(s) = ready.pop() {
        order.push(s);
        for &u in &users[s] {
            pending[u] -= 1;
            if pending[u] == 0 {
                ready.push(u);
            }
        }
    }
    if let Some(si) = (0..m.states.len()).find(|&s| deps[s].is_some() && pending[s] > 0) {
        return Err((si, "initial values depend on each other cyclically".into()));
    }
    Ok(order)
}
