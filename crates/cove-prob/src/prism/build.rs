//! Name resolution, constant evaluation and explicit-state exploration of a PRISM model.
//!
//! Expressions are compiled once into [`CExpr`] with variables resolved to slots of the
//! state vector and constants folded to values, so that exploration never looks names up.
//! Type errors and arithmetic errors are found when an expression is evaluated in a
//! reachable state and are reported at the expression's position.

use super::PrismError;
use super::syntax::{
    Assign, BinOp, Command, ConstDecl, Expr, ModelAst, ModuleDef, Pos, Type, parse_model,
};
use crate::lpts::{Dist, Lpts, StateId};
use cove_logic::Rational;
use std::collections::HashMap;

/// Options for building an LPTS from a PRISM model.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Values for constants, overriding or completing the file (`N=3`, `p=1/10`, `b=true`).
    pub constants: Vec<(String, String)>,
    /// Give up (with an error) when more states than this are reached.
    pub max_states: usize,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            constants: Vec::new(),
            max_states: 2_000_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Num(Rational),
    Bool(bool),
}

#[derive(Clone, Debug)]
enum CExpr {
    Const(Value),
    Var(usize, bool), // slot, is_bool
    Neg(Box<CExpr>, Pos),
    Not(Box<CExpr>, Pos),
    Bin(BinOp, Box<CExpr>, Box<CExpr>, Pos),
    Ite(Box<CExpr>, Box<CExpr>, Box<CExpr>, Pos),
    Call(String, Vec<CExpr>, Pos),
}

fn num(v: Value, p: Pos) -> Result<Rational, PrismError> {
    match v {
        Value::Num(r) => Ok(r),
        Value::Bool(_) => Err(PrismError::at(p, "expected a number, found a Boolean")),
    }
}

fn boolean(v: Value, p: Pos) -> Result<bool, PrismError> {
    match v {
        Value::Bool(b) => Ok(b),
        Value::Num(_) => Err(PrismError::at(p, "expected a Boolean, found a number")),
    }
}

impl CExpr {
    fn eval(&self, st: &[i64]) -> Result<Value, PrismError> {
        Ok(match self {
            CExpr::Const(v) => v.clone(),
            CExpr::Var(i, true) => Value::Bool(st[*i] != 0),
            CExpr::Var(i, false) => Value::Num(Rational::int(st[*i])),
            CExpr::Neg(e, p) => Value::Num(-num(e.eval(st)?, *p)?),
            CExpr::Not(e, p) => Value::Bool(!boolean(e.eval(st)?, *p)?),
            CExpr::Ite(c, a, b, p) => {
                if boolean(c.eval(st)?, *p)? {
                    a.eval(st)?
                } else {
                    b.eval(st)?
                }
            }
            CExpr::Bin(op, a, b, p) => {
                let p = *p;
                match op {
                    BinOp::And => Value::Bool(boolean(a.eval(st)?, p)? && boolean(b.eval(st)?, p)?),
                    BinOp::Or => Value::Bool(boolean(a.eval(st)?, p)? || boolean(b.eval(st)?, p)?),
                    BinOp::Implies => {
                        Value::Bool(!boolean(a.eval(st)?, p)? || boolean(b.eval(st)?, p)?)
                    }
                    BinOp::Iff => Value::Bool(boolean(a.eval(st)?, p)? == boolean(b.eval(st)?, p)?),
                    BinOp::Eq | BinOp::Ne => {
                        let (x, y) = (a.eval(st)?, b.eval(st)?);
                        if std::mem::discriminant(&x) != std::mem::discriminant(&y) {
                            return Err(PrismError::at(p, "comparing a number with a Boolean"));
                        }
                        Value::Bool((x == y) == (*op == BinOp::Eq))
                    }
                    _ => {
                        let (x, y) = (num(a.eval(st)?, p)?, num(b.eval(st)?, p)?);
                        match op {
                            BinOp::Add => Value::Num(x + y),
                            BinOp::Sub => Value::Num(x - y),
                            BinOp::Mul => Value::Num(x * y),
                            BinOp::Div => {
                                if y.is_zero() {
                                    return Err(PrismError::at(p, "division by zero"));
                                }
                                Value::Num(x / y)
                            }
                            BinOp::Lt => Value::Bool(x < y),
                            BinOp::Le => Value::Bool(x <= y),
                            BinOp::Gt => Value::Bool(x > y),
                            BinOp::Ge => Value::Bool(x >= y),
                            _ => unreachable!("logical operators handled above"),
                        }
                    }
                }
            }
            CExpr::Call(f, args, p) => {
                let vals: Vec<Rational> = args
                    .iter()
                    .map(|a| num(a.eval(st)?, *p))
                    .collect::<Result<_, _>>()?;
                let arity = |n: usize| {
                    if vals.len() == n {
                        Ok(())
                    } else {
                        Err(PrismError::at(*p, format!("`{f}` takes {n} argument(s)")))
                    }
                };
                match f.as_str() {
                    "min" | "max" if vals.is_empty() => {
                        return Err(PrismError::at(*p, "no arguments"));
                    }
                    "min" => Value::Num(vals.into_iter().min().unwrap()),
                    "max" => Value::Num(vals.into_iter().max().unwrap()),
                    "floor" => {
                        arity(1)?;
                        Value::Num(vals[0].floor())
                    }
                    "ceil" => {
                        arity(1)?;
                        Value::Num(vals[0].ceil())
                    }
                    "mod" => {
                        arity(2)?;
                        if !vals[0].is_integer() || !vals[1].is_integer() || vals[1].is_zero() {
                            return Err(PrismError::at(
                                *p,
                                "`mod` needs integers and a non-zero divisor",
                            ));
                        }
                        Value::Num(vals[0].int_mod(&vals[1]))
                    }
                    "pow" => {
                        arity(2)?;
                        let e = vals[1].to_i64().filter(|e| (0..=64).contains(e));
                        let Some(e) = e else {
                            return Err(PrismError::at(*p, "`pow` needs an exponent in 0..64"));
                        };
                        let mut r = Rational::ONE;
                        for _ in 0..e {
                            r *= &vals[0];
                        }
                        Value::Num(r)
                    }
                    _ => return Err(PrismError::at(*p, format!("unknown function `{f}`"))),
                }
            }
        })
    }
}

