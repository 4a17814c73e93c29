//! The execution engine: an explicit stack of frames (no host recursion for IR calls), a value
//! stack holding every frame's scalar and vec-handle locals, a byte stack holding every frame's
//! struct locals in C layout, and the vec heap.
//!
//! Limits follow `poolopt_ir::semantics`: fuel is consumed on every block entry (a function's
//! entry block included) and traps `out_of_fuel` when it is 0 on entry; a call that would make
//! the depth exceed `max_depth` (the entry function is depth 1) traps `stack_overflow`; the depth
//! counts the entry frame and the frames of functions on a cycle of the call graph
//! (`poolopt_ir::call_graph`), the same rule the JIT counts by. Both
//! traps are attributed to the function being entered, as the JIT's prologue check does.

use crate::bytes::{load, store};
use crate::compile::{Arg, CFunc, CInst, CTerm, Dst, Program, Src, Val};
use crate::error::{Fault, InterpError};
use crate::heap::{room_for, Heap};
use crate::ops;
use crate::stats::RunStats;
use poolopt_ir::{RunLimits, ScalarType, TrapKind, OUT_OF_FUEL_MESSAGE, STACK_OVERFLOW_MESSAGE};

/// One activation: where it is, and where its locals start on the value and byte stacks.
#[derive(Copy, Clone, Debug)]
struct Frame {
    func: u32,
    block: u32,
    /// The next instruction of `block` to execute.
    pc: u32,
    vbase: usize,
    mbase: usize,
    /// Where the caller wants the result (in the caller's frame).
    ret_to: Dst,
}

/// The state of one run.
pub(crate) struct Machine<'p> {
    prog: &'p Program,
    frames: Vec<Frame>,
    vals: Vec<i64>,
    mem: Vec<u8>,
    heap: Heap,
    fuel: Option<u64>,
    max_depth: u32,
    /// Index of the instruction being executed within the current step's slice of its block
    /// (the slice length for the terminator): locates a fault.
    cur: u32,
    /// The call depth: the entry frame plus the active frames of recursive functions.
    depth: u32,
    /// The source line of the instruction or terminator executing (for trap reports); 0 while
    /// a block is entered, so an `out_of_fuel` trap reports no line.
    line: u32,
    pub(crate) stats: RunStats,
}

/// How execution left a frame.
enum Flow {
    /// Continue with the (new) top frame.
    Next,
    /// The entry function returned this value.
    Done(i64),
}

impl<'p> Machine<'p> {
    pub(crate) fn new(prog: &'p Program, limits: &RunLimits) -> Machine<'p> {
        Machine {
            prog,
            frames: Vec::new(),
            vals: Vec::new(),
            mem: Vec::new(),
            heap: Heap::new(limits.max_memory),
            fuel: limits.fuel,
            max_depth: limits.max_depth,
            cur: 0,
            depth: 0,
            line: 0,
            stats: RunStats::default(),
        }
    }

    fn body(&self, func: u32) -> Result<&'p CFunc, InterpError> {
        let prog = self.prog;
        let name = prog.names.get(func as usize).map_or("?", |n| n.as_str());
        match prog.funcs.get(func as usize) {
            Some(Ok(f)) => Ok(f),
            Some(Err(e)) => Err(InterpError::Malformed(format!("function `{name}`: {e}"))),
            None => Err(InterpError::Malformed(format!("unknown function #{func}"))),
        }
    }

