//! Lexer and S-expression reader.
//!
//! The reader turns the input into S-expressions one top-level command at a time, so errors
//! are reported in file order and memory stays proportional to the largest command. Nodes
//! live in a flat [`Arena`] (children are index ranges), and both reading and every later
//! walk over the arena are iterative: arbitrarily deep nesting can neither overflow the stack
//! nor make dropping the tree recursive.
//!
//! Lexical syntax follows SMT-LIB 2.6: simple and `|quoted|` symbols, `:keywords`, numerals,
//! decimals, `"strings"` with `""` escapes, and `;` comments. `#x`/`#b` literals belong to
//! the bit-vector theory and are reported as unsupported.

use super::error::{ErrorKind, ParseError, Pos, err};

/// Index of a node in an [`Arena`].
pub(crate) type NodeId = u32;

/// A leaf of an S-expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Atom<'a> {
    /// A simple symbol such as `x` or `<=`.
    Sym(&'a str),
    /// The contents of a quoted symbol `|...|`.
    QSym(&'a str),
    /// A keyword, without the leading colon.
    Keyword(&'a str),
    /// A numeral such as `42`.
    Numeral(&'a str),
    /// A decimal such as `4.25`.
    Decimal(&'a str),
    /// A string literal, unescaped.
    Str(String),
    /// A bit-vector literal: the digits of `#b…` (radix 2) or `#x…` (radix 16).
    Bv(&'a str, u32),
}

impl Atom<'_> {
    /// Short description for error messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Atom::Sym(s) => format!("symbol '{s}'"),
            Atom::QSym(s) => format!("symbol '|{s}|'"),
            Atom::Keyword(k) => format!("keyword ':{k}'"),
            Atom::Numeral(n) => format!("numeral {n}"),
            Atom::Decimal(d) => format!("decimal {d}"),
            Atom::Str(_) => "string literal".to_string(),
            Atom::Bv(d, r) => format!("literal #{}{d}", if *r == 2 { 'b' } else { 'x' }),
        }
    }
}

/// One node: an atom or a list.
#[derive(Clone, Debug)]
pub(crate) enum Kind<'a> {
    Atom(Atom<'a>),
    /// Children are `arena.kids[first..first + len]`.
    List {
        first: u32,
        len: u32,
    },
}

/// A node with its source position and byte span.
#[derive(Clone, Debug)]
pub(crate) struct Node<'a> {
    pub(crate) kind: Kind<'a>,
    pub(crate) pos: Pos,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// Flat storage of the S-expressions of one command.
#[derive(Default)]
pub(crate) struct Arena<'a> {
    nodes: Vec<Node<'a>>,
    kids: Vec<NodeId>,
}

impl<'a> Arena<'a> {
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.kids.clear();
    }

    pub(crate) fn node(&self, id: NodeId) -> &Node<'a> {
        &self.nodes[id as usize]
    }

    pub(crate) fn pos(&self, id: NodeId) -> Pos {
        self.nodes[id as usize].pos
    }

    /// The atom of `id`, if it is one.
    pub(crate) fn atom(&self, id: NodeId) -> Option<&Atom<'a>> {
        match &self.nodes[id as usize].kind {
            Kind::Atom(a) => Some(a),
            Kind::List { .. } => None,
        }
    }

    /// The children of `id`, if it is a list.
    pub(crate) fn list(&self, id: NodeId) -> Option<&[NodeId]> {
        match self.nodes[id as usize].kind {
            Kind::List { first, len } => Some(&self.kids[first as usize..(first + len) as usize]),
            Kind::Atom(_) => None,
        }
    }

    /// The symbol of `id`, if it is a (plain or quoted) symbol.
    pub(crate) fn symbol(&self, id: NodeId) -> Option<&'a str> {
        match self.nodes[id as usize].kind {
            Kind::Atom(Atom::Sym(s)) | Kind::Atom(Atom::QSym(s)) => Some(s),
            _ => None,
        }
    }

    /// The name of `id` if it is an unquoted symbol (reserved words only match these).
    pub(crate) fn plain_symbol(&self, id: NodeId) -> Option<&'a str> {
        match self.nodes[id as usize].kind {
            Kind::Atom(Atom::Sym(s)) => Some(s),
            _ => None,
        }
    }

    /// Short description of a node for error messages.
    pub(crate) fn describe(&self, id: NodeId) -> String {
        match &self.nodes[id as usize].kind {
            Kind::Atom(a) => a.describe(),
            Kind::List { .. } => "a list".to_string(),
        }
    }

    fn push(&mut self, node: Node<'a>) -> NodeId {
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }
}

/// The characters of simple symbols besides letters and digits.
pub(crate) fn is_symbol_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&b)
}

