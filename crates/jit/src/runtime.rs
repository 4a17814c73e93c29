//! The run context and the `extern "C"` runtime functions JIT code calls.
//!
//! One [`RunCtx`] exists per run. JIT code receives a pointer to it as its hidden first argument
//! (like wasmtime's `vmctx`) and reads and writes a few fields at fixed offsets: the call depth
//! and its limit (recursive functions only), the fuel counter, and a permanently dead vec header
//! that every unassigned vec local points at. A trap is reported to JIT code through the status
//! results of the runtime functions and of every IR function (see [`crate::abi`]), not through
//! memory. Everything else (memory accounting, the headers and
//! buffers of the run, the recorded trap, statistics) is only touched by the runtime functions.
//!
//! Vec handles are pointers to [`VecHeader`]s, `#[repr(C)] {ptr, len, cap, elem_size, dead}`.
//! The context owns every header and buffer of its run and frees them all when it is dropped,
//! whether the run returned or trapped. Memory accounting follows `poolopt_ir::semantics`
//! exactly: `new` charges [`HEADER_BYTES`], growth is charged by [`charge_for_growth`], a `drop`
//! refunds `cap * elem_size`.
//!
//! The runtime functions never panic (a panic cannot unwind through JIT frames); failures are
//! recorded as traps and reported to JIT code through a status result.

use poolopt_ir::{charge_for_growth, grown_capacity, TrapKind, HEADER_BYTES};
use std::alloc::{self, Layout};
use std::mem::offset_of;

/// A vec header. JIT code reads and writes `ptr`, `len` and `cap` inline; the runtime owns
/// `elem_size` and `dead`.
#[repr(C)]
#[derive(Debug)]
pub struct VecHeader {
    /// The element buffer (null while `cap` is 0).
    pub ptr: *mut u8,
    /// Number of elements.
    pub len: i64,
    /// Number of elements the buffer holds.
    pub cap: i64,
    /// Bytes per element.
    pub elem_size: u64,
    /// Nonzero once dropped (or for the context's permanently dead header).
    pub dead: u64,
}

impl VecHeader {
    const fn empty(elem_size: u64, dead: bool) -> VecHeader {
        VecHeader {
            ptr: std::ptr::null_mut(),
            len: 0,
            cap: 0,
            elem_size,
            dead: dead as u64,
        }
    }
}

/// Offset of [`VecHeader::ptr`].
pub const HDR_PTR: i32 = offset_of!(VecHeader, ptr) as i32;
/// Offset of [`VecHeader::len`].
pub const HDR_LEN: i32 = offset_of!(VecHeader, len) as i32;
/// Offset of [`VecHeader::cap`].
pub const HDR_CAP: i32 = offset_of!(VecHeader, cap) as i32;

/// Statistics of one run's vec memory traffic.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct RunStats {
    /// Number of buffer reallocations (growths).
    pub vec_growths: u64,
    /// Bytes allocated: [`HEADER_BYTES`] per `new` plus the full size of every buffer a
    /// growth allocates (the interpreter counts the same way).
    pub bytes_allocated: u64,
    /// Bytes of elements copied from old buffers into grown ones.
    pub bytes_copied: u64,
}

/// A trap as recorded by the runtime: the kind, the IR function index, the source line (0 =
/// unknown), and two operands whose meaning depends on the kind (index and length for
/// `index_oob`, the message index for `explicit`, the requested bytes for `out_of_memory`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TrapRecord {
    pub kind: TrapKind,
    pub func: u32,
    pub line: u32,
    pub a: i64,
    pub b: i64,
}

/// The trap site JIT code passes to the runtime functions: `(line << 32) | func_index`.
pub fn site_code(func: u32, line: u32) -> i64 {
    ((u64::from(line) << 32) | u64::from(func)) as i64
}

/// Splits a [`site_code`] into the function index and the line.
pub fn decode_site(site: i64) -> (u32, u32) {
    let site = site as u64;
    (site as u32, (site >> 32) as u32)
}

