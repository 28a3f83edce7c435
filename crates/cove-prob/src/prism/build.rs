//! Name resolution and constant evaluation of a PRISM model, then explicit-state
//! exploration ([`super::explore`]).

use super::PrismError;
use super::eval::{Scope, Value, compile, const_eval, const_int};
use super::explore::{CCommand, CModule, Compiled, compile_system, explore};
use super::syntax::{
    Assign, Command, ConstDecl, Expr, ModelAst, ModelType, ModuleDef, Type, VarDecl, VarKind,
    parse_model,
};
use crate::lpts::Lpts;
use std::collections::HashMap;

/// Options for building an LPTS from a PRISM model.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Values for constants, overriding or completing the file (`N=3`, `p=1/10`, `b=true`).
    pub constants: Vec<(String, String)>,
    /// Give up (with an error) when more states than this are reached.
    pub max_states: usize,
    /// Give every deadlock state (no transition at all) a `tau` self-loop, as PRISM and
    /// Storm do for a whole model. Off for components that are composed later: there a
    /// state without moves blocks, and a self-loop would add behaviour.
    pub deadlock_self_loops: bool,
    /// Accept values for constants the model does not declare (one `--const` list given
    /// to several models); otherwise such a value is an error.
    pub ignore_unknown_constants: bool,
    /// Polled while the state space is explored (every 1024 states): when it says stop, the
    /// build ends with an error whose [`PrismError::stop`] says why.
    pub control: cove_control::Control,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            constants: Vec::new(),
            max_states: 2_000_000,
            deadlock_self_loops: true,
            ignore_unknown_constants: false,
            control: cove_control::Control::new(),
        }
    }
}

/// A variable of the state vector.
pub(super) struct VarInfo {
    pub(super) name: String,
    /// The owning module (`None` for a global variable).
    pub(super) module: Option<usize>,
    pub(super) lo: i64,
    pub(super) hi: i64,
    pub(super) is_bool: bool,
    pub(super) init: Option<i64>,
}

