//! Remarks in the toy program's terms. poolopt's remarks name IR locals (`t4`, `p_items`,
//! `i_1`), blocks (`then2`) and instructions (`brif t5, then2, endif3`); the toy author wrote
//! none of those. The lowering records what every local stands for ([`ToyNames`]: a toy
//! variable, or the source span of the expression a temporary holds), and [`render_remark`]
//! rewrites a remark with them:
//!
//! ```text
//! slot_pool_8.toy:19: remark: range-check-fold: applied: in alloc: range check `i < 0 || i >= p.items.len()` folded to `i >= p.items.len()` (unsigned)
//!     19 |     if i < 0 || i >= p.items.len() {
//! ```
//!
//! Instructions in code spans become toy syntax (`len p_items` → `p.items.len()`, `brif c, ..`
//! → `if <c>`), block names are dropped, and the toy source line is quoted under the remark.

use poolopt::ir::{Function, Loc, Module};
use poolopt::Remark;
use std::collections::{HashMap, HashSet};

/// What an IR local is in the toy program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToyName {
    /// A toy variable, or a field of a split-struct variable (`p.items`).
    Var(String),
    /// A temporary: the value of the expression between these two source positions.
    Span(Loc, Loc),
}

/// The toy meaning of the locals of every function, by function and local name, and the
/// names of the blocks the lowering made.
#[derive(Clone, Debug, Default)]
pub struct ToyNames {
    by_fn: HashMap<String, HashMap<String, ToyName>>,
    blocks: HashMap<String, HashSet<String>>,
}

impl ToyNames {
    pub fn insert_block(&mut self, func: &str, block: &str) {
        self.blocks
            .entry(func.to_string())
            .or_default()
            .insert(block.to_string());
    }

    /// What a block of the lowering is, in toy terms (`None` if the lowering did not make
    /// it): `then3` is "the `if` branch".
    pub fn block(&self, func: &str, block: &str) -> Option<&'static str> {
        if !self.blocks.get(func)?.contains(block) {
            return None;
        }
        Some(match block.trim_end_matches(|c: char| c.is_ascii_digit()) {
            "entry" => "the function's start",
            "then" => "the `if` branch",
            "else" => "the `else` branch",
            "endif" => "the code after an `if`",
            "while" => "the `while` test",
            "do" => "the `while` body",
            "wend" => "the code after a `while`",
            "and" => "the right operand of `&&`",
            "or" => "the right operand of `||`",
            "logic_end" => "the code after `&&`/`||`",
            _ => "a block",
        })
    }

    pub fn insert(&mut self, func: &str, local: &str, name: ToyName) {
        self.by_fn
            .entry(func.to_string())
            .or_default()
            .insert(local.to_string(), name);
    }

    pub fn get(&self, func: &str, local: &str) -> Option<&ToyName> {
        self.by_fn.get(func)?.get(local)
    }
}

/// Line `line` (1-based) of `source`.
pub fn source_line(source: &str, line: u32) -> Option<&str> {
    source.lines().nth(line.checked_sub(1)? as usize)
}

