//! Lexer and parser for Cove's PRISM-language subset (see [`crate::prism`] for the subset).
//!
//! The parser produces a syntax tree in which every expression node, declaration and
//! command keeps its `line:column`, so that the later phases (name resolution, state
//! exploration) can report errors at the exact place in the source.

use super::PrismError;
use cove_logic::Rational;

/// A 1-based source position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    /// Line.
    pub line: usize,
    /// Column (characters).
    pub col: usize,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(Rational, bool), // value, written as an integer literal
    Str(String),
    Sym(&'static str),
    Eof,
}

const SYMS: [&str; 33] = [
    "<=>", "|||", "||", "|[", "]|", "<-", "?", "=>", "->", "<=", ">=", "!=", "..", "[", "]", "(",
    ")", ";", ":", ",", "=", "'", "+", "-", "*", "/", "<", ">", "&", "|", "!", "{", "}",
];

fn lex(src: &str) -> Result<Vec<(Tok, Pos)>, PrismError> {
    let chars: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let mut out = Vec::new();
    let adv = |i: &mut usize, line: &mut usize, col: &mut usize| {
        let c = chars[*i];
        *i += 1;
        if c == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            adv(&mut i, &mut line, &mut col);
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                adv(&mut i, &mut line, &mut col);
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            let p = Pos { line, col };
            adv(&mut i, &mut line, &mut col);
            adv(&mut i, &mut line, &mut col);
            loop {
                if i + 1 >= chars.len() {
                    return Err(PrismError::at(p, "unterminated comment"));
                }
                if chars[i] == '*' && chars[i + 1] == '/' {
                    adv(&mut i, &mut line, &mut col);
                    adv(&mut i, &mut line, &mut col);
                    break;
                }
                adv(&mut i, &mut line, &mut col);
            }
            continue;
        }
        let p = Pos { line, col };
        if c.is_ascii_alphabetic() || c == '_' {
            let s = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                adv(&mut i, &mut line, &mut col);
            }
            out.push((Tok::Ident(chars[s..i].iter().collect()), p));
            continue;
        }
        // `.5` is a number; `..` is the range symbol.
        let leading_dot = c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
        if c.is_ascii_digit() || leading_dot {
            let s = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                adv(&mut i, &mut line, &mut col);
            }
            let mut is_int = true;
            if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
                is_int = false;
                adv(&mut i, &mut line, &mut col);
                while i < chars.len() && chars[i].is_ascii_digit() {
                    adv(&mut i, &mut line, &mut col);
                }
            }
            let mut text: String = chars[s..i].iter().collect();
            // An exponent: `1e-5`, `2.5E3`.
            let mut exp = 0i64;
            if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                let mut j = i + 1;
                let neg = j < chars.len() && chars[j] == '-';
                if j < chars.len() && (chars[j] == '-' || chars[j] == '+') {
                    j += 1;
                }
                if j < chars.len() && chars[j].is_ascii_digit() {
                    while i < j {
                        adv(&mut i, &mut line, &mut col);
                    }
                    let s2 = i;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        adv(&mut i, &mut line, &mut col);
                    }
                    let digits: String = chars[s2..i].iter().collect();
                    exp = digits
                        .parse::<i64>()
                        .ok()
                        .filter(|e| *e <= 30)
                        .ok_or_else(|| PrismError::at(p, "exponent too large"))?;
                    if neg {
                        exp = -exp;
                    }
                    is_int = false;
                }
            }
            if text.starts_with('.') {
                text.insert(0, '0');
            }
            let mut v =
                Rational::parse_decimal(&text).ok_or_else(|| PrismError::at(p, "bad number"))?;
            let ten = Rational::int(10);
            for _ in 0..exp.abs() {
                v = if exp > 0 {
                    v * ten.clone()
                } else {
                    v / ten.clone()
                };
            }
            out.push((Tok::Num(v, is_int), p));
            continue;
        }
        if c == '"' {
            let s = i + 1;
            adv(&mut i, &mut line, &mut col);
            while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
                adv(&mut i, &mut line, &mut col);
            }
            if i >= chars.len() || chars[i] != '"' {
                return Err(PrismError::at(p, "unterminated string"));
            }
            let text: String = chars[s..i].iter().collect();
            adv(&mut i, &mut line, &mut col);
            out.push((Tok::Str(text), p));
            continue;
        }
        let mut found = None;
        for s in SYMS {
            let sc: Vec<char> = s.chars().collect();
            if chars[i..].starts_with(&sc) {
                found = Some(s);
                break;
            }
        }
        let Some(s) = found else {
            return Err(PrismError::at(p, format!("unexpected character `{c}`")));
        };
        for _ in s.chars() {
            adv(&mut i, &mut line, &mut col);
        }
        out.push((Tok::Sym(s), p));
    }
    out.push((Tok::Eof, Pos { line, col }));
    Ok(out)
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&`
    And,
    /// `|`
    Or,
    /// `=>`
    Implies,
    /// `<=>`
    Iff,
}

/// Expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A numeric literal (integers are rationals with denominator 1).
    Num(Rational, Pos),
    /// `true` / `false`.
    Bool(bool, Pos),
    /// An identifier: variable, constant or formula.
    Ident(String, Pos),
    /// `-e`
    Neg(Box<Expr>, Pos),
    /// `!e`
    Not(Box<Expr>, Pos),
    /// `a op b`
    Bin(BinOp, Box<Expr>, Box<Expr>, Pos),
    /// `c ? a : b`
    Ite(Box<Expr>, Box<Expr>, Box<Expr>, Pos),
    /// `f(args)` for `min`, `max`, `floor`, `ceil`, `round`, `mod`, `pow`, `log`.
    Call(String, Vec<Expr>, Pos),
}

impl Expr {
    /// The position of the expression.
    pub fn pos(&self) -> Pos {
        match self {
            Expr::Num(_, p)
            | Expr::Bool(_, p)
            | Expr::Ident(_, p)
            | Expr::Neg(_, p)
            | Expr::Not(_, p) => *p,
            Expr::Bin(_, _, _, p) | Expr::Ite(_, _, _, p) | Expr::Call(_, _, p) => *p,
        }
    }

    /// Applies `f` to every identifier (used for renaming and formula expansion).
    pub fn map_idents(&self, f: &mut dyn FnMut(&str, Pos) -> Option<Expr>) -> Expr {
        match self {
            Expr::Ident(n, p) => f(n, *p).unwrap_or_else(|| self.clone()),
            Expr::Num(..) | Expr::Bool(..) => self.clone(),
            Expr::Neg(e, p) => Expr::Neg(Box::new(e.map_idents(f)), *p),
            Expr::Not(e, p) => Expr::Not(Box::new(e.map_idents(f)), *p),
            Expr::Bin(o, a, b, p) => {
                Expr::Bin(*o, Box::new(a.map_idents(f)), Box::new(b.map_idents(f)), *p)
            }
            Expr::Ite(c, a, b, p) => Expr::Ite(
                Box::new(c.map_idents(f)),
                Box::new(a.map_idents(f)),
                Box::new(b.map_idents(f)),
                *p,
            ),
            Expr::Call(n, args, p) => Expr::Call(
                n.clone(),
                args.iter().map(|a| a.map_idents(f)).collect(),
                *p,
            ),
        }
    }
}

/// The type of a constant or variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `int`
    Int,
    /// `double` (an exact rational here)
    Double,
    /// `bool`
    Bool,
}

/// `const T name [= e];`
#[derive(Clone, Debug)]
pub struct ConstDecl {
    /// Name.
    pub name: String,
    /// Declared type.
    pub ty: Type,
    /// Value, or `None` if it must be supplied from outside.
    pub value: Option<Expr>,
    /// Position of the name.
    pub pos: Pos,
}

/// The domain of a variable.
#[derive(Clone, Debug)]
pub enum VarKind {
    /// `bool`
    Bool,
    /// `[lo..hi]`
    Range(Expr, Expr),
    /// `int` (unbounded; exploration is limited by the state limit)
    Int,
}

/// A variable: `x : [lo..hi] [init e];`, `b : bool [init e];` or `n : int [init e];`.
#[derive(Clone, Debug)]
pub struct VarDecl {
    /// Name.
    pub name: String,
    /// Domain.
    pub kind: VarKind,
    /// Initial value (default: `lo`, `false` or 0).
    pub init: Option<Expr>,
    /// Position of the name.
    pub pos: Pos,
}

/// One assignment `(x' = e)`.
#[derive(Clone, Debug)]
pub struct Assign {
    /// Variable.
    pub var: String,
    /// New value.
    pub value: Expr,
    /// Position of the variable name.
    pub pos: Pos,
}

/// `[a] guard -> p1 : u1 + … ;`
#[derive(Clone, Debug)]
pub struct Command {
    /// Action label (`None` for `[]`).
    pub action: Option<String>,
    /// Guard.
    pub guard: Expr,
    /// `(probability, assignments)`; a missing probability is the literal 1.
    pub updates: Vec<(Expr, Vec<Assign>)>,
    /// Position of `[`.
    pub pos: Pos,
}

/// A module body.
#[derive(Clone, Debug)]
pub struct Module {
    /// Name.
    pub name: String,
    /// Variables.
    pub vars: Vec<VarDecl>,
    /// Commands.
    pub commands: Vec<Command>,
    /// Position of the name.
    pub pos: Pos,
}

/// A module definition: a body or a renaming of another module.
#[derive(Clone, Debug)]
pub enum ModuleDef {
    /// `module M … endmodule`
    Body(Module),
    /// `module M2 = M1 [old = new, …] endmodule`
    Renamed {
        /// The new module's name.
        name: String,
        /// The module renamed.
        base: String,
        /// `(old, new, position)`.
        renames: Vec<(String, String, Pos)>,
        /// Position of the new name.
        pos: Pos,
    },
}

/// The model type keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ModelType {
    /// `mdp` / `nondeterministic`, and the default when no keyword is given (as in PRISM).
    #[default]
    Mdp,
    /// `dtmc` / `probabilistic`: several enabled commands are resolved by a uniform choice.
    Dtmc,
}