struct VarInfo {
    name: String,
    module: usize,
    lo: i64,
    hi: i64,
    is_bool: bool,
    init: i64,
}

/// Compiled assignments `(slot, value, position)`.
type CAssigns = Vec<(usize, CExpr, Pos)>;
/// One outcome of a command: its probability and the changed slots.
type Outcome = (Rational, Vec<(usize, i64)>);
/// A joint move: action and its outcomes as full next states.
type JointMove = (usize, Vec<(Rational, Vec<i64>)>);

struct CCommand {
    action: Option<String>,
    guard: CExpr,
    updates: Vec<(CExpr, CAssigns)>,
    pos: Pos,
}

struct Scope<'a> {
    consts: &'a HashMap<String, Value>,
    vars: &'a HashMap<String, usize>,
    var_info: &'a [VarInfo],
}

fn compile(e: &Expr, sc: &Scope<'_>) -> Result<CExpr, PrismError> {
    let c = |x: &Expr| compile(x, sc).map(Box::new);
    Ok(match e {
        Expr::Num(v, _) => CExpr::Const(Value::Num(v.clone())),
        Expr::Bool(b, _) => CExpr::Const(Value::Bool(*b)),
        Expr::Ident(n, p) => {
            if let Some(&i) = sc.vars.get(n) {
                CExpr::Var(i, sc.var_info[i].is_bool)
            } else if let Some(v) = sc.consts.get(n) {
                CExpr::Const(v.clone())
            } else {
                return Err(PrismError::at(*p, format!("undefined identifier `{n}`")));
            }
        }
        Expr::Neg(a, p) => CExpr::Neg(c(a)?, *p),
        Expr::Not(a, p) => CExpr::Not(c(a)?, *p),
        Expr::Bin(o, a, b, p) => CExpr::Bin(*o, c(a)?, c(b)?, *p),
        Expr::Ite(x, a, b, p) => CExpr::Ite(c(x)?, c(a)?, c(b)?, *p),
        Expr::Call(f, args, p) => CExpr::Call(
            f.clone(),
            args.iter()
                .map(|a| compile(a, sc))
                .collect::<Result<_, _>>()?,
            *p,
        ),
    })
}

fn const_eval(e: &Expr, consts: &HashMap<String, Value>) -> Result<Value, PrismError> {
    let vars = HashMap::new();
    compile(
        e,
        &Scope {
            consts,
            vars: &vars,
            var_info: &[],
        },
    )?
    .eval(&[])
}