    fn name(&self, func: u32) -> &'p str {
        self.prog
            .names
            .get(func as usize)
            .map_or("?", |n| n.as_str())
    }

    /// Consumes one unit of fuel for a block entry.
    #[inline]
    fn consume_fuel(&mut self) -> Result<(), Fault> {
        if let Some(f) = &mut self.fuel {
            if *f == 0 {
                return Err(Fault::Trap(
                    TrapKind::OutOfFuel,
                    OUT_OF_FUEL_MESSAGE.to_string(),
                ));
            }
            *f -= 1;
        }
        Ok(())
    }

    /// Pushes a zero-initialized frame for `func` and enters its entry block. The caller
    /// initializes the parameters afterwards.
    fn push_frame(&mut self, func: u32, ret_to: Dst) -> Result<(), InterpError> {
        let body = self.body(func)?;
        let name = self.name(func);
        let counted =
            self.frames.is_empty() || self.prog.recursive.get(func as usize) == Some(&true);
        if counted {
            if self.depth >= self.max_depth {
                return Err(InterpError::Trap(
                    poolopt_ir::Trap::new(TrapKind::StackOverflow, STACK_OVERFLOW_MESSAGE, name)
                        .at_line(body.line),
                ));
            }
            self.depth += 1;
        }
        let vbase = self.vals.len();
        let mbase = self.mem.len();
        let (slots, bytes) = (body.num_slots as usize, body.mem_size as usize);
        // The frames live on the heap: a host that refuses the memory for one more (frames of
        // large struct locals, recursing) ends the run with a trap instead of aborting.
        if !room_for(&mut self.vals, slots) || !room_for(&mut self.mem, bytes) {
            let message = format!(
                "the call stack cannot grow by {} bytes: the host refused the memory",
                bytes.saturating_add(slots.saturating_mul(8))
            );
            return Err(InterpError::Trap(
                poolopt_ir::Trap::new(TrapKind::StackOverflow, message, name).at_line(body.line),
            ));
        }
        self.vals.resize(vbase + slots, 0);
        self.mem.resize(mbase + bytes, 0);
        self.frames.push(Frame {
            func,
            block: 0,
            pc: 0,
            vbase,
            mbase,
            ret_to,
        });
        self.consume_fuel().map_err(|f| f.into_error(name, 0))
    }

    /// Runs `func` with scalar arguments (already wrapped to the parameter types, one per
    /// parameter slot) and returns its scalar result.
    pub(crate) fn run(&mut self, func: u32, args: &[(u32, i64)]) -> Result<i64, InterpError> {
        self.push_frame(func, Dst::None)?;
        for &(slot, v) in args {
            *self.vals.get_mut(slot as usize).ok_or_else(|| {
                InterpError::Malformed("parameter slot out of range".to_string())
            })? = v;
        }
        loop {
            let Some(&frame) = self.frames.last() else {
                return Err(InterpError::Malformed("no frame to execute".to_string()));
            };
            match self.step(frame) {
                Ok(Flow::Next) => {}
                Ok(Flow::Done(v)) => return Ok(v),
                Err(StepError::Fault(f)) => {
                    let func = self.fault_origin(frame);
                    return Err(f.into_error(self.name(func), self.line));
                }
                Err(StepError::Error(e)) => return Err(e),
            }
        }
    }

    #[inline]
    fn read(&self, vbase: usize, src: Src) -> Result<i64, Fault> {
        match src {
            Src::Const(c) => Ok(c),
            Src::Slot(s) => self
                .vals
                .get(vbase + s as usize)
                .copied()
                .ok_or_else(slot_fault),
        }
    }

    #[inline]
    fn write(&mut self, vbase: usize, slot: u32, v: i64) -> Result<(), Fault> {
        *self
            .vals
            .get_mut(vbase + slot as usize)
            .ok_or_else(slot_fault)? = v;
        Ok(())
    }

    /// Copies `size` bytes between two (absolute) positions of the byte stack.
    fn move_bytes(&mut self, from: usize, to: usize, size: u32) -> Result<(), Fault> {
        let size = size as usize;
        if from.max(to) + size > self.mem.len() {
            return Err(Fault::Malformed("struct copy out of range".to_string()));
        }
        self.mem.copy_within(from..from + size, to);
        Ok(())
    }

    /// Writes an element's (or field's) bytes into destination `dst` of the frame.
    fn receive(
        vals: &mut [i64],
        mem: &mut [u8],
        frame: &Frame,
        dst: Dst,
        bytes: &[u8],
        ty: Option<ScalarType>,
    ) -> Result<(), Fault> {
        match dst {
            Dst::None => Ok(()),
            Dst::Slot { slot, ty: dty } => {
                let ty = ty.ok_or_else(|| Fault::Malformed("struct into a scalar".into()))?;
                let v = load(ty, bytes, 0)?;
                *vals
                    .get_mut(frame.vbase + slot as usize)
                    .ok_or_else(slot_fault)? = dty.wrap(v);
                Ok(())
            }
            Dst::Bytes { off, size } => {
                let at = frame.mbase + off as usize;
                let to = mem
                    .get_mut(at..at + size as usize)
                    .ok_or_else(|| Fault::Malformed("struct write out of range".into()))?;
                let from = bytes
                    .get(..size as usize)
                    .ok_or_else(|| Fault::Malformed("struct read out of range".into()))?;
                to.copy_from_slice(from);
                Ok(())
            }
        }
    }

    /// Executes the rest of the top frame's current block, up to a call or its terminator.
    /// The function a fault is reported in: the one the faulting instruction was written in
    /// (inlined code names its callee), else the function of the frame.
    fn fault_origin(&self, started: Frame) -> u32 {
        let Some(&frame) = self.frames.last() else {
            return started.func;
        };
        let index = frame.pc as usize + self.cur as usize;
        match self.prog.funcs.get(frame.func as usize) {
            Some(Ok(body)) => body
                .blocks
                .get(frame.block as usize)
                .and_then(|b| b.origins.get(index))
                .copied()
                .filter(|&o| o != crate::compile::NO_ORIGIN)
                .unwrap_or(frame.func),
            _ => frame.func,
        }
    }

    fn step(&mut self, frame: Frame) -> Result<Flow, StepError> {
        let prog = self.prog;
        let body = match prog.funcs.get(frame.func as usize) {
            Some(Ok(b)) => b,
            _ => return Err(Fault::Malformed("frame of a malformed function".into()).into()),
        };
        let block = body
            .blocks
            .get(frame.block as usize)
            .ok_or_else(|| Fault::Malformed("block out of range".into()))?;
        let vb = frame.vbase;
        let mb = frame.mbase;
        let insts = block.insts.get(frame.pc as usize..).unwrap_or(&[]);
        let lines = block.lines.get(frame.pc as usize..).unwrap_or(&[]);
        for (i, inst) in insts.iter().enumerate() {
            self.stats.steps += 1;
            self.cur = i as u32;
            self.line = lines.get(i).copied().unwrap_or(0);
            match inst {
                CInst::Copy { dst, src, ty } => {
                    let v = self.read(vb, *src)?;
                    self.write(vb, *dst, ty.wrap(v))?;
                }
                CInst::CopyBytes { dst, src, size } => {
                    self.move_bytes(mb + *src as usize, mb + *dst as usize, *size)?;
                }
                CInst::Unary { dst, op, arg, ty } => {
                    let v = ops::unary(*op, *ty, self.read(vb, *arg)?);
                    self.write(vb, *dst, v)?;
                }
                CInst::Binary {
                    dst,
                    op,
                    lhs,
                    rhs,
                    ty,
                } => {
                    let a = self.read(vb, *lhs)?;
                    let b = self.read(vb, *rhs)?;
                    let v = ops::binary(*op, *ty, a, b)?;
                    self.write(vb, *dst, v)?;
                }
                CInst::DivUnchecked {
                    dst,
                    op,
                    lhs,
                    rhs,
                    ty,
                } => {
                    let a = self.read(vb, *lhs)?;
                    let b = self.read(vb, *rhs)?;
                    let v = ops::binary_unchecked(*op, *ty, a, b)?;
                    self.write(vb, *dst, v)?;
                }
                CInst::Compare {
                    dst,
                    op,
                    lhs,
                    rhs,
                    ty,
                    dst_ty,
                } => {
                    let a = self.read(vb, *lhs)?;
                    let b = self.read(vb, *rhs)?;
                    self.write(vb, *dst, dst_ty.wrap(i64::from(op.holds(*ty, a, b))))?;
                }
                CInst::Cast {
                    dst,
                    op,
                    arg,
                    from,
                    to,
                } => {
                    let v = ops::cast(*op, *from, *to, self.read(vb, *arg)?);
                    self.write(vb, *dst, v)?;
                }
                CInst::Make { off, size, fields } => {
                    let at = mb + *off as usize;
                    self.mem
                        .get_mut(at..at + *size as usize)
                        .ok_or_else(|| Fault::Malformed("struct write out of range".into()))?
                        .fill(0);
                    for &(foff, fty, src) in fields.iter() {
                        let v = self.read(vb, src)?;
                        store(fty, &mut self.mem, mb + foff as usize, v)?;
                    }
                }
                CInst::GetField {
                    dst,
                    dst_ty,
                    off,
                    fty,
                } => {
                    let v = load(*fty, &self.mem, mb + *off as usize)?;
                    self.write(vb, *dst, dst_ty.wrap(v))?;
                }
                CInst::SetField { off, fty, src } => {
                    let v = self.read(vb, *src)?;
                    store(*fty, &mut self.mem, mb + *off as usize, v)?;
                }
                CInst::VecNew { dst, elem_size } => {
                    let h = self.heap.alloc(*elem_size, &mut self.stats)?;
                    self.write(vb, *dst, h)?;
                }
                CInst::VecLen { dst, vec, ty } => {
                    let h = self.read(vb, Src::Slot(*vec))?;
                    let n = self.heap.len(h)?;
                    self.write(vb, *dst, ty.wrap(n))?;
                }
                CInst::Push {
                    vec,
                    val,
                    elem_size,
                } => {
                    let h = self.read(vb, Src::Slot(*vec))?;
                    match *val {
                        Val::Scalar { src, ty } => {
                            let v = self.read(vb, src)?;
                            let slot = self.heap.push(h, *elem_size, &mut self.stats)?;
                            store(ty, slot, 0, v)?;
                        }
                        Val::Bytes { off, size } => {
                            let at = mb + off as usize;
                            let from = self.mem.get(at..at + size as usize).ok_or_else(|| {
                                Fault::Malformed("struct read out of range".into())
                            })?;
                            let slot = self.heap.push(h, *elem_size, &mut self.stats)?;
                            slot.get_mut(..from.len())
                                .ok_or_else(|| Fault::Malformed("element size mismatch".into()))?
                                .copy_from_slice(from);
                        }
                    }
                }
                CInst::Pop {
                    dst,
                    vec,
                    elem_size,
                    elem_ty,
                    checked,
                } => {
                    let h = self.read(vb, Src::Slot(*vec))?;
                    let bytes = self.heap.pop(h, *elem_size, *checked)?;
                    Self::receive(&mut self.vals, &mut self.mem, &frame, *dst, bytes, *elem_ty)?;
                }
                CInst::Get {
                    dst,
                    vec,
                    index,
                    elem_size,
                    elem_ty,
                    field,
                    checked,
                } => {
                    let h = self.read(vb, Src::Slot(*vec))?;
                    let i = self.read(vb, *index)?;
                    let bytes = self.heap.elem(h, i, *elem_size, *checked)?;
                    let (bytes, ty) = match field {
                        None => (bytes, *elem_ty),
                        Some((foff, fty)) => (
                            bytes
                                .get(*foff as usize..)
                                .ok_or_else(|| Fault::Malformed("field out of range".into()))?,
                            Some(*fty),
                        ),
                    };
                    Self::receive(&mut self.vals, &mut self.mem, &frame, *dst, bytes, ty)?;
                }
                CInst::Set {
                    vec,
                    index,
                    val,
                    elem_size,
                    field,
                    checked,
                } => {
                    let h = self.read(vb, Src::Slot(*vec))?;
                    let i = self.read(vb, *index)?;
                    let foff = field.unwrap_or(0) as usize;
                    match *val {
                        Val::Scalar { src, ty } => {
                            let v = self.read(vb, src)?;
                            let slot = self.heap.elem_mut(h, i, *elem_size, *checked)?;
                            store(ty, slot, foff, v)?;
                        }
                        Val::Bytes { off, size } => {
                            let at = mb + off as usize;
                            let from = self.mem.get(at..at + size as usize).ok_or_else(|| {
                                Fault::Malformed("struct read out of range".into())
                            })?;
                            let slot = self.heap.elem_mut(h, i, *elem_size, *checked)?;
                            slot.get_mut(foff..foff + from.len())
                                .ok_or_else(|| Fault::Malformed("element size mismatch".into()))?
                                .copy_from_slice(from);
                        }
                    }
                }
                CInst::Drop { vec } => {
                    let h = self.read(vb, Src::Slot(*vec))?;
                    self.heap.drop_vec(h)?;
                }
                CInst::Call { dst, func, args } => {
                    if let Some(top) = self.frames.last_mut() {
                        top.pc = frame.pc + i as u32 + 1;
                    }
                    self.push_frame(*func, *dst)?;
                    let Some(&callee) = self.frames.last() else {
                        return Err(Fault::Malformed("call frame missing".into()).into());
                    };
                    self.pass_args(&frame, &callee, args)?;
                    return Ok(Flow::Next);
                }
            }
        }
        self.stats.steps += 1;
        self.cur = insts.len() as u32;
        self.line = block.term_line;
        match &block.term {
            CTerm::Br(b) => self.goto(*b)?,
            CTerm::BrIf {
                cond,
                then_block,
                else_block,
            } => {
                let c = self.read(vb, *cond)?;
                self.goto(if c != 0 { *then_block } else { *else_block })?;
            }
            CTerm::Trap(msg) => {
                return Err(Fault::Trap(TrapKind::Explicit, msg.to_string()).into());
            }
            CTerm::Ret(val) => return self.ret(&frame, *val),
        }
        Ok(Flow::Next)
    }

    fn goto(&mut self, block: u32) -> Result<(), Fault> {
        self.line = 0;
        self.consume_fuel()?;
        if let Some(top) = self.frames.last_mut() {
            top.block = block;
            top.pc = 0;
        }
        Ok(())
    }

    /// Initializes the callee's parameters from the caller's operands.
    fn pass_args(&mut self, caller: &Frame, callee: &Frame, args: &[Arg]) -> Result<(), Fault> {
        for arg in args {
            match (arg.val, arg.dst) {
                (Val::Scalar { src, .. }, Dst::Slot { slot, ty }) => {
                    let v = self.read(caller.vbase, src)?;
                    self.write(callee.vbase, slot, ty.wrap(v))?;
                }
                (Val::Bytes { off, size }, Dst::Bytes { off: doff, .. }) => {
                    self.move_bytes(
                        caller.mbase + off as usize,
                        callee.mbase + doff as usize,
                        size,
                    )?;
                }
                _ => return Err(Fault::Malformed("argument kind mismatch".into())),
            }
        }
        Ok(())
    }

    /// Returns from the top frame, delivering `val` to the caller (or ending the run).
    fn ret(&mut self, frame: &Frame, val: Option<Val>) -> Result<Flow, StepError> {
        self.frames.pop();
        if !self.frames.is_empty() && self.prog.recursive.get(frame.func as usize) == Some(&true) {
            self.depth -= 1;
        }
        let Some(&caller) = self.frames.last() else {
            let v = match val {
                Some(Val::Scalar { src, ty }) => ty.wrap(self.read(frame.vbase, src)?),
                _ => return Err(Fault::Malformed("entry returned no scalar".into()).into()),
            };
            return Ok(Flow::Done(v));
        };
        match (val, frame.ret_to) {
            (_, Dst::None) => {}
            (Some(Val::Scalar { src, .. }), Dst::Slot { slot, ty }) => {
                let v = self.read(frame.vbase, src)?;
                self.write(caller.vbase, slot, ty.wrap(v))?;
            }
            (Some(Val::Bytes { off, size }), Dst::Bytes { off: doff, .. }) => {
                self.move_bytes(
                    frame.mbase + off as usize,
                    caller.mbase + doff as usize,
                    size,
                )?;
            }
            _ => return Err(Fault::Malformed("result kind mismatch".into()).into()),
        }
        self.vals.truncate(frame.vbase);
        self.mem.truncate(frame.mbase);
        Ok(Flow::Next)
    }
}

fn slot_fault() -> Fault {
    Fault::Malformed("local slot out of range".to_string())
}

/// A failure inside [`Machine::step`]: a fault of the executing function, or an error that
/// already carries its context.
enum StepError {
    Fault(Fault),
    Error(InterpError),
}

impl From<Fault> for StepError {
    fn from(f: Fault) -> Self {
        StepError::Fault(f)
    }
}

impl From<InterpError> for StepError {
    fn from(e: InterpError) -> Self {
        StepError::Error(e)
    }
}
