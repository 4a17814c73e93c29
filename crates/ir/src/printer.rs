//! The text format printer. Its output is the canonical text syntax, which the parser reads
//! back: print → parse → print is the identity (tested over every `.pir` file in the repo).
//!
//! The syntax is specified in `docs/ir.md`.

use crate::entities::{FuncId, Inst};
use crate::function::Function;
use crate::inst::{InstKind, Operand, Terminator};
use crate::module::Module;
use crate::types::{ElemType, Type};
use std::fmt::{self, Write};

/// Prints a whole module in the text format.
pub fn print_module(module: &Module) -> String {
    print_module_with(module, |_| true)
}

/// Prints the module's struct declarations and the functions `keep` accepts, in module order
/// (`poolopt opt --entry` shows only what an entry reaches). The text parses back when every
/// function a kept one calls is kept too.
pub fn print_module_with(module: &Module, keep: impl Fn(FuncId) -> bool) -> String {
    let mut out = String::new();
    let _ = module_pieces(module, keep, |piece| {
        out.push_str(piece);
        Ok(())
    });
    out
}

/// [`print_module_with`] written to `out` one function at a time, so the text of the whole
/// module is never held at once (a module whose printed form is gigabytes). The bytes are
/// those [`print_module_with`] returns.
pub fn write_module_with(
    out: &mut dyn std::io::Write,
    module: &Module,
    keep: impl Fn(FuncId) -> bool,
) -> std::io::Result<()> {
    module_pieces(module, keep, |piece| out.write_all(piece.as_bytes()))
}

/// The printed module piece by piece (a struct declaration, a separator, a function), in
/// order, each handed to `emit`; stops at `emit`'s first error.
fn module_pieces(
    module: &Module,
    keep: impl Fn(FuncId) -> bool,
    mut emit: impl FnMut(&str) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut first = true;
    for def in module.structs.values() {
        if !first {
            emit("\n")?;
        }
        first = false;
        let fields: Vec<String> = def
            .fields
            .iter()
            .map(|f| format!("{}: {}", f.name, module.type_name(f.ty)))
            .collect();
        emit(&format!(
            "struct {} {{ {} }}\n",
            def.name,
            fields.join(", ")
        ))?;
    }
    let mut text = String::new();
    for (id, func) in module.funcs.iter() {
        if !keep(id) {
            continue;
        }
        if !first {
            emit("\n")?;
        }
        first = false;
        text.clear();
        let _ = write_function(&mut text, module, func);
        emit(&text)?;
    }
    Ok(())
}

/// Prints one function in the text format.
pub fn print_function(module: &Module, func: &Function) -> String {
    let mut out = String::new();
    let _ = write_function(&mut out, module, func);
    out
}

/// The header of a function in the text syntax: `inline fn f(a: i64, v: vec<S8>) -> i64`.
pub fn display_signature(module: &Module, func: &Function) -> String {
    let params: Vec<String> = func
        .params
        .iter()
        .map(|&p| {
            format!(
                "{}: {}",
                func.locals[p].name,
                module.type_name(func.locals[p].ty)
            )
        })
        .collect();
    let mut out = String::new();
    if let Some(keyword) = func.inline.keyword() {
        out.push_str(keyword);
        out.push(' ');
    }
    let _ = write!(out, "fn {}({})", func.name, params.join(", "));
    if let Some(ret) = func.ret {
        let _ = write!(out, " -> {}", module.type_name(ret));
    }
    out
}

fn write_function(out: &mut String, module: &Module, func: &Function) -> fmt::Result {
    out.push_str(&display_signature(module, func));
    writeln!(out, " {{")?;
    for (local, data) in func.locals.iter() {
        if func.params.contains(&local) {
            if data.packed {
                // Parameters are declared in the signature; repeat them only to mark packing.
                writeln!(out, "    packed {}", data.name)?;
            }
            continue;
        }
        write!(out, "    var {}: {}", data.name, module.type_name(data.ty))?;
        if data.packed {
            write!(out, " packed")?;
        }
        writeln!(out)?;
    }
    for &block in &func.layout {
        let data = &func.blocks[block];
        writeln!(out, "{}:", data.name)?;
        for &inst in &data.insts {
            writeln!(out, "    {}", display_inst(module, func, inst))?;
        }
        match &data.terminator {
            Some(term) => writeln!(out, "    {}", display_terminator(func, term))?,
            None => writeln!(out, "    ; missing terminator")?,
        }
    }
    writeln!(out, "}}")
}

/// Renders an operand: a local's name or a decimal constant.
pub fn display_operand(func: &Function, op: Operand) -> String {
    match op {
        Operand::Local(l) => func.locals[l].name.to_string(),
        Operand::Const(c) => c.to_string(),
    }
}

/// Renders one instruction in the text syntax (without indentation).
pub fn display_inst(module: &Module, func: &Function, inst: Inst) -> String {
    display_inst_kind(module, func, &func.insts[inst].kind)
}