fn const_int(e: &Expr, consts: &HashMap<String, Value>) -> Result<i64, PrismError> {
    let v = num(const_eval(e, consts)?, e.pos())?;
    v.to_i64()
        .filter(|_| v.is_integer())
        .ok_or_else(|| PrismError::at(e.pos(), format!("expected an integer, found {v}")))
}

fn eval_constants(
    decls: &[ConstDecl],
    opts: &BuildOptions,
) -> Result<HashMap<String, Value>, PrismError> {
    let mut consts = HashMap::new();
    for d in decls {
        let over = opts.constants.iter().find(|(n, _)| *n == d.name);
        let v = match (over, &d.value) {
            (Some((_, text)), _) => match (text.as_str(), &d.ty) {
                ("true", Type::Bool) => Value::Bool(true),
                ("false", Type::Bool) => Value::Bool(false),
                (_, Type::Bool) => {
                    return Err(PrismError::at(
                        d.pos,
                        format!("constant `{}` needs true or false", d.name),
                    ));
                }
                (t, _) => Value::Num(
                    crate::format::parse_probability(t.trim_start_matches('-'))
                        .map(|r| if t.starts_with('-') { -r } else { r })
                        .ok_or_else(|| {
                            PrismError::at(
                                d.pos,
                                format!("bad value `{t}` for constant `{}`", d.name),
                            )
                        })?,
                ),
            },
            (None, Some(e)) => const_eval(e, &consts)?,
            (None, None) => {
                return Err(PrismError::at(
                    d.pos,
                    format!("constant `{}` has no value (give one from outside)", d.name),
                ));
            }
        };
        match (&d.ty, &v) {
            (Type::Bool, Value::Bool(_)) | (Type::Double, Value::Num(_)) => {}
            (Type::Int, Value::Num(r)) if r.is_integer() => {}
            _ => {
                return Err(PrismError::at(
                    d.pos,
                    format!("value of `{}` does not match its type", d.name),
                ));
            }
        }
        if consts.insert(d.name.clone(), v).is_some() {
            return Err(PrismError::at(
                d.pos,
                format!("constant `{}` defined twice", d.name),
            ));
        }
    }
    for (n, _) in &opts.constants {
        if !decls.iter().any(|d| d.name == *n) {
            return Err(PrismError {
                line: 0,
                col: 0,
                message: format!("no constant `{n}` to set"),
            });
        }
    }
    Ok(consts)
}