/// A `system … endsystem` process term.
#[derive(Clone, Debug)]
pub enum SysTerm {
    /// A module by name.
    Module(String, Pos),
    /// `A || B`: synchronize on the actions both alphabets contain.
    Full(Box<SysTerm>, Box<SysTerm>),
    /// `A ||| B`: no synchronization.
    Interleave(Box<SysTerm>, Box<SysTerm>),
    /// `A |[a, b]| B`: synchronize on the listed actions only.
    Sync(Box<SysTerm>, Vec<String>, Box<SysTerm>),
    /// `A / {a, b}`: the actions become unlabelled.
    Hide(Box<SysTerm>, Vec<String>),
    /// `A {a <- b}`: action `a` is renamed to `b`.
    Rename(Box<SysTerm>, Vec<(String, String)>),
}

/// A parsed model file.
#[derive(Clone, Debug, Default)]
pub struct ModelAst {
    /// `mdp` or `dtmc`.
    pub model_type: ModelType,
    /// Constants in order.
    pub consts: Vec<ConstDecl>,
    /// Formulas `(name, body, position)` in order.
    pub formulas: Vec<(String, Expr, Pos)>,
    /// Global variables.
    pub globals: Vec<VarDecl>,
    /// `init … endinit` (with its position), if given.
    pub init: Option<(Expr, Pos)>,
    /// `system … endsystem`, if given.
    pub system: Option<SysTerm>,
    /// Modules in order.
    pub modules: Vec<ModuleDef>,
}