/// The context of one run.
#[repr(C)]
pub struct RunCtx {
    /// Nonzero once a trap has been recorded (for the host; JIT code tests call statuses).
    pub trapped: u64,
    /// Current call depth.
    pub depth: u64,
    /// Maximum call depth.
    pub max_depth: u64,
    /// Remaining fuel (only used by code compiled with fuel).
    pub fuel: u64,
    /// The permanently dead header unassigned vec locals point at.
    pub dead_header: VecHeader,
    /// The result of the last runtime call made through a preserve-all stub
    /// ([`RtFunc::uses_stub`]): the stub stores the runtime function's result here, and JIT code
    /// loads it after the call (a preserve-all call returns no value).
    pub rt_result: i64,
    /// The vec handle a `grow` or `drop` stub passes to its runtime function: JIT code stores
    /// it here rather than in an argument register, so the handle's register is not tied to
    /// a cold call's argument register.
    pub rt_handle: i64,
    in_use: u64,
    max_memory: u64,
    headers: Vec<*mut VecHeader>,
    trap: Option<TrapRecord>,
    stats: RunStats,
}

/// Offset of [`RunCtx::trapped`].
pub const CTX_TRAPPED: i32 = offset_of!(RunCtx, trapped) as i32;
/// Offset of [`RunCtx::depth`].
pub const CTX_DEPTH: i32 = offset_of!(RunCtx, depth) as i32;
/// Offset of [`RunCtx::max_depth`].
pub const CTX_MAX_DEPTH: i32 = offset_of!(RunCtx, max_depth) as i32;
/// Offset of [`RunCtx::fuel`].
pub const CTX_FUEL: i32 = offset_of!(RunCtx, fuel) as i32;
/// Offset of [`RunCtx::dead_header`].
pub const CTX_DEAD_HEADER: i32 = offset_of!(RunCtx, dead_header) as i32;
/// Offset of [`RunCtx::rt_result`].
pub const CTX_RT_RESULT: i32 = offset_of!(RunCtx, rt_result) as i32;
/// Offset of [`RunCtx::rt_handle`].
pub const CTX_RT_HANDLE: i32 = offset_of!(RunCtx, rt_handle) as i32;

/// Alignment of every element buffer.
const BUFFER_ALIGN: usize = 8;

fn buffer_layout(bytes: u64) -> Option<Layout> {
    let size = usize::try_from(bytes.max(1)).ok()?;
    Layout::from_size_align(size, BUFFER_ALIGN).ok()
}

impl RunCtx {
    /// A fresh context for one run.
    pub fn new(max_memory: u64, max_depth: u32, fuel: u64) -> Box<RunCtx> {
        Box::new(RunCtx {
            trapped: 0,
            depth: 0,
            max_depth: u64::from(max_depth),
            fuel,
            dead_header: VecHeader::empty(0, true),
            rt_result: 0,
            rt_handle: 0,
            in_use: 0,
            max_memory,
            headers: Vec::new(),
            trap: None,
            stats: RunStats::default(),
        })
    }

    /// The trap recorded during the run, if any.
    pub fn trap(&self) -> Option<TrapRecord> {
        self.trap
    }

    /// The memory limit of the run.
    pub fn max_memory(&self) -> u64 {
        self.max_memory
    }

    /// Statistics of the run so far.
    pub fn stats(&self) -> RunStats {
        self.stats
    }

    /// Bytes of headers and buffers currently charged.
    pub fn bytes_in_use(&self) -> u64 {
        self.in_use
    }

    fn record_trap(&mut self, kind: TrapKind, site: i64, a: i64, b: i64) {
        if self.trap.is_none() {
            let (func, line) = decode_site(site);
            self.trap = Some(TrapRecord {
                kind,
                func,
                line,
                a,
                b,
            });
        }
        self.trapped = 1;
    }

    fn new_vec(&mut self, elem_size: u64, site: i64) -> *mut VecHeader {
        let total = self.in_use.checked_add(HEADER_BYTES);
        match total {
            Some(total) if total <= self.max_memory => {
                self.in_use = total;
                self.stats.bytes_allocated =
                    self.stats.bytes_allocated.saturating_add(HEADER_BYTES);
                let hdr = Box::into_raw(Box::new(VecHeader::empty(elem_size, false)));
                self.headers.push(hdr);
                hdr
            }
            _ => {
                self.record_trap(TrapKind::OutOfMemory, site, HEADER_BYTES as i64, 0);
                std::ptr::null_mut()
            }
        }
    }