pub(super) fn eval_constants(
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
        if !opts.ignore_unknown_constants && !decls.iter().any(|d| d.name == *n) {
            return Err(PrismError {
                line: 0,
                col: 0,
                message: format!("no constant `{n}` to set"),
                stop: None,
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

fn formulas_of(
    ast: &ModelAst,
    consts: &HashMap<String, Value>,
) -> Result<HashMap<String, Expr>, PrismError> {
    let mut formulas: HashMap<String, Expr> = HashMap::new();
    for (n, e, p) in &ast.formulas {
        if consts.contains_key(n) || formulas.insert(n.clone(), e.clone()).is_some() {
            return Err(PrismError::at(*p, format!("`{n}` defined twice")));
        }
    }
    Ok(formulas)
}

/// Explores the reachable state space of a parsed model into an LPTS.
pub fn build_lpts_from_ast(ast: &ModelAst, opts: &BuildOptions) -> Result<Lpts, PrismError> {
    let consts = eval_constants(&ast.consts, opts)?;
    let formulas = formulas_of(ast, &consts)?;
    let modules = resolve_modules(ast, &formulas)?;
    let mut globals = ast.globals.clone();
    let expand = |e: &Expr| expand_formulas(e, &formulas, 0);
    for g in &mut globals {
        expand_var(g, &expand)?;
    }
    let init = match &ast.init {
        Some((e, p)) => Some((expand(e)?, *p)),
        None => None,
    };
    let system = ast.system.clone();
    let c = compile_model(
        &consts,
        &formulas,
        &globals,
        &modules,
        init.as_ref(),
        system.as_ref(),
        ast.model_type,
        opts,
    )?;
    explore(&c, opts)
}

/// Builds one LPTS per module (after renaming), each explored on its own. Valid when no
/// module reads another module's variables (an undefined identifier error otherwise) and
/// there are no global variables; composing the results with [`crate::compose()`] gives
/// PRISM's synchronization semantics for labelled commands. Deadlock states are kept
/// (a component's deadlock blocks, it does not loop), and a `system` block is ignored.
pub fn build_module_lpts(
    src: &str,
    opts: &BuildOptions,
) -> Result<Vec<(String, Lpts)>, PrismError> {
    let ast = parse_model(src)?;
    if let Some(g) = ast.globals.first() {
        return Err(PrismError::at(
            g.pos,
            "global variables couple the modules: they cannot be built one by one",
        ));
    }
    if let Some((_, p)) = &ast.init {
        return Err(PrismError::at(
            *p,
            "`init … endinit` constrains all modules together: they cannot be built one by one",
        ));
    }
    let consts = eval_constants(&ast.consts, opts)?;
    let formulas = formulas_of(&ast, &consts)?;
    let modules = resolve_modules(&ast, &formulas)?;
    let opts = BuildOptions {
        deadlock_self_loops: false,
        ..opts.clone()
    };
    let mut out = Vec::new();
    for m in &modules {
        let c = compile_model(
            &consts,
            &formulas,
            &[],
            std::slice::from_ref(m),
            None,
            None,
            ast.model_type,
            &opts,
        )?;
        out.push((m.name.clone(), explore(&c, &opts)?));
    }
    Ok(out)
}

fn expand_var(
    v: &mut VarDecl,
    expand: &dyn Fn(&Expr) -> Result<Expr, PrismError>,
) -> Result<(), PrismError> {
    if let VarKind::Range(l, h) = &v.kind {
        v.kind = VarKind::Range(expand(l)?, expand(h)?);
    }
    if let Some(i) = &v.init {
        v.init = Some(expand(i)?);
    }
    Ok(())
}

fn var_info(
    v: &VarDecl,
    module: Option<usize>,
    consts: &HashMap<String, Value>,
) -> Result<VarInfo, PrismError> {
    let (lo, hi, is_bool) = match &v.kind {
        VarKind::Range(l, h) => (const_int(l, consts)?, const_int(h, consts)?, false),
        VarKind::Bool => (0, 1, true),
        VarKind::Int => (i64::MIN, i64::MAX, false),
    };
    if lo > hi {
        return Err(PrismError::at(
            v.pos,
            format!("empty range [{lo}..{hi}] for `{}`", v.name),
        ));
    }
    let init = match &v.init {
        None => None,
        Some(e) => Some(match const_eval(e, consts)? {
            Value::Bool(b) if is_bool => b as i64,
            Value::Num(r) if !is_bool && r.is_integer() => r.to_i64().unwrap_or(i64::MAX),
            _ => {
                return Err(PrismError::at(
                    e.pos(),
                    format!("bad initial value for `{}`", v.name),
                ));
            }
        }),
    };
    if let Some(init) = init
        && (init < lo || init > hi)
    {
        return Err(PrismError::at(
            v.pos,
            format!("initial value {init} of `{}` outside [{lo}..{hi}]", v.name),
        ));
    }
    Ok(VarInfo {
        name: v.name.clone(),
        module,
        lo,
        hi,
        is_bool,
        init,
    })
}

#[allow(clippy::too_many_arguments)]
fn compile_model(
    consts: &HashMap<String, Value>,
    formulas: &HashMap<String, Expr>,
    globals: &[VarDecl],
    modules: &[super::syntax::Module],
    init: Option<&(Expr, super::syntax::Pos)>,
    system: Option<&super::syntax::SysTerm>,
    model_type: ModelType,
    opts: &BuildOptions,
) -> Result<Compiled, PrismError> {
    let mut vars: HashMap<String, usize> = HashMap::new();
    let mut info: Vec<VarInfo> = Vec::new();
    let decls = globals.iter().map(|v| (None, v)).chain(
        modules
            .iter()
            .enumerate()
            .flat_map(|(mi, m)| m.vars.iter().map(move |v| (Some(mi), v))),
    );
    for (mi, v) in decls {
        if vars.contains_key(&v.name)
            || consts.contains_key(&v.name)
            || formulas.contains_key(&v.name)
        {
            return Err(PrismError::at(v.pos, format!("`{}` defined twice", v.name)));
        }
        let vi = var_info(v, mi, consts)?;
        if let (Some((_, p)), Some(_)) = (init, vi.init) {
            return Err(PrismError::at(
                *p,
                format!(
                    "`{}` has an initial value and the model has an `init` block",
                    v.name
                ),
            ));
        }
        vars.insert(v.name.clone(), info.len());
        info.push(vi);
    }
    let sc = Scope {
        consts,
        vars: &vars,
        var_info: &info,
    };
    let mut actions: Vec<String> = Vec::new();
    let mut cmods: Vec<CModule> = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        let mut cm = CModule {
            name: m.name.clone(),
            commands: Vec::new(),
            alphabet: Vec::new(),
        };
        for c in &m.commands {
            let act = c.action.as_ref().map(|a| {
                let i = actions.iter().position(|x| x == a).unwrap_or_else(|| {
                    actions.push(a.clone());
                    actions.len() - 1
                });
                if !cm.alphabet.contains(&i) {
                    cm.alphabet.push(i);
                }
                i
            });
            cm.commands.push(compile_command(c, act, mi, &m.name, &sc)?);
        }
        cmods.push(cm);
    }
    let init_pred = match init {
        Some((e, _)) => Some(compile(e, &sc)?),
        None => None,
    };
    let sys = compile_system(system, &cmods, &mut actions)?;
    let _ = opts;
    Ok(Compiled {
        info,
        modules: cmods,
        actions,
        system: sys,
        dtmc: model_type == ModelType::Dtmc,
        init: init_pred,
    })
}

fn compile_command(
    c: &Command,
    action: Option<usize>,
    mi: usize,
    mname: &str,
    sc: &Scope<'_>,
) -> Result<CCommand, PrismError> {
    let guard = compile(&c.guard, sc)?;
    let mut updates = Vec::new();
    for (p, assigns) in &c.updates {
        let mut ca = Vec::new();
        for Assign { var, value, pos } in assigns {
            let Some(&i) = sc.vars.get(var) else {
                return Err(PrismError::at(*pos, format!("undefined variable `{var}`")));
            };
            if sc.var_info[i].module.is_some_and(|m| m != mi) {
                return Err(PrismError::at(
                    *pos,
                    format!("module `{mname}` cannot assign `{var}` of another module"),
                ));
            }
            if ca.iter().any(|x: &(usize, _, _)| x.0 == i) {
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
        action,
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
                    expand_var(v, &expand)?;
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
                    if let VarKind::Range(l, h) = &v.kind {
                        v.kind = VarKind::Range(re(l), re(h));
                    }
                    v.init = v.init.as_ref().map(re);
                }
                for c in &mut m.commands {
                    c.action = c.action.as_deref().map(&rn);
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
            stop: None,
        });
    }
    Ok(bodies)
}