struct Parser {
    toks: Vec<(Tok, Pos)>,
    i: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].0
    }
    fn pos(&self) -> Pos {
        self.toks[self.i].1
    }
    fn bump(&mut self) -> (Tok, Pos) {
        let t = self.toks[self.i].clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }
    fn is_kw(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x == s)
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, PrismError> {
        let found = match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Num(v, _) => format!("`{v}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Eof => "end of file".into(),
        };
        Err(PrismError::at(
            self.pos(),
            format!("{}, found {found}", msg.into()),
        ))
    }
    fn expect_sym(&mut self, s: &str) -> Result<(), PrismError> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            self.err(format!("expected `{s}`"))
        }
    }
    fn expect_kw(&mut self, s: &str) -> Result<(), PrismError> {
        if self.is_kw(s) {
            self.bump();
            Ok(())
        } else {
            self.err(format!("expected `{s}`"))
        }
    }
    fn ident(&mut self, what: &str) -> Result<(String, Pos), PrismError> {
        match self.peek().clone() {
            Tok::Ident(s) if !is_keyword(&s) => {
                let p = self.pos();
                self.bump();
                Ok((s, p))
            }
            _ => self.err(format!("expected {what}")),
        }
    }

    fn model(&mut self) -> Result<ModelAst, PrismError> {
        let mut m = ModelAst::default();
        loop {
            match self.peek().clone() {
                Tok::Eof => return Ok(m),
                Tok::Ident(k) => match k.as_str() {
                    "mdp" | "nondeterministic" => {
                        self.bump();
                    }
                    "dtmc" | "probabilistic" => {
                        self.bump();
                        m.model_type = ModelType::Dtmc;
                    }
                    "const" => m.consts.push(self.const_decl()?),
                    "formula" => {
                        self.bump();
                        let (n, p) = self.ident("a formula name")?;
                        self.expect_sym("=")?;
                        let e = self.expr()?;
                        self.expect_sym(";")?;
                        m.formulas.push((n, e, p));
                    }
                    "label" => {
                        self.bump();
                        if !matches!(self.peek(), Tok::Str(_)) {
                            return self.err("expected a label name in quotes");
                        }
                        self.bump();
                        self.expect_sym("=")?;
                        self.expr()?;
                        self.expect_sym(";")?;
                    }
                    "global" => {
                        self.bump();
                        m.globals.push(self.var_decl()?);
                    }
                    "init" => {
                        let p = self.pos();
                        self.bump();
                        if m.init.is_some() {
                            return Err(PrismError::at(p, "a second `init … endinit` block"));
                        }
                        let e = self.expr()?;
                        self.expect_kw("endinit")?;
                        m.init = Some((e, p));
                    }
                    "rewards" => self.skip_rewards()?,
                    "system" => {
                        let p = self.pos();
                        self.bump();
                        if m.system.is_some() {
                            return Err(PrismError::at(p, "a second `system … endsystem` block"));
                        }
                        m.system = Some(self.sys_full()?);
                        self.expect_kw("endsystem")?;
                    }
                    "module" => m.modules.push(self.module()?),
                    "ctmc" | "stochastic" | "ctmdp" | "ma" | "pta" | "pomdp" | "popta" | "smg"
                    | "csg" | "tsg" | "lts" => {
                        return Err(PrismError::at(
                            self.pos(),
                            format!(
                                "`{k}` models are not supported: Cove's PRISM front end \
                                 handles `mdp` and `dtmc` models only"
                            ),
                        ));
                    }
                    _ => {
                        return self.err(
                            "expected `const`, `formula`, `label`, `global`, `module`, `init`, \
                             `rewards` or `system`",
                        );
                    }
                },
                _ => {
                    return self.err(
                        "expected `const`, `formula`, `label`, `global`, `module`, `init`, \
                         `rewards` or `system`",
                    );
                }
            }
        }
    }

    /// `rewards ["name"] … endrewards`: read (every item must be well formed) and dropped,
    /// since strong simulation does not look at rewards.
    fn skip_rewards(&mut self) -> Result<(), PrismError> {
        self.expect_kw("rewards")?;
        if matches!(self.peek(), Tok::Str(_)) {
            self.bump();
        }
        loop {
            if self.is_kw("endrewards") {
                self.bump();
                return Ok(());
            }
            if self.eat_sym("[") {
                if !self.is_sym("]") {
                    self.ident("an action label")?;
                }
                self.expect_sym("]")?;
            }
            self.expr()?;
            self.expect_sym(":")?;
            self.expr()?;
            self.expect_sym(";")?;
        }
    }

    fn sys_full(&mut self) -> Result<SysTerm, PrismError> {
        let mut a = self.sys_interleave()?;
        while self.eat_sym("||") {
            let b = self.sys_interleave()?;
            a = SysTerm::Full(Box::new(a), Box::new(b));
        }
        Ok(a)
    }

    fn sys_interleave(&mut self) -> Result<SysTerm, PrismError> {
        let mut a = self.sys_sync()?;
        while self.eat_sym("|||") {
            let b = self.sys_sync()?;
            a = SysTerm::Interleave(Box::new(a), Box::new(b));
        }
        Ok(a)
    }

    fn sys_sync(&mut self) -> Result<SysTerm, PrismError> {
        let mut a = self.sys_postfix()?;
        while self.eat_sym("|[") {
            let mut acts = Vec::new();
            loop {
                acts.push(self.ident("an action")?.0);
                if !self.eat_sym(",") {
                    break;
                }
            }
            self.expect_sym("]|")?;
            let b = self.sys_postfix()?;
            a = SysTerm::Sync(Box::new(a), acts, Box::new(b));
        }
        Ok(a)
    }

    fn sys_postfix(&mut self) -> Result<SysTerm, PrismError> {
        let mut a = if self.eat_sym("(") {
            let t = self.sys_full()?;
            self.expect_sym(")")?;
            t
        } else {
            let (n, p) = self.ident("a module name")?;
            SysTerm::Module(n, p)
        };
        loop {
            if self.eat_sym("/") {
                self.expect_sym("{")?;
                let mut acts = Vec::new();
                loop {
                    acts.push(self.ident("an action")?.0);
                    if !self.eat_sym(",") {
                        break;
                    }
                }
                self.expect_sym("}")?;
                a = SysTerm::Hide(Box::new(a), acts);
            } else if self.eat_sym("{") {
                let mut ren = Vec::new();
                loop {
                    let (x, _) = self.ident("an action")?;
                    self.expect_sym("<-")?;
                    let (y, _) = self.ident("an action")?;
                    ren.push((x, y));
                    if !self.eat_sym(",") {
                        break;
                    }
                }
                self.expect_sym("}")?;
                a = SysTerm::Rename(Box::new(a), ren);
            } else {
                return Ok(a);
            }
        }
    }

    fn var_decl(&mut self) -> Result<VarDecl, PrismError> {
        let (name, pos) = self.ident("a variable declaration, a command or `endmodule`")?;
        self.expect_sym(":")?;
        let kind = if self.is_kw("bool") {
            self.bump();
            VarKind::Bool
        } else if self.is_kw("int") {
            self.bump();
            VarKind::Int
        } else if self.is_kw("clock") || self.is_kw("double") {
            return self.err("only `bool`, `int` and `[lo..hi]` variables are supported");
        } else {
            self.expect_sym("[")?;
            let lo = self.expr()?;
            self.expect_sym("..")?;
            let hi = self.expr()?;
            self.expect_sym("]")?;
            VarKind::Range(lo, hi)
        };
        let init = if self.is_kw("init") {
            self.bump();
            Some(self.expr()?)
        } else {
            None
        };
        self.expect_sym(";")?;
        Ok(VarDecl {
            name,
            kind,
            init,
            pos,
        })
    }

    fn const_decl(&mut self) -> Result<ConstDecl, PrismError> {
        self.expect_kw("const")?;
        let ty = if self.is_kw("int") {
            self.bump();
            Type::Int
        } else if self.is_kw("double") {
            self.bump();
            Type::Double
        } else if self.is_kw("bool") {
            self.bump();
            Type::Bool
        } else {
            Type::Int
        };
        let (name, pos) = self.ident("a constant name")?;
        let value = if self.eat_sym("=") {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect_sym(";")?;
        Ok(ConstDecl {
            name,
            ty,
            value,
            pos,
        })
    }

    fn module(&mut self) -> Result<ModuleDef, PrismError> {
        self.expect_kw("module")?;
        let (name, pos) = self.ident("a module name")?;
        if self.eat_sym("=") {
            let (base, _) = self.ident("the name of the module to rename")?;
            self.expect_sym("[")?;
            let mut renames = Vec::new();
            loop {
                let (old, p) = self.ident("a name to rename")?;
                self.expect_sym("=")?;
                let (new, _) = self.ident("a new name")?;
                renames.push((old, new, p));
                if !self.eat_sym(",") {
                    break;
                }
            }
            self.expect_sym("]")?;
            self.expect_kw("endmodule")?;
            return Ok(ModuleDef::Renamed {
                name,
                base,
                renames,
                pos,
            });
        }
        let mut m = Module {
            name,
            vars: Vec::new(),
            commands: Vec::new(),
            pos,
        };
        loop {
            if self.is_kw("endmodule") {
                self.bump();
                return Ok(ModuleDef::Body(m));
            }
            if self.is_sym("[") {
                m.commands.push(self.command()?);
                continue;
            }
            m.vars.push(self.var_decl()?);
        }
    }

    fn command(&mut self) -> Result<Command, PrismError> {
        let pos = self.pos();
        self.expect_sym("[")?;
        let action = if self.is_sym("]") {
            None
        } else {
            Some(self.ident("an action label")?.0)
        };
        self.expect_sym("]")?;
        let guard = self.expr()?;
        self.expect_sym("->")?;
        let mut updates = Vec::new();
        loop {
            // `p : u` or just `u`; an update starts with `(` or `true`.
            let save = self.i;
            let prob = if self.is_sym("(") || self.is_kw("true") {
                // Could still be a parenthesised probability: try `expr :` first.
                match self.expr() {
                    Ok(e) if self.is_sym(":") => {
                        self.bump();
                        Some(e)
                    }
                    _ => {
                        self.i = save;
                        None
                    }
                }
            } else {
                let e = self.expr()?;
                self.expect_sym(":")?;
                Some(e)
            };
            let ppos = self.pos();
            let assigns = self.update()?;
            updates.push((prob.unwrap_or(Expr::Num(Rational::ONE, ppos)), assigns));
            if !self.eat_sym("+") {
                break;
            }
        }
        self.expect_sym(";")?;
        Ok(Command {
            action,
            guard,
            updates,
            pos,
        })
    }

    fn update(&mut self) -> Result<Vec<Assign>, PrismError> {
        if self.is_kw("true") {
            self.bump();
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        loop {
            self.expect_sym("(")?;
            let (var, pos) = self.ident("a variable")?;
            self.expect_sym("'")?;
            self.expect_sym("=")?;
            let value = self.expr()?;
            self.expect_sym(")")?;
            out.push(Assign { var, value, pos });
            if !self.eat_sym("&") {
                return Ok(out);
            }
        }
    }

    fn expr(&mut self) -> Result<Expr, PrismError> {
        self.ite()
    }

    fn implies(&mut self) -> Result<Expr, PrismError> {
        let a = self.iff()?;
        if self.is_sym("=>") {
            let p = self.pos();
            self.bump();
            let b = self.implies()?;
            return Ok(Expr::Bin(BinOp::Implies, Box::new(a), Box::new(b), p));
        }
        Ok(a)
    }

    fn iff(&mut self) -> Result<Expr, PrismError> {
        let mut a = self.or()?;
        while self.is_sym("<=>") {
            let p = self.pos();
            self.bump();
            let b = self.or()?;
            a = Expr::Bin(BinOp::Iff, Box::new(a), Box::new(b), p);
        }
        Ok(a)
    }

    fn or(&mut self) -> Result<Expr, PrismError> {
        let mut a = self.and()?;
        while self.is_sym("|") {
            let p = self.pos();
            self.bump();
            let b = self.and()?;
            a = Expr::Bin(BinOp::Or, Box::new(a), Box::new(b), p);
        }
        Ok(a)
    }

    fn and(&mut self) -> Result<Expr, PrismError> {
        let mut a = self.not()?;
        while self.is_sym("&") {
            let p = self.pos();
            self.bump();
            let b = self.not()?;
            a = Expr::Bin(BinOp::And, Box::new(a), Box::new(b), p);
        }
        Ok(a)
    }

    fn not(&mut self) -> Result<Expr, PrismError> {
        if self.is_sym("!") {
            let p = self.pos();
            self.bump();
            return Ok(Expr::Not(Box::new(self.not()?), p));
        }
        self.rel()
    }

    fn rel(&mut self) -> Result<Expr, PrismError> {
        let a = self.add()?;
        let op = match self.peek() {
            Tok::Sym("=") => BinOp::Eq,
            Tok::Sym("!=") => BinOp::Ne,
            Tok::Sym("<") => BinOp::Lt,
            Tok::Sym("<=") => BinOp::Le,
            Tok::Sym(">") => BinOp::Gt,
            Tok::Sym(">=") => BinOp::Ge,
            _ => return Ok(a),
        };
        let p = self.pos();
        self.bump();
        let b = self.add()?;
        Ok(Expr::Bin(op, Box::new(a), Box::new(b), p))
    }

    fn add(&mut self) -> Result<Expr, PrismError> {
        let mut a = self.mul()?;
        loop {
            let op = match self.peek() {
                Tok::Sym("+") => BinOp::Add,
                Tok::Sym("-") => BinOp::Sub,
                _ => return Ok(a),
            };
            // In an update list `p1 : u1 + p2 : u2`, `+` followed by an update is not ours:
            // the caller handles it. An update starts with `(x'`; detect it.
            if op == BinOp::Add && self.plus_starts_update() {
                return Ok(a);
            }
            let p = self.pos();
            self.bump();
            let b = self.mul()?;
            a = Expr::Bin(op, Box::new(a), Box::new(b), p);
        }
    }

    fn plus_starts_update(&self) -> bool {
        matches!(
            (
                &self.toks.get(self.i + 1).map(|t| &t.0),
                &self.toks.get(self.i + 2).map(|t| &t.0),
                &self.toks.get(self.i + 3).map(|t| &t.0)
            ),
            (
                Some(Tok::Sym("(")),
                Some(Tok::Ident(_)),
                Some(Tok::Sym("'"))
            )
        )
    }

    fn mul(&mut self) -> Result<Expr, PrismError> {
        let mut a = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Sym("*") => BinOp::Mul,
                Tok::Sym("/") => BinOp::Div,
                _ => return Ok(a),
            };
            let p = self.pos();
            self.bump();
            let b = self.unary()?;
            a = Expr::Bin(op, Box::new(a), Box::new(b), p);
        }
    }

    fn unary(&mut self) -> Result<Expr, PrismError> {
        if self.is_sym("-") {
            let p = self.pos();
            self.bump();
            return Ok(Expr::Neg(Box::new(self.unary()?), p));
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, PrismError> {
        let p = self.pos();
        match self.peek().clone() {
            Tok::Num(v, _) => {
                self.bump();
                Ok(Expr::Num(v, p))
            }
            Tok::Sym("(") => {
                self.bump();
                let e = self.ite()?;
                self.expect_sym(")")?;
                Ok(e)
            }
            Tok::Ident(s) if s == "true" || s == "false" => {
                self.bump();
                Ok(Expr::Bool(s == "true", p))
            }
            Tok::Ident(s) if s == "func" => {
                // `func(f, args…)`: PRISM's alternative syntax for the built-in functions.
                self.bump();
                self.expect_sym("(")?;
                let f = match self.peek().clone() {
                    Tok::Ident(f) if is_builtin(&f) => f,
                    _ => return self.err("expected a built-in function name"),
                };
                self.bump();
                let mut args = Vec::new();
                while self.eat_sym(",") {
                    args.push(self.ite()?);
                }
                self.expect_sym(")")?;
                Ok(Expr::Call(f, args, p))
            }
            Tok::Ident(s) if is_builtin(&s) => {
                self.bump();
                self.expect_sym("(")?;
                let mut args = vec![self.ite()?];
                while self.eat_sym(",") {
                    args.push(self.ite()?);
                }
                self.expect_sym(")")?;
                Ok(Expr::Call(s, args, p))
            }
            Tok::Ident(s) if !is_keyword(&s) => {
                self.bump();
                Ok(Expr::Ident(s, p))
            }
            _ => self.err("expected an expression"),
        }
    }

    /// `c ? a : b` (each `?` consumes exactly one `:`, so `c ? p : q : update` is unambiguous).
    fn ite(&mut self) -> Result<Expr, PrismError> {
        let c = self.implies()?;
        if self.is_qmark() {
            let p = self.pos();
            self.bump();
            let a = self.ite()?;
            self.expect_sym(":")?;
            let b = self.ite()?;
            return Ok(Expr::Ite(Box::new(c), Box::new(a), Box::new(b), p));
        }
        Ok(c)
    }

    fn is_qmark(&self) -> bool {
        matches!(self.peek(), Tok::Sym("?"))
    }
}

fn is_builtin(s: &str) -> bool {
    matches!(
        s,
        "min" | "max" | "floor" | "ceil" | "mod" | "pow" | "log" | "round"
    )
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "module"
            | "endmodule"
            | "const"
            | "formula"
            | "label"
            | "init"
            | "mdp"
            | "dtmc"
            | "int"
            | "double"
            | "bool"
            | "true"
            | "false"
            | "global"
            | "rewards"
            | "endrewards"
            | "min"
            | "max"
            | "floor"
            | "ceil"
            | "mod"
            | "pow"
            | "log"
            | "func"
            | "endinit"
            | "system"
            | "endsystem"
    )
}

/// Parses a model in the PRISM subset.
pub fn parse_model(src: &str) -> Result<ModelAst, PrismError> {
    let toks = lex(src)?;
    Parser { toks, i: 0 }.model()
}