    /// Grows the buffer of `hdr` (which JIT code found full). Returns false after recording a
    /// trap.
    ///
    /// # Safety
    /// `hdr` must be the context's dead header or a header this context created.
    unsafe fn grow(&mut self, hdr: *mut VecHeader, site: i64) -> bool {
        // The dead header lives inside the context: read its flag through the raw pointer
        // and never form a reference to it.
        // SAFETY: the caller guarantees `hdr` points to a header of this run.
        if unsafe { std::ptr::addr_of!((*hdr).dead).read() } != 0 {
            self.record_trap(TrapKind::UseAfterDrop, site, 0, 0);
            return false;
        }
        // SAFETY: a live header is a separate allocation owned by `self.headers`.
        let h = unsafe { &mut *hdr };
        let cap = h.cap.max(0) as u64;
        let elem = h.elem_size;
        let new_cap = grown_capacity(cap);
        let requested = new_cap.saturating_sub(cap).saturating_mul(elem);
        let oom = |ctx: &mut RunCtx| {
            ctx.record_trap(
                TrapKind::OutOfMemory,
                site,
                i64::try_from(requested).unwrap_or(i64::MAX),
                0,
            );
            false
        };
        let Some(total) = charge_for_growth(self.in_use, cap, elem, self.max_memory) else {
            return oom(self);
        };
        let (Some(new_bytes), Some(old_bytes)) = (new_cap.checked_mul(elem), cap.checked_mul(elem))
        else {
            return oom(self);
        };
        let (Some(new_layout), Some(old_layout)) =
            (buffer_layout(new_bytes), buffer_layout(old_bytes))
        else {
            return oom(self);
        };
        if i64::try_from(new_cap).is_err() {
            return oom(self);
        }
        let used = (h.len.max(0) as u64).saturating_mul(elem).min(old_bytes);
        // Elements at or past `len` are never read before they are written (every read is
        // bounds-checked or proven in bounds), so the grown part is not zero-filled: a first
        // growth is a plain allocation and later ones `realloc`, which copies (or extends in
        // place) instead of allocate + zero + copy + free.
        let new_ptr = if h.ptr.is_null() {
            // SAFETY: the layout has a nonzero size.
            unsafe { alloc::alloc(new_layout) }
        } else {
            // SAFETY: the old buffer was allocated with `old_layout` (same alignment) by this
            // function; the new size is nonzero and fits `isize` (checked by `buffer_layout`).
            unsafe { alloc::realloc(h.ptr, old_layout, new_layout.size()) }
        };
        if new_ptr.is_null() {
            // `realloc` failing leaves the old buffer in place and owned by the header.
            return oom(self);
        }
        h.ptr = new_ptr;
        h.cap = new_cap as i64;
        self.in_use = total;
        self.stats.vec_growths += 1;
        self.stats.bytes_allocated = self.stats.bytes_allocated.saturating_add(new_bytes);
        self.stats.bytes_copied = self.stats.bytes_copied.saturating_add(used);
        true
    }

    /// Drops the vec of `hdr`. Returns false after recording a trap.
    ///
    /// # Safety
    /// `hdr` must be the context's dead header or a header this context created.
    unsafe fn drop_vec(&mut self, hdr: *mut VecHeader, site: i64) -> bool {
        // SAFETY: the caller guarantees `hdr` points to a header of this run.
        if unsafe { std::ptr::addr_of!((*hdr).dead).read() } != 0 {
            self.record_trap(TrapKind::UseAfterDrop, site, 0, 0);
            return false;
        }
        // SAFETY: a live header is a separate allocation owned by `self.headers`.
        let h = unsafe { &mut *hdr };
        let cap = h.cap.max(0) as u64;
        let bytes = cap.saturating_mul(h.elem_size);
        if !h.ptr.is_null() {
            if let Some(layout) = buffer_layout(bytes) {
                // SAFETY: the buffer was allocated by `grow` with this very layout.
                unsafe { alloc::dealloc(h.ptr, layout) };
            }
        }
        self.in_use = self.in_use.saturating_sub(bytes);
        h.ptr = std::ptr::null_mut();
        h.len = 0;
        h.cap = 0;
        h.dead = 1;
        true
    }
}