fn expand_formulas(
    e: &Expr,
    formulas: &HashMap<String, Expr>,
    depth: usize,
) -> Result<Expr, PrismError> {
    if depth > 64 {
        return Err(PrismError::at(
            e.pos(),
            "formulas are nested too deeply (recursive formula?)",
        ));
    }
    let mut err = None;
    let out = e.map_idents(&mut |n, _| {
        let f = formulas.get(n)?;
        match expand_formulas(f, formulas, depth + 1) {
            Ok(x) => Some(x),
            Err(e) => {
                err = Some(e);
                None
            }
        }
    });
    match err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Parses and builds in one step.
pub fn build_lpts(src: &str, opts: &BuildOptions) -> Result<Lpts, PrismError> {
    build_lpts_from_ast(&parse_model(src)?, opts)
}

/// Explores the reachable state space of a parsed model into an LPTS.
pub fn build_lpts_from_ast(ast: &ModelAst, opts: &BuildOptions) -> Result<Lpts, PrismError> {
    let consts = eval_constants(&ast.consts, opts)?;
    let mut formulas: HashMap<String, Expr> = HashMap::new();
    for (n, e, p) in &ast.formulas {
        if consts.contains_key(n) || formulas.insert(n.clone(), e.clone()).is_some() {
            return Err(PrismError::at(*p, format!("`{n}` defined twice")));
        }
    }
    let modules = resolve_modules(ast, &formulas)?;
    build_bodies(&consts, &formulas, &modules, opts)
}

/// Builds one LPTS per module (after renaming), each explored on its own. Valid when no
/// module reads another module's variables (an undefined identifier error otherwise);
/// composing the results with [`crate::compose()`] gives PRISM's synchronization
/// semantics for labelled commands.
pub fn build_module_lpts(
    src: &str,
    opts: &BuildOptions,
) -> Result<Vec<(String, Lpts)>, PrismError> {
    let ast = parse_model(src)?;
    let consts = eval_constants(&ast.consts, opts)?;
    let mut formulas: HashMap<String, Expr> = HashMap::new();
    for (n, e, _) in &ast.formulas {
        formulas.insert(n.clone(), e.clone());
    }
    let modules = resolve_modules(&ast, &formulas)?;
    let mut out = Vec::new();
    for m in &modules {
        out.push((
            m.name.clone(),
            build_bodies(&consts, &formulas, std::slice::from_ref(m), opts)?,
        ));
    }
    Ok(out)
}

fn build_bodies(
    consts: &HashMap<String, Value>,
    formulas: &HashMap<String, Expr>,
    modules: &[super::syntax::Module],
    opts: &BuildOptions,
) -> Result<Lpts, PrismError> {
    let consts = consts.clone();
    // Variables.
    let mut vars: HashMap<String, usize> = HashMap::new();
    let mut info: Vec<VarInfo> = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for v in &m.vars {
            if vars.contains_key(&v.name)
                || consts.contains_key(&v.name)
                || formulas.contains_key(&v.name)
            {
                return Err(PrismError::at(v.pos, format!("`{}` defined twice", v.name)));
            }
            let (lo, hi, is_bool) = match &v.range {
                Some((l, h)) => (const_int(l, &consts)?, const_int(h, &consts)?, false),
                None => (0, 1, true),
            };
            if lo > hi {
                return Err(PrismError::at(
                    v.pos,
                    format!("empty range [{lo}..{hi}] for `{}`", v.name),
                ));
            }
            let init = match &v.init {
                None => lo,
                Some(e) => match const_eval(e, &consts)? {
                    Value::Bool(b) if is_bool => b as i64,
                    Value::Num(r) if !is_bool && r.is_integer() => r.to_i64().unwrap_or(i64::MAX),
                    _ => {
                        return Err(PrismError::at(
                            e.pos(),
                            format!("bad initial value for `{}`", v.name),
                        ));
                    }
                },
            };
            if init < lo || init > hi {
                return Err(PrismError::at(
                    v.pos,
                    format!("initial value {init} of `{}` outside [{lo}..{hi}]", v.name),
                ));
            }
            vars.insert(v.name.clone(), info.len());
            info.push(VarInfo {
                name: v.name.clone(),
                module: mi,
                lo,
                hi,
                is_bool,
                init,
            });
        }
    }
    let sc = Scope {
        consts: &consts,
        vars: &vars,
        var_info: &info,
    };
    let mut cmods: Vec<Vec<CCommand>> = Vec::new();
    let mut alphabets: Vec<Vec<String>> = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        let mut cmds = Vec::new();
        let mut alpha: Vec<String> = Vec::new();
        for c in &m.commands {
            cmds.push(compile_command(c, mi, &m.name, &sc)?);
            if let Some(a) = &c.action
                && !alpha.contains(a)
            {
                alpha.push(a.clone());
            }
        }
        cmods.push(cmds);
        alphabets.push(alpha);
    }
    explore(&info, &cmods, &alphabets, opts.max_states)
}

fn compile_command(
    c: &Command,
    mi: usize,
    mname: &str,
    sc: &Scope<'_>,
) -> Result<CCommand, PrismError> {
    let guard = compile(&c.guard, sc)?;
    let mut updates = Vec::new();
    for (p, assigns) in &c.updates {
        let mut ca: CAssigns = Vec::new();
        for Assign { var, value, pos } in assigns {
            let Some(&i) = sc.vars.get(var) else {
                return Err(PrismError::at(*pos, format!("undefined variable `{var}`")));
            };
            if sc.var_info[i].module != mi {
                return Err(PrismError::at(
                    *pos,
                    format!("module `{mname}` cannot assign `{var}` of another module"),
                ));
            }
            if ca.iter().any(|x| x.0 == i) {
                return Err(PrismError::at(
                    *pos,
                    format!("`{var}` assigned twice in one update"),
                ));
            }
            ca.push((i, compile(value, sc)?, *pos));
        }
        updates.push((compile(p, sc)?, ca));
    }
    Ok(CCommand {
        action: c.action.clone(),
        guard,
        updates,
        pos: c.pos,
    })
}