/// Renders an instruction kind in the text syntax.
pub fn display_inst_kind(module: &Module, func: &Function, kind: &InstKind) -> String {
    let name = |l| func.locals[l].name.as_str();
    let op = |o| display_operand(func, o);
    let field_name = |local, field: u32| -> String {
        match func.locals[local].ty {
            Type::Struct(s) => module.structs[s]
                .fields
                .get(field as usize)
                .map(|f| f.name.clone())
                .unwrap_or_else(|| format!("#{field}")),
            Type::Vec(ElemType::Struct(s)) => module.structs[s]
                .fields
                .get(field as usize)
                .map(|f| f.name.clone())
                .unwrap_or_else(|| format!("#{field}")),
            _ => format!("#{field}"),
        }
    };
    let suffix = |check: crate::Check| if check.is_checked() { "" } else { ".unchecked" };
    match kind {
        InstKind::Copy { dst, src } => format!("{} = copy {}", name(*dst), op(*src)),
        InstKind::Unary { dst, op: u, arg } => {
            format!("{} = {} {}", name(*dst), u.name(), op(*arg))
        }
        InstKind::Binary {
            dst,
            op: b,
            lhs,
            rhs,
            check,
        } => format!(
            "{} = {}{} {}, {}",
            name(*dst),
            b.name(),
            suffix(*check),
            op(*lhs),
            op(*rhs)
        ),
        InstKind::Compare {
            dst,
            op: c,
            lhs,
            rhs,
        } => format!("{} = {} {}, {}", name(*dst), c.name(), op(*lhs), op(*rhs)),
        InstKind::Cast { dst, op: c, arg } => {
            format!("{} = {} {}", name(*dst), c.name(), op(*arg))
        }
        InstKind::Make { dst, ty, fields } => {
            let fields: Vec<String> = fields.iter().map(|&f| op(f)).collect();
            format!(
                "{} = make {}({})",
                name(*dst),
                module.structs[*ty].name,
                fields.join(", ")
            )
        }
        InstKind::GetField { dst, src, field } => format!(
            "{} = getfield {}.{}",
            name(*dst),
            name(*src),
            field_name(*src, *field)
        ),
        InstKind::SetField { dst, field, value } => format!(
            "setfield {}.{}, {}",
            name(*dst),
            field_name(*dst, *field),
            op(*value)
        ),
        InstKind::VecNew { dst, elem } => format!(
            "{} = new {}",
            name(*dst),
            module.type_name(Type::Vec(*elem))
        ),
        InstKind::VecLen { dst, vec } => format!("{} = len {}", name(*dst), name(*vec)),
        InstKind::VecPush { vec, value } => format!("push {}, {}", name(*vec), op(*value)),
        InstKind::VecPop { dst, vec, check } => match dst {
            Some(d) => format!("{} = pop{} {}", name(*d), suffix(*check), name(*vec)),
            None => format!("pop{} {}", suffix(*check), name(*vec)),
        },
        InstKind::VecGet {
            dst,
            vec,
            index,
            field,
            check,
        } => {
            let field = field.map(|f| format!(".{}", field_name(*vec, f)));
            format!(
                "{} = get{} {}[{}]{}",
                name(*dst),
                suffix(*check),
                name(*vec),
                op(*index),
                field.unwrap_or_default()
            )
        }
        InstKind::VecSet {
            vec,
            index,
            field,
            value,
            check,
        } => {
            let field = field.map(|f| format!(".{}", field_name(*vec, f)));
            format!(
                "set{} {}[{}]{}, {}",
                suffix(*check),
                name(*vec),
                op(*index),
                field.unwrap_or_default(),
                op(*value)
            )
        }
        InstKind::VecDrop { vec } => format!("drop {}", name(*vec)),
        InstKind::Call { dst, func: f, args } => {
            let args: Vec<String> = args.iter().map(|&a| op(a)).collect();
            let callee = module
                .funcs
                .get(*f)
                .map(|f| f.name.as_str())
                .unwrap_or("<unknown>");
            match dst {
                Some(d) => format!("{} = call {}({})", name(*d), callee, args.join(", ")),
                None => format!("call {}({})", callee, args.join(", ")),
            }
        }
    }
}

/// Renders a terminator in the text syntax.
pub fn display_terminator(func: &Function, term: &Terminator) -> String {
    let block = |b| func.blocks[b].name.as_str();
    match term {
        Terminator::Br(b) => format!("br {}", block(*b)),
        Terminator::BrIf {
            cond,
            then_block,
            else_block,
        } => format!(
            "brif {}, {}, {}",
            display_operand(func, *cond),
            block(*then_block),
            block(*else_block)
        ),
        Terminator::Ret(None) => "ret".to_string(),
        Terminator::Ret(Some(v)) => format!("ret {}", display_operand(func, *v)),
        Terminator::Trap(msg) => format!("trap {}", quote(msg)),
    }
}

/// Quotes a string literal: `"` and `\` are escaped, as are newlines and tabs.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print_module(self))
    }
}