impl Drop for RunCtx {
    fn drop(&mut self) {
        for &hdr in &self.headers {
            // SAFETY: every pointer in `headers` came from `Box::into_raw` and is freed once,
            // here; its buffer (if any) was allocated with the layout recomputed below.
            unsafe {
                let h = Box::from_raw(hdr);
                if !h.ptr.is_null() {
                    let bytes = (h.cap.max(0) as u64).saturating_mul(h.elem_size);
                    if let Some(layout) = buffer_layout(bytes) {
                        alloc::dealloc(h.ptr, layout);
                    }
                }
            }
        }
    }
}

/// `new`: allocates a header for elements of `elem_size` bytes. Returns null after recording an
/// `out_of_memory` trap. `site` (here and in the other runtime functions) is a [`site_code`].
///
/// # Safety
/// `ctx` must point to the live context of the current run.
pub unsafe extern "C" fn rt_new(ctx: *mut RunCtx, elem_size: i64, site: i64) -> *mut VecHeader {
    // SAFETY: JIT code passes its context pointer.
    let ctx = unsafe { &mut *ctx };
    ctx.new_vec(elem_size.max(0) as u64, site)
}

/// `push` slow path: grows a full vec. Returns 0 on success, 1 after recording a trap
/// (`use_after_drop`, `out_of_memory`).
///
/// # Safety
/// `ctx` must point to the live context; `hdr` to one of its headers or its dead header.
pub unsafe extern "C" fn rt_grow(ctx: *mut RunCtx, hdr: *mut VecHeader, site: i64) -> i64 {
    // SAFETY: JIT code passes its context pointer and a handle of this run.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: as above.
    i64::from(!unsafe { ctx.grow(hdr, site) })
}

/// `drop`: frees the buffer and marks the vec dead. Returns 0 on success, 1 after recording a
/// `use_after_drop` trap.
///
/// # Safety
/// `ctx` must point to the live context; `hdr` to one of its headers or its dead header.
pub unsafe extern "C" fn rt_drop(ctx: *mut RunCtx, hdr: *mut VecHeader, site: i64) -> i64 {
    // SAFETY: JIT code passes its context pointer and a handle of this run.
    let ctx = unsafe { &mut *ctx };
    // SAFETY: as above.
    i64::from(!unsafe { ctx.drop_vec(hdr, site) })
}

/// Records a trap of kind `kind` (a [`TrapKind::code`]) at `site` (a [`site_code`]); `a` and `b` are
/// described at [`TrapRecord`]. The first trap of a run wins.
///
/// # Safety
/// `ctx` must point to the live context of the current run.
pub unsafe extern "C" fn rt_trap(ctx: *mut RunCtx, kind: i64, site: i64, a: i64, b: i64) {
    // SAFETY: JIT code passes its context pointer.
    let ctx = unsafe { &mut *ctx };
    let kind = u32::try_from(kind)
        .ok()
        .and_then(TrapKind::from_code)
        .unwrap_or(TrapKind::Explicit);
    ctx.record_trap(kind, site, a, b);
}

/// The runtime functions JIT code imports, with the symbol names they are registered under.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RtFunc {
    New,
    Grow,
    Drop,
    Trap,
}

impl RtFunc {
    pub const ALL: [RtFunc; 4] = [RtFunc::New, RtFunc::Grow, RtFunc::Drop, RtFunc::Trap];

