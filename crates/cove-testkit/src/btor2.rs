//! Random BTOR2 models (text): the word-level differential tests of the bit-blaster
//! (`cove-aig`) and of the Horn-clause encoding (`cove-chc`) draw from the same generator.

use crate::Rng;

/// Every binary operator of BTOR2.
pub const BIN_OPS: &[&str] = &[
    "add", "sub", "mul", "udiv", "urem", "sdiv", "srem", "smod", "and", "or", "xor", "nand", "nor",
    "xnor", "sll", "srl", "sra", "rol", "ror", "eq", "neq", "ult", "ulte", "ugt", "ugte", "slt",
    "slte", "sgt", "sgte", "uaddo", "saddo", "umulo", "smulo", "usubo", "ssubo", "sdivo",
];
/// Every unary operator of BTOR2.
pub const UN_OPS: &[&str] = &["not", "inc", "dec", "neg", "redand", "redor", "redxor"];

/// A random `w`-bit value, least significant bit first (`Bv::from_bits` of the simulator):
/// zero, all ones, the sign bit alone and small numbers as often as uniform draws, since
/// the operators' corner cases sit there. For the values of inputs, states and memory cells
/// that the differential tests feed both sides.
pub fn random_word(rng: &mut Rng, w: u32) -> Vec<bool> {
    match rng.below(6) {
        0 => vec![false; w as usize],
        1 => vec![true; w as usize],
        2 => (0..w).map(|i| i == w - 1).collect(),
        3 => {
            let v = rng.below(4);
            (0..w).map(|i| i < 64 && v >> i & 1 == 1).collect()
        }
        _ => (0..w).map(|_| rng.below(2) == 1).collect(),
    }
}

/// A random word-level combinational model: inputs, operators over them, each result an
/// `output`. Returns the text.
pub fn random_model(rng: &mut Rng, max_w: u32) -> String {
    let mut s = String::new();
    let mut id = 0i64;
    let mut sorts: std::collections::HashMap<u32, i64> = Default::default();
    let mut nodes: Vec<(i64, u32)> = Vec::new();
    let mut sort = |s: &mut String, id: &mut i64, w: u32| -> i64 {
        *sorts.entry(w).or_insert_with(|| {
            *id += 1;
            s.push_str(&format!("{id} sort bitvec {w}\n"));
            *id
        })
    };
    let pick_w = |rng: &mut Rng| -> u32 {
        match rng.below_u64(4) {
            0 => 1 + rng.below_u64(4) as u32,
            1 => [8, 16, 32, 64][rng.below_u64(4) as usize].min(max_w),
            _ => 1 + rng.below_u64(max_w as u64) as u32,
        }
    };
    // A leaf of width w: an input or a constant biased towards edge values.
    let leaf = |s: &mut String, id: &mut i64, rng: &mut Rng, w: u32, sid: i64| -> i64 {
        *id += 1;
        match rng.below_u64(8) {
            0..=3 => s.push_str(&format!("{id} input {sid} x{id}\n")),
            4 => s.push_str(&format!(
                "{id} {} {sid}\n",
                ["zero", "one", "ones"][rng.below_u64(3) as usize]
            )),
            5 => {
                // The minimum signed value.
                let v: String = (0..w).map(|i| if i == 0 { '1' } else { '0' }).collect();
                s.push_str(&format!("{id} const {sid} {v}\n"));
            }
            6 => {
                let v = rng.next_u64() % (1u64 << (w.min(63)));
                s.push_str(&format!(
                    "{id} constd {sid} {}\n",
                    v as i64 - (v as i64 >> 1)
                ));
            }
            _ => {
                let v: String = (0..w).map(|_| if rng.flip() { '1' } else { '0' }).collect();
                s.push_str(&format!("{id} const {sid} {v}\n"));
            }
        }
        *id
    };
    for _ in 0..30 {
        // An argument of width w: reuse a node of that width or make a leaf.
        let w = if nodes.is_empty() || rng.below_u64(3) == 0 {
            pick_w(rng)
        } else {
            nodes[rng.below_u64(nodes.len() as u64) as usize].1
        };
        let sid = sort(&mut s, &mut id, w);
        let arg = |s: &mut String, id: &mut i64, rng: &mut Rng, nodes: &Vec<(i64, u32)>| -> i64 {
            let same: Vec<i64> = nodes.iter().filter(|n| n.1 == w).map(|n| n.0).collect();
            let a = if same.is_empty() || rng.below_u64(3) == 0 {
                leaf(s, id, rng, w, sid)
            } else {
                same[rng.below_u64(same.len() as u64) as usize]
            };
            if rng.below_u64(6) == 0 { -a } else { a }
        };
        let a = arg(&mut s, &mut id, rng, &nodes);
        let k = rng.below_u64(10);
        let (line_w, text) = if k < 6 {
            let op = BIN_OPS[rng.below_u64(BIN_OPS.len() as u64) as usize];
            let b = arg(&mut s, &mut id, rng, &nodes);
            let pred = matches!(
                op,
                "eq" | "neq"
                    | "ult"
                    | "ulte"
                    | "ugt"
                    | "ugte"
                    | "slt"
                    | "slte"
                    | "sgt"
                    | "sgte"
                    | "uaddo"
                    | "saddo"
                    | "umulo"
                    | "smulo"
                    | "usubo"
                    | "ssubo"
                    | "sdivo"
            );
            let rw = if pred { 1 } else { w };
            (rw, format!("{op} {{}} {a} {b}"))
        } else if k == 6 {
            let op = UN_OPS[rng.below_u64(UN_OPS.len() as u64) as usize];
            let rw = if op.starts_with("red") { 1 } else { w };
            (rw, format!("{op} {{}} {a}"))
        } else if k == 7 {
            let u = rng.below_u64(w as u64) as u32;
            let l = rng.below_u64(u as u64 + 1) as u32;
            (u - l + 1, format!("slice {{}} {a} {u} {l}"))
        } else if k == 8 {
            let n = rng.below_u64((max_w - w) as u64 + 1) as u32;
            let op = if rng.below_u64(2) == 0 {
                "uext"
            } else {
                "sext"
            };
            (w + n, format!("{op} {{}} {a} {n}"))
        } else {
            let c1 = sort(&mut s, &mut id, 1);
            let ones: Vec<i64> = nodes.iter().filter(|n| n.1 == 1).map(|n| n.0).collect();
            let c = if ones.is_empty() {
                leaf(&mut s, &mut id, rng, 1, c1)
            } else {
                ones[rng.below_u64(ones.len() as u64) as usize]
            };
            if rng.below_u64(2) == 0 && w * 2 <= max_w {
                let b = arg(&mut s, &mut id, rng, &nodes);
                (2 * w, format!("concat {{}} {a} {b}"))
            } else {
                let b = arg(&mut s, &mut id, rng, &nodes);
                (w, format!("ite {{}} {c} {a} {b}"))
            }
        };
        let rs = sort(&mut s, &mut id, line_w);
        id += 1;
        s.push_str(&format!(
            "{id} {}\n",
            text.replacen("{}", &rs.to_string(), 1)
        ));
        nodes.push((id, line_w));
        let out = id;
        id += 1;
        s.push_str(&format!("{id} output {out}\n"));
    }
    s
}