/// Streaming reader over a UTF-8 source.
pub(crate) struct Reader<'a> {
    src: &'a str,
    bytes: &'a [u8],
    i: usize,
    line: u32,
    col: u32,
    /// Open lists: (position, byte offset, index into `pending`).
    open: Vec<(Pos, usize, usize)>,
    pending: Vec<NodeId>,
}

impl<'a> Reader<'a> {
    /// Validates UTF-8 and creates a reader over `src`.
    pub(crate) fn new(src: &'a [u8]) -> Result<Reader<'a>, ParseError> {
        match std::str::from_utf8(src) {
            Ok(s) => Ok(Reader {
                src: s,
                bytes: src,
                // A byte-order mark is not part of the text.
                i: if s.starts_with('\u{feff}') { 3 } else { 0 },
                line: 1,
                col: 1,
                open: vec![],
                pending: vec![],
            }),
            Err(e) => {
                let bad = e.valid_up_to();
                let mut r = Reader {
                    src: "",
                    bytes: &src[..bad],
                    i: 0,
                    line: 1,
                    col: 1,
                    open: vec![],
                    pending: vec![],
                };
                while r.i < bad {
                    r.bump();
                }
                err(
                    r.pos(),
                    ErrorKind::NonUtf8,
                    format!("invalid UTF-8 byte 0x{:02X}", src[bad]),
                )
            }
        }
    }

    /// The source text.
    pub(crate) fn src(&self) -> &'a str {
        self.src
    }

    pub(crate) fn pos(&self) -> Pos {
        Pos::new(self.line, self.col)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    /// Advances one byte, keeping line and column (in characters) up to date.
    fn bump(&mut self) {
        let b = self.bytes[self.i];
        self.i += 1;
        if b == b'\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else if b & 0xC0 != 0x80 {
            self.col = self.col.saturating_add(1);
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            if b.is_ascii_whitespace() {
                self.bump();
            } else if b == b';' {
                while let Some(c) = self.peek() {
                    if c == b'\n' {
                        break;
                    }
                    self.bump();
                }
            } else {
                break;
            }
        }
    }

    /// Reads the next top-level S-expression into `arena` (which the caller clears between
    /// commands). `Ok(None)` at end of input.
    pub(crate) fn read(&mut self, arena: &mut Arena<'a>) -> Result<Option<NodeId>, ParseError> {
        self.open.clear();
        self.pending.clear();
        loop {
            self.skip_ws();
            let pos = self.pos();
            let start = self.i;
            let Some(b) = self.peek() else {
                return match self.open.last() {
                    None => Ok(None),
                    Some(&(p, _, _)) => err(
                        pos,
                        ErrorKind::UnexpectedEof,
                        format!("unexpected end of input: missing ')' for the '(' at {p}"),
                    ),
                };
            };
            let node = match b {
                b'(' => {
                    self.bump();
                    self.open.push((pos, start, self.pending.len()));
                    continue;
                }
                b')' => {
                    self.bump();
                    let Some((p, s, first)) = self.open.pop() else {
                        return err(
                            pos,
                            ErrorKind::Syntax,
                            "unexpected ')' without a matching '('",
                        );
                    };
                    let kid_first = arena.kids.len() as u32;
                    arena.kids.extend_from_slice(&self.pending[first..]);
                    let len = (self.pending.len() - first) as u32;
                    self.pending.truncate(first);
                    arena.push(Node {
                        kind: Kind::List {
                            first: kid_first,
                            len,
                        },
                        pos: p,
                        start: s,
                        end: self.i,
                    })
                }
                _ => {
                    let atom = self.atom(pos)?;
                    arena.push(Node {
                        kind: Kind::Atom(atom),
                        pos,
                        start,
                        end: self.i,
                    })
                }
            };
            if self.open.is_empty() {
                return Ok(Some(node));
            }
            self.pending.push(node);
        }
    }