    /// The symbol name.
    pub fn name(self) -> &'static str {
        match self {
            RtFunc::New => "poolopt_rt_new",
            RtFunc::Grow => "poolopt_rt_grow",
            RtFunc::Drop => "poolopt_rt_drop",
            RtFunc::Trap => "poolopt_rt_trap",
        }
    }

    /// The function's address.
    pub fn address(self) -> *const u8 {
        match self {
            RtFunc::New => rt_new as *const u8,
            RtFunc::Grow => rt_grow as *const u8,
            RtFunc::Drop => rt_drop as *const u8,
            RtFunc::Trap => rt_trap as *const u8,
        }
    }

    /// Number of i64 parameters (the context pointer included); every runtime function takes
    /// only i64 parameters.
    pub fn param_count(self) -> usize {
        match self {
            RtFunc::New | RtFunc::Grow | RtFunc::Drop => 3,
            RtFunc::Trap => 5,
        }
    }

    /// Whether it returns an i64.
    pub fn returns_value(self) -> bool {
        !matches!(self, RtFunc::Trap)
    }

    /// Whether JIT code calls it through a preserve-all stub (`new`, `grow`, `drop`: calls
    /// after which the caller's values stay live, so a call that clobbers no register keeps
    /// them in registers) rather than directly (`trap`, after which the caller only bails out).
    pub fn uses_stub(self) -> bool {
        !matches!(self, RtFunc::Trap)
    }

    /// Whether its stub takes the vec handle from [`RunCtx::rt_handle`] (`grow`, `drop`): the
    /// stub's parameters are then the context and the site only.
    pub fn stub_takes_handle(self) -> bool {
        matches!(self, RtFunc::Grow | RtFunc::Drop)
    }

    /// Number of i64 parameters of its stub.
    pub fn stub_param_count(self) -> usize {
        self.param_count() - usize::from(self.stub_takes_handle())
    }

    /// The symbol name of its preserve-all stub (a function the JIT defines).
    pub fn stub_name(self) -> &'static str {
        match self {
            RtFunc::New => "poolopt_rt_new_stub",
            RtFunc::Grow => "poolopt_rt_grow_stub",
            RtFunc::Drop => "poolopt_rt_drop_stub",
            RtFunc::Trap => "poolopt_rt_trap_stub",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grow_charges_and_drop_refunds() {
        let mut ctx = RunCtx::new(1 << 20, 10, 0);
        let h = ctx.new_vec(8, 0);
        assert!(!h.is_null());
        assert_eq!(ctx.bytes_in_use(), HEADER_BYTES);
        // SAFETY: `h` belongs to `ctx`.
        unsafe {
            assert!(ctx.grow(h, 0));
            assert_eq!((*h).cap, 4);
            assert_eq!(ctx.bytes_in_use(), HEADER_BYTES + 32);
            assert!(ctx.drop_vec(h, 0));
            assert_eq!(ctx.bytes_in_use(), HEADER_BYTES);
            assert!(!ctx.drop_vec(h, 0));
        }
        assert_eq!(ctx.trap().map(|t| t.kind), Some(TrapKind::UseAfterDrop));
    }

    #[test]
    fn growth_past_limit_traps_oom() {
        let mut ctx = RunCtx::new(HEADER_BYTES + 40, 10, 0);
        let h = ctx.new_vec(8, 3);
        // SAFETY: `h` belongs to `ctx`.
        unsafe {
            assert!(ctx.grow(h, 3));
            (*h).len = 4;
            assert!(!ctx.grow(h, 3));
        }
        let t = ctx.trap().unwrap();
        assert_eq!((t.kind, t.func, t.a), (TrapKind::OutOfMemory, 3, 32));
    }

    #[test]
    fn trap_sites_carry_function_and_line() {
        for (func, line) in [(0, 0), (3, 17), (u32::MAX, u32::MAX), (7, 1 << 31)] {
            assert_eq!(decode_site(site_code(func, line)), (func, line));
        }
        let mut ctx = RunCtx::new(1 << 20, 10, 0);
        // SAFETY: JIT code would pass this context; the record is all that is checked.
        unsafe {
            rt_trap(
                &mut *ctx as *mut RunCtx,
                i64::from(TrapKind::DivZero.code()),
                site_code(2, 42),
                0,
                0,
            )
        };
        let t = ctx.trap().unwrap();
        assert_eq!((t.kind, t.func, t.line), (TrapKind::DivZero, 2, 42));
    }

    #[test]
    fn dead_header_traps_use_after_drop() {
        let mut ctx = RunCtx::new(1 << 20, 10, 0);
        let dead: *mut VecHeader = &mut ctx.dead_header;
        // SAFETY: the dead header belongs to `ctx`.
        assert!(!unsafe { ctx.grow(dead, 1) });
        assert_eq!(ctx.trap().unwrap().kind, TrapKind::UseAfterDrop);
    }
}