/// A random model over `states` memory states of `2^a` cells (`a` drawn from
/// `index_widths`, elements of 1 to 8 bits): writes at input addresses with input values,
/// `ite` between memories, array equality and disequality, reads; every read and comparison
/// an `output`. Returns the text.
pub fn random_memory_model(rng: &mut Rng, index_widths: &[u32], states: usize) -> String {
    let a = index_widths[rng.below(index_widths.len())];
    let e = 1 + rng.below(8) as u32;
    let mut s =
        format!("1 sort bitvec {a}\n2 sort bitvec {e}\n3 sort bitvec 1\n4 sort array 1 2\n");
    let mut id = 4i64;
    let mut arrays = vec![];
    for k in 0..states.max(1) {
        id += 1;
        s.push_str(&format!("{id} state 4 m{k}\n"));
        arrays.push(id);
    }
    let input = |s: &mut String, id: &mut i64, sort: u32| {
        *id += 1;
        s.push_str(&format!("{id} input {sort}\n"));
        *id
    };
    for _ in 0..2 + rng.below(7) {
        let pick = arrays[rng.below(arrays.len())];
        let other = arrays[rng.below(arrays.len())];
        match rng.below(5) {
            0 | 1 => {
                let (i, v) = (input(&mut s, &mut id, 1), input(&mut s, &mut id, 2));
                id += 1;
                s.push_str(&format!("{id} write 4 {pick} {i} {v}\n"));
                arrays.push(id);
            }
            2 => {
                let c = input(&mut s, &mut id, 3);
                id += 1;
                s.push_str(&format!("{id} ite 4 {c} {pick} {other}\n"));
                arrays.push(id);
            }
            3 => {
                let op = if rng.flip() { "eq" } else { "neq" };
                id += 1;
                s.push_str(&format!(
                    "{id} {op} 3 {pick} {other}\n{} output {id}\n",
                    id + 1
                ));
                id += 1;
            }
            _ => {
                let i = input(&mut s, &mut id, 1);
                id += 1;
                s.push_str(&format!("{id} read 2 {pick} {i}\n{} output {id}\n", id + 1));
                id += 1;
            }
        }
    }
    for &arr in &arrays {
        let i = input(&mut s, &mut id, 1);
        id += 1;
        s.push_str(&format!("{id} read 2 {arr} {i}\n{} output {id}\n", id + 1));
        id += 1;
    }
    s
}