/// The source text from `start` to `end` (columns count characters), with runs of
/// whitespace (line breaks included) collapsed to one space.
pub fn source_text(source: &str, start: Loc, end: Loc) -> Option<String> {
    if !start.is_known() || !end.is_known() || (end.line, end.col) <= (start.line, start.col) {
        return None;
    }
    let mut out = String::new();
    for line in start.line..=end.line {
        let text = source_line(source, line)?;
        let from = if line == start.line {
            start.col.saturating_sub(1)
        } else {
            0
        } as usize;
        let chars: Vec<char> = text.chars().collect();
        let to = if line == end.line {
            (end.col as usize).saturating_sub(1).min(chars.len())
        } else {
            chars.len()
        };
        if from < to {
            out.extend(&chars[from..to]);
        }
        out.push(' ');
    }
    Some(out.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A remark as the toy driver prints it: `FILE:LINE: remark: PASS: KIND: in FUNCTION: ...` in
/// toy terms, then the toy source line it is about.
pub fn render_remark(
    remark: &Remark,
    file: &str,
    source: &str,
    module: &Module,
    names: &ToyNames,
) -> String {
    let func = module
        .func_by_name(&remark.function)
        .map(|id| &module.funcs[id]);
    let ctx = Ctx {
        function: &remark.function,
        func,
        source,
        names,
    };
    let message = ctx.message(&remark.message);
    let mut out = if remark.loc.is_known() {
        format!("{file}:{}: ", remark.loc.line)
    } else {
        format!("{file}: ")
    };
    out.push_str(&format!(
        "remark: {}: {}: in {}: {message}\n",
        remark.pass,
        remark.kind.name(),
        remark.function
    ));
    if let Some(text) = remark
        .loc
        .is_known()
        .then(|| source_line(source, remark.loc.line))
        .flatten()
    {
        out.push_str(&format!("    {} | {}\n", remark.loc.line, text.trim_end()));
    }
    out
}

struct Ctx<'a> {
    function: &'a str,
    func: Option<&'a Function>,
    source: &'a str,
    names: &'a ToyNames,
}

impl Ctx<'_> {
    /// A block of the lowering (still in the function or removed by a pass), in toy terms.
    fn block(&self, name: &str) -> Option<&'static str> {
        self.names.block(self.function, name).or_else(|| {
            self.func
                .is_some_and(|f| f.block_by_name(name).is_some())
                .then_some("a block")
        })
    }

    /// The toy text of an IR local (`None` when it has no toy meaning, e.g. a pass made it).
    fn local(&self, name: &str) -> Option<String> {
        match self.names.get(self.function, name)? {
            ToyName::Var(v) => Some(v.clone()),
            ToyName::Span(a, b) => source_text(self.source, *a, *b),
        }
    }

    /// An operand inside a larger expression: a compound expression is parenthesized.
    fn operand(&self, word: &str) -> String {
        match self.local(word) {
            Some(text) if text.contains(' ') => format!("({text})"),
            Some(text) => text,
            None => word.to_string(),
        }
    }

    /// Rewrites every identifier that is a local with a toy meaning; `len(x)` becomes
    /// `x.len()`.
    fn substitute(&self, text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_ascii_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                // `len(x)` in a fact.
                if word == "len" && chars.get(i) == Some(&'(') {
                    if let Some(close) = chars[i..].iter().position(|&c| c == ')') {
                        let inner: String = chars[i + 1..i + close].iter().collect();
                        if inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                            out.push_str(&format!("{}.len()", self.operand(&inner)));
                            i += close + 1;
                            continue;
                        }
                    }
                }
                out.push_str(&self.operand(&word));
            } else {
                out.push(c);
                i += 1;
            }
        }
        out
    }

    /// The message with its code spans and plain text in toy terms.
    fn message(&self, message: &str) -> String {
        let mut out = String::new();
        for (i, part) in message.split('`').enumerate() {
            if i % 2 == 0 {
                out.push_str(&self.substitute(part));
                continue;
            }
            if let Some(what) = self.block(part) {
                // "... in `then0`": the line number that follows says where.
                if out.ends_with(" in ") {
                    out.truncate(out.len() - " in ".len());
                } else if out.ends_with("block ") {
                    out.push_str(&format!("({what})"));
                } else {
                    out.push_str(what);
                }
                continue;
            }
            if let Some(target) = part.strip_prefix("br ") {
                if let Some(what) = self.block(target) {
                    out.push_str("the jump to ");
                    out.push_str(what);
                    continue;
                }
            }
            let (code, unsigned) = self.code(part);
            out.push('`');
            out.push_str(&code);
            out.push('`');
            if unsigned {
                out.push_str(" (unsigned)");
            }
        }
        // A dropped block can leave a doubled space behind.
        out.replace("  ", " ")
    }

    /// A code span in toy syntax, and whether it compares unsigned.
    fn code(&self, span: &str) -> (String, bool) {
        let (dst, rhs) = match span.split_once(" = ") {
            Some((d, r)) if is_ident(d) => (Some(d), r),
            _ => (None, span),
        };
        let (mnemonic, rest) = rhs.split_once(' ').unwrap_or((rhs, ""));
        let mnemonic = mnemonic.trim_end_matches(".unchecked");
        let args: Vec<&str> = split_args(rest);
        let a = |i: usize| args.get(i).map_or(String::new(), |s| self.substitute(s));
        let expr = match (mnemonic, args.len()) {
            ("brif", 3) => Some(format!("if {}", self.local(args[0]).unwrap_or(a(0)))),
            ("len", 1) => Some(format!("{}.len()", a(0))),
            ("pop", 1) => Some(format!("{}.pop()", a(0))),
            ("drop", 1) => Some(format!("{}.drop()", a(0))),
            ("push", 2) => Some(format!("{}.push({})", a(0), a(1))),
            ("get", 1) => Some(a(0)),
            ("set", 2) => Some(format!("{} = {}", a(0), a(1))),
            ("setfield", 2) => Some(format!("{} = {}", a(0), a(1))),
            ("getfield", 1) => Some(a(0)),
            ("copy", 1) => Some(a(0)),
            ("sext" | "zext" | "trunc", 1) => Some(a(0)),
            ("ret", 1) => Some(format!("return {}", a(0))),
            ("call", _) => Some(self.substitute(rest)),
            ("neg", 1) => Some(format!("-{}", a(0))),
            ("not", 1) => Some(format!("!{}", a(0))),
            ("ctz" | "clz" | "popcnt", 1) => Some(format!("{mnemonic}({})", a(0))),
            (op, 2) => infix(op).map(|sym| format!("{} {sym} {}", a(0), a(1))),
            _ => None,
        };
        let unsigned_cmp = matches!(mnemonic, "ult" | "ule" | "ugt" | "uge");
        match expr {
            Some(e) => {
                // A temporary's assignment reads as its expression; a variable's as `x = ...`.
                let text = match dst.and_then(|d| self.names.get(self.function, d)) {
                    Some(ToyName::Var(v)) => format!("{v} = {e}"),
                    Some(ToyName::Span(..)) => e,
                    None => match dst {
                        Some(d) => format!("{d} = {e}"),
                        None => e,
                    },
                };
                (text, unsigned_cmp)
            }
            None => {
                // An expression in the remark's own notation: `i < 0 || i >=u t4`.
                let mut unsigned = false;
                let words: Vec<String> = span
                    .split(' ')
                    .map(|w| match w {
                        "<u" | "<=u" | ">u" | ">=u" => {
                            unsigned = true;
                            w.trim_end_matches('u').to_string()
                        }
                        other => self.substitute(other),
                    })
                    .collect();
                let text = if words.len() == 1 {
                    // A lone local: its toy text, without parentheses.
                    self.local(span).unwrap_or_else(|| words[0].clone())
                } else {
                    words.join(" ")
                };
                (text, unsigned)
            }
        }
    }
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Splits instruction operands at top-level commas (`call f(a, b)` stays whole).
fn split_args(rest: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(rest[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !rest[start..].trim().is_empty() {
        out.push(rest[start..].trim());
    }
    out
}

/// The toy operator of an IR binary or comparison mnemonic.
fn infix(op: &str) -> Option<&'static str> {
    Some(match op {
        "add" => "+",
        "sub" => "-",
        "mul" => "*",
        "sdiv" | "udiv" => "/",
        "srem" | "urem" => "%",
        "and" => "&",
        "or" => "|",
        "xor" => "^",
        "shl" => "<<",
        "ashr" | "lshr" => ">>",
        "eq" => "==",
        "ne" => "!=",
        "slt" | "ult" => "<",
        "sle" | "ule" => "<=",
        "sgt" | "ugt" => ">",
        "sge" | "uge" => ">=",
        _ => return None,
    })
}