fn resolve_modules(
    ast: &ModelAst,
    formulas: &HashMap<String, Expr>,
) -> Result<Vec<super::syntax::Module>, PrismError> {
    let mut bodies: Vec<super::syntax::Module> = Vec::new();
    let expand = |e: &Expr| expand_formulas(e, formulas, 0);
    for def in &ast.modules {
        let m = match def {
            ModuleDef::Body(m) => {
                let mut m = m.clone();
                for v in &mut m.vars {
                    if let Some((l, h)) = &v.range {
                        v.range = Some((expand(l)?, expand(h)?));
                    }
                    if let Some(i) = &v.init {
                        v.init = Some(expand(i)?);
                    }
                }
                for c in &mut m.commands {
                    c.guard = expand(&c.guard)?;
                    for (p, us) in &mut c.updates {
                        *p = expand(p)?;
                        for a in us {
                            a.value = expand(&a.value)?;
                        }
                    }
                }
                m
            }
            ModuleDef::Renamed {
                name,
                base,
                renames,
                pos,
            } => {
                let Some(b) = bodies.iter().find(|m| m.name == *base) else {
                    return Err(PrismError::at(*pos, format!("undefined module `{base}`")));
                };
                let map: HashMap<&str, &str> = renames
                    .iter()
                    .map(|(o, n, _)| (o.as_str(), n.as_str()))
                    .collect();
                let rn = |s: &str| map.get(s).map_or_else(|| s.to_string(), |n| n.to_string());
                let re = |e: &Expr| {
                    e.map_idents(&mut |n, p| map.get(n).map(|x| Expr::Ident(x.to_string(), p)))
                };
                let mut m = b.clone();
                m.name = name.clone();
                m.pos = *pos;
                for v in &mut m.vars {
                    v.name = rn(&v.name);
                    v.range = v.range.as_ref().map(|(l, h)| (re(l), re(h)));
                    v.init = v.init.as_ref().map(re);
                }
                for c in &mut m.commands {
                    c.action = c.action.as_deref().map(rn);
                    c.guard = re(&c.guard);
                    for (p, us) in &mut c.updates {
                        *p = re(p);
                        for a in us {
                            a.var = rn(&a.var);
                            a.value = re(&a.value);
                        }
                    }
                }
                m
            }
        };
        if bodies.iter().any(|b| b.name == m.name) {
            return Err(PrismError::at(
                m.pos,
                format!("module `{}` defined twice", m.name),
            ));
        }
        bodies.push(m);
    }
    if bodies.is_empty() {
        return Err(PrismError {
            line: 1,
            col: 1,
            message: "the model has no module".into(),
        });
    }
    Ok(bodies)
}

fn state_text(info: &[VarInfo], st: &[i64]) -> String {
    let parts: Vec<String> = info
        .iter()
        .zip(st)
        .map(|(v, x)| {
            if v.is_bool {
                format!("{}={}", v.name, *x != 0)
            } else {
                format!("{}={x}", v.name)
            }
        })
        .collect();
    parts.join(",")
}

/// The distribution of one command's updates in state `st`, as `(probability, next)`.
fn command_outcomes(
    c: &CCommand,
    info: &[VarInfo],
    st: &[i64],
) -> Result<Vec<Outcome>, PrismError> {
    let mut out = Vec::with_capacity(c.updates.len());
    let mut sum = Rational::ZERO;
    for (pe, assigns) in &c.updates {
        let p = num(pe.eval(st)?, pos_of(pe, c.pos))?;
        if p.is_negative() {
            return Err(PrismError::at(
                pos_of(pe, c.pos),
                format!(
                    "negative probability {p} in state ({})",
                    state_text(info, st)
                ),
            ));
        }
        sum += &p;
        let mut changes = Vec::with_capacity(assigns.len());
        for (i, e, pos) in assigns {
            let v = &info[*i];
            let x = match e.eval(st)? {
                Value::Bool(b) if v.is_bool => b as i64,
                Value::Num(r) if !v.is_bool && r.is_integer() => r.to_i64().unwrap_or(i64::MAX),
                other => {
                    return Err(PrismError::at(
                        *pos,
                        format!("value {other:?} does not fit the type of `{}`", v.name),
                    ));
                }
            };
            if x < v.lo || x > v.hi {
                return Err(PrismError::at(
                    *pos,
                    format!(
                        "update sets `{}` to {x}, outside its range [{}..{}], in state ({})",
                        v.name,
                        v.lo,
                        v.hi,
                        state_text(info, st)
                    ),
                ));
            }
            changes.push((*i, x));
        }
        if p.is_positive() {
            out.push((p, changes));
        }
    }
    if !sum.is_one() {
        return Err(PrismError::at(
            c.pos,
            format!(
                "update probabilities sum to {sum}, not 1, in state ({})",
                state_text(info, st)
            ),
        ));
    }
    Ok(out)
}