    fn atom(&mut self, pos: Pos) -> Result<Atom<'a>, ParseError> {
        let start = self.i;
        let b = self.bytes[start];
        match b {
            b'|' => {
                self.bump();
                let s = self.i;
                loop {
                    match self.peek() {
                        None => {
                            return err(
                                self.pos(),
                                ErrorKind::UnexpectedEof,
                                format!(
                                    "unexpected end of input in the quoted symbol starting at {pos}"
                                ),
                            );
                        }
                        Some(b'|') => break,
                        Some(_) => self.bump(),
                    }
                }
                let sym = &self.src[s..self.i];
                self.bump();
                Ok(Atom::QSym(sym))
            }
            b'"' => {
                self.bump();
                let mut out = String::new();
                let mut s = self.i;
                loop {
                    match self.peek() {
                        None => {
                            return err(
                                self.pos(),
                                ErrorKind::UnexpectedEof,
                                format!("unexpected end of input in the string starting at {pos}"),
                            );
                        }
                        Some(b'"') => {
                            out.push_str(&self.src[s..self.i]);
                            self.bump();
                            if self.peek() == Some(b'"') {
                                out.push('"');
                                self.bump();
                                s = self.i;
                            } else {
                                return Ok(Atom::Str(out));
                            }
                        }
                        Some(_) => self.bump(),
                    }
                }
            }
            b':' => {
                self.bump();
                let s = self.i;
                while self.peek().is_some_and(is_symbol_char) {
                    self.bump();
                }
                if s == self.i {
                    return err(pos, ErrorKind::Syntax, "expected a keyword name after ':'");
                }
                Ok(Atom::Keyword(&self.src[s..self.i]))
            }
            b'#' => {
                self.bump();
                let radix = match self.peek() {
                    Some(b'x') => 16,
                    Some(b'b') => 2,
                    _ => return err(pos, ErrorKind::Syntax, "unexpected character '#'"),
                };
                self.bump();
                let s = self.i;
                while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                    self.bump();
                }
                let digits = &self.src[s..self.i];
                let ok = !digits.is_empty()
                    && (radix == 16 || digits.bytes().all(|c| c == b'0' || c == b'1'))
                    && !self.peek().is_some_and(is_symbol_char);
                if !ok {
                    return err(pos, ErrorKind::Syntax, "malformed bit-vector literal");
                }
                Ok(Atom::Bv(digits, radix))
            }
            b'0'..=b'9' => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
                let mut decimal = false;
                if self.peek() == Some(b'.') {
                    self.bump();
                    let s = self.i;
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                    if s == self.i {
                        return err(
                            pos,
                            ErrorKind::Syntax,
                            "malformed decimal: expected digits after '.'",
                        );
                    }
                    decimal = true;
                }
                if self.peek().is_some_and(is_symbol_char) {
                    return err(
                        pos,
                        ErrorKind::Syntax,
                        "malformed numeral: a symbol cannot start with a digit",
                    );
                }
                let text = &self.src[start..self.i];
                Ok(if decimal {
                    Atom::Decimal(text)
                } else {
                    Atom::Numeral(text)
                })
            }
            _ if is_symbol_char(b) => {
                while self.peek().is_some_and(is_symbol_char) {
                    self.bump();
                }
                Ok(Atom::Sym(&self.src[start..self.i]))
            }
            _ => {
                let c = self.src[start..].chars().next().unwrap_or('?');
                err(
                    pos,
                    ErrorKind::Syntax,
                    format!("unexpected character {c:?}"),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(src: &str) -> Result<usize, ParseError> {
        let mut r = Reader::new(src.as_bytes())?;
        let mut a = Arena::default();
        let mut n = 0;
        while r.read(&mut a)?.is_some() {
            n += 1;
            a.clear();
        }
        Ok(n)
    }

    #[test]
    fn reads_atoms_and_lists() {
        assert_eq!(
            read_all("(a (b |c d| \"e\"\"f\") 1 2.5 :k) ; comment\n x").unwrap(),
            2
        );
        let mut r = Reader::new(b"(f |x y| \"a\"\"b\")").unwrap();
        let mut a = Arena::default();
        let top = r.read(&mut a).unwrap().unwrap();
        let kids = a.list(top).unwrap().to_vec();
        assert_eq!(a.atom(kids[1]), Some(&Atom::QSym("x y")));
        assert_eq!(a.atom(kids[2]), Some(&Atom::Str("a\"b".into())));
    }

    #[test]
    fn positions_count_characters() {
        let e = read_all("(|é| \"é\" \n  ')").unwrap_err();
        assert_eq!((e.line, e.col, e.kind), (2, 3, ErrorKind::Syntax));
        let e = Reader::new(b"ab\ncd\xff").err().unwrap();
        assert_eq!((e.line, e.col, e.kind), (2, 3, ErrorKind::NonUtf8));
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        assert_eq!(read_all("\u{feff}(a)").unwrap(), 1);
        let e = read_all("\u{feff}(a))").unwrap_err();
        assert_eq!((e.line, e.col), (1, 4));
    }

    #[test]
    fn deep_nesting_is_fine() {
        let src = format!("{}{}", "(".repeat(200_000), ")".repeat(200_000));
        assert_eq!(read_all(&src).unwrap(), 1);
        let e = read_all(&"(".repeat(10)).unwrap_err();
        assert_eq!((e.line, e.col, e.kind), (1, 11, ErrorKind::UnexpectedEof));
    }
}