fn pos_of(e: &CExpr, dflt: Pos) -> Pos {
    match e {
        CExpr::Neg(_, p)
        | CExpr::Not(_, p)
        | CExpr::Bin(_, _, _, p)
        | CExpr::Ite(_, _, _, p)
        | CExpr::Call(_, _, p) => *p,
        _ => dflt,
    }
}

fn explore(
    info: &[VarInfo],
    cmods: &[Vec<CCommand>],
    alphabets: &[Vec<String>],
    limit: usize,
) -> Result<Lpts, PrismError> {
    let init: Vec<i64> = info.iter().map(|v| v.init).collect();
    let mut lpts = Lpts::new(state_text(info, &init));
    let mut all_actions: Vec<String> = Vec::new();
    for a in alphabets.iter().flatten() {
        if !all_actions.contains(a) {
            all_actions.push(a.clone());
        }
    }
    for a in &all_actions {
        lpts.add_action(a);
    }
    let has_tau = cmods.iter().flatten().any(|c| c.action.is_none());
    let tau = if has_tau {
        Some(lpts.add_action("tau"))
    } else {
        None
    };
    let mut index: HashMap<Vec<i64>, StateId> = HashMap::new();
    let mut states = vec![init.clone()];
    index.insert(init, 0);
    let mut next = 0;
    while next < states.len() {
        let st = states[next].clone();
        let src = next;
        next += 1;
        // Enabled commands per module.
        let mut enabled: Vec<Vec<&CCommand>> = Vec::with_capacity(cmods.len());
        for cmds in cmods {
            let mut en = Vec::new();
            for c in cmds {
                if boolean(c.guard.eval(&st)?, pos_of(&c.guard, c.pos))? {
                    en.push(c);
                }
            }
            enabled.push(en);
        }
        let mut joint: Vec<JointMove> = Vec::new();
        if let Some(tau) = tau {
            for en in &enabled {
                for c in en.iter().filter(|c| c.action.is_none()) {
                    let outs = command_outcomes(c, info, &st)?;
                    let d = outs
                        .into_iter()
                        .map(|(p, ch)| {
                            let mut s2 = st.clone();
                            for (i, x) in ch {
                                s2[i] = x;
                            }
                            (p, s2)
                        })
                        .collect();
                    joint.push((tau, d));
                }
            }
        }
        for (ai, a) in all_actions.iter().enumerate() {
            let parts: Vec<usize> = (0..cmods.len())
                .filter(|&m| alphabets[m].contains(a))
                .collect();
            let choices: Vec<Vec<&CCommand>> = parts
                .iter()
                .map(|&m| {
                    enabled[m]
                        .iter()
                        .copied()
                        .filter(|c| c.action.as_deref() == Some(a.as_str()))
                        .collect()
                })
                .collect();
            if choices.iter().any(|c| c.is_empty()) {
                continue;
            }
            // Cartesian product of the participants' choices.
            let mut combos: Vec<Vec<(Rational, Vec<i64>)>> =
                vec![vec![(Rational::ONE, st.clone())]];
            for opts in &choices {
                let mut next_combos = Vec::new();
                for partial in &combos {
                    for c in opts {
                        let outs = command_outcomes(c, info, &st)?;
                        let mut d = Vec::new();
                        for (p, s) in partial {
                            for (q, ch) in &outs {
                                let mut s2 = s.clone();
                                for (i, x) in ch {
                                    s2[*i] = *x;
                                }
                                d.push((p * q, s2));
                            }
                        }
                        next_combos.push(d);
                    }
                }
                combos = next_combos;
            }
            for d in combos {
                joint.push((ai, d));
            }
        }
        for (a, d) in joint {
            let mut entries = Vec::with_capacity(d.len());
            for (p, s2) in d {
                let id = match index.get(&s2) {
                    Some(&id) => id,
                    None => {
                        if states.len() >= limit {
                            return Err(PrismError {
                                line: 0,
                                col: 0,
                                message: format!("more than {limit} reachable states"),
                            });
                        }
                        let id = lpts.add_state(state_text(info, &s2));
                        index.insert(s2.clone(), id);
                        states.push(s2);
                        id
                    }
                };
                entries.push((id, p));
            }
            let dist = Dist::merged(entries).expect("update probabilities checked to sum to 1");
            lpts.add_transition(src, a, dist);
        }
    }
    Ok(lpts)
}
