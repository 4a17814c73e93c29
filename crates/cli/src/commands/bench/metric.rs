//! What a sample measures: wall time, the process's CPU time, or executed instructions or cycles,
//! and the meters that read them.
//!
//! Wall and CPU time and hardware counters are read in-process around every phase of a run
//! ([`Meter`]). Hardware counters come from `perf_event_open` (the perf-event2 crate); where
//! the kernel has none (a VM: `ENOENT`), `--metric instructions` falls back to Valgrind's
//! callgrind, which counts exactly in a child process ([`super::callgrind`]), and
//! `--metric cycles` is an error.

use super::error::BenchError;
use clap::ValueEnum;
use std::time::Instant;

/// The quantity the ratio tables compare.
#[derive(ValueEnum, Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Elapsed real time (moves ±20 % on a shared machine).
    Wall,
    /// CPU time of the process (`CLOCK_PROCESS_CPUTIME_ID`): no time while descheduled. The
    /// JIT runs the entry on a thread of its own, so the measuring thread's clock alone would
    /// miss the run; nothing else in the process works while a sample is measured.
    Cpu,
    /// Executed instructions: hardware counter, or callgrind where there is none (exact).
    Instructions,
    /// CPU cycles (hardware counter only).
    Cycles,
}

impl Metric {
    pub fn name(self) -> &'static str {
        match self {
            Metric::Wall => "wall",
            Metric::Cpu => "cpu",
            Metric::Instructions => "instructions",
            Metric::Cycles => "cycles",
        }
    }

    /// Whether values are nanoseconds (else event counts).
    pub fn is_time(self) -> bool {
        matches!(self, Metric::Wall | Metric::Cpu)
    }
}

/// Where the values of a metric come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// `std::time::Instant`.
    Clock,
    /// `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`.
    ProcessCpuClock,
    /// A hardware counter through `perf_event_open`: the measuring thread and the threads it
    /// starts (the JIT's run thread), user space only.
    Perf,
    /// Valgrind's callgrind, one child process per sample.
    Callgrind,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Clock => "clock",
            Source::ProcessCpuClock => "process CPU clock",
            Source::Perf => "perf_event_open",
            Source::Callgrind => "callgrind",
        }
    }

    /// Whether two runs give the same values (up to ~0.01 %): what a CI gate may rely on.
    pub fn is_deterministic(self) -> bool {
        self == Source::Callgrind
    }
}

/// A metric with its source: what every table names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MetricInfo {
    pub metric: Metric,
    pub source: Source,
}

impl MetricInfo {
    /// `wall time (clock)`, `instructions (callgrind)`.
    pub fn label(self) -> String {
        let what = match self.metric {
            Metric::Wall => "wall time",
            Metric::Cpu => "CPU time",
            Metric::Instructions => "executed instructions",
            Metric::Cycles => "CPU cycles",
        };
        format!("{what} ({})", self.source.name())
    }

    /// The unit of raw values: `ns` or `instructions`/`cycles`.
    pub fn unit(self) -> &'static str {
        match self.metric {
            Metric::Wall | Metric::Cpu => "ns",
            Metric::Instructions => "instructions",
            Metric::Cycles => "cycles",
        }
    }
}

/// Reads a monotonically growing quantity of the calling thread; phases are differences.
pub trait Meter {
    fn read(&mut self) -> Result<u64, BenchError>;
}

/// Wall time in nanoseconds since the meter was made.
pub struct WallMeter(Instant);

impl Meter for WallMeter {
    fn read(&mut self) -> Result<u64, BenchError> {
        Ok(self.0.elapsed().as_nanos() as u64)
    }
}

/// CPU time of the process (every thread) in nanoseconds.
pub struct CpuMeter;

impl Meter for CpuMeter {
    fn read(&mut self) -> Result<u64, BenchError> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the call writes only to it.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        if rc != 0 {
            return Err(BenchError::Meter(format!(
                "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed: {}",
                std::io::Error::last_os_error()
            )));
        }
        Ok(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
    }
}

/// A counter of the calling thread and of the threads it starts afterwards.
#[cfg(target_os = "linux")]
pub struct PerfMeter(perf_event::Counter);

#[cfg(target_os = "linux")]
impl PerfMeter {
    /// Opens and enables the counter of `metric` (instructions or cycles).
    pub fn open(metric: Metric) -> std::io::Result<PerfMeter> {
        use perf_event::events::Hardware;
        let event = match metric {
            Metric::Cycles => Hardware::CPU_CYCLES,
            _ => Hardware::INSTRUCTIONS,
        };
        PerfMeter::open_event(event)
    }

    /// Opens and enables a counter of `event`, inherited by threads started later: the JIT
    /// runs the entry on a thread of its own, whose counts are added when it exits (it is
    /// joined before the run's end is read).
    pub fn open_event(event: impl perf_event::events::Event) -> std::io::Result<PerfMeter> {
        let mut counter = perf_event::Builder::new(event).inherit(true).build()?;
        counter.enable()?;
        Ok(PerfMeter(counter))
    }
}

#[cfg(target_os = "linux")]
impl Meter for PerfMeter {
    fn read(&mut self) -> Result<u64, BenchError> {
        self.0
            .read()
            .map_err(|e| BenchError::Meter(format!("reading the perf counter failed: {e}")))
    }
}

/// How a run will be measured: an in-process meter, or callgrind in child processes.
pub enum Plan {
    InProcess(MetricInfo),
    Callgrind(MetricInfo),
}

impl Plan {
    pub fn info(&self) -> MetricInfo {
        match self {
            Plan::InProcess(i) | Plan::Callgrind(i) => *i,
        }
    }
}

/// Why hardware counters cannot be used here, or `None` when they can.
fn hardware_counter_error(metric: Metric) -> Option<String> {
    #[cfg(target_os = "linux")]
    {
        PerfMeter::open(metric).err().map(|e| {
            let hint = match e.raw_os_error() {
                Some(libc::ENOENT) => " (ENOENT: this CPU or VM exposes no hardware counters)",
                Some(libc::EACCES) | Some(libc::EPERM) => {
                    " (not permitted: see /proc/sys/kernel/perf_event_paranoid)"
                }
                _ => "",
            };
            format!("perf_event_open for {} failed: {e}{hint}", metric.name())
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = metric;
        Some("hardware counters are read through perf_event_open, which only Linux has".into())
    }
}

/// Chooses how to measure `metric` on this machine; a metric that cannot be measured here is
/// a usage error (exit 2) saying why and what to use instead.
pub fn choose(metric: Metric) -> Result<Plan, BenchError> {
    let info = |source| MetricInfo { metric, source };
    match metric {
        Metric::Wall => Ok(Plan::InProcess(info(Source::Clock))),
        Metric::Cpu => Ok(Plan::InProcess(info(Source::ProcessCpuClock))),
        Metric::Cycles => match hardware_counter_error(metric) {
            None => Ok(Plan::InProcess(info(Source::Perf))),
            Some(why) => Err(BenchError::Usage(format!(
                "--metric cycles needs a hardware counter: {why}; use --metric cpu (process CPU \
                 time) or --metric instructions (callgrind) instead"
            ))),
        },
        Metric::Instructions => {
            let perf_allowed = std::env::var_os("POOLOPT_BENCH_NO_PERF").is_none();
            if perf_allowed && hardware_counter_error(metric).is_none() {
                return Ok(Plan::InProcess(info(Source::Perf)));
            }
            match super::callgrind::valgrind_version() {
                Some(_) => Ok(Plan::Callgrind(info(Source::Callgrind))),
                None => Err(BenchError::Usage(format!(
                    "--metric instructions: {}; and valgrind, the fallback, was not found on \
                     PATH (install it, e.g. `apt-get install valgrind`, or use --metric cpu)",
                    hardware_counter_error(metric)
                        .unwrap_or_else(|| "hardware counters are disabled".into())
                ))),
            }
        }
    }
}

/// A fresh meter for an in-process plan.
pub fn meter(info: MetricInfo) -> Result<Box<dyn Meter>, BenchError> {
    Ok(match (info.metric, info.source) {
        (Metric::Cpu, _) => Box::new(CpuMeter),
        #[cfg(target_os = "linux")]
        (Metric::Instructions | Metric::Cycles, Source::Perf) => Box::new(
            PerfMeter::open(info.metric)
                .map_err(|e| BenchError::Meter(format!("perf_event_open failed: {e}")))?,
        ),
        _ => Box::new(WallMeter(Instant::now())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CPU time of the calling thread, in nanoseconds.
    fn thread_cpu_ns() -> u64 {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0);
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    }

    /// Burns `ms` milliseconds of CPU time on a thread of its own, as the JIT's run does.
    fn spin_on_a_thread(ms: u64) {
        std::thread::scope(|s| {
            s.spawn(|| {
                let start = thread_cpu_ns();
                let mut x = 0u64;
                while thread_cpu_ns() - start < ms * 1_000_000 {
                    for _ in 0..1000 {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                }
            });
        });
    }

    #[test]
    fn cpu_time_counts_the_run_thread() {
        let mut meter = CpuMeter;
        let before = meter.read().unwrap();
        spin_on_a_thread(20);
        let spent = meter.read().unwrap() - before;
        // The run thread's 20 ms, not the measuring thread's ~0.
        assert!(spent >= 20_000_000, "{spent} ns");
    }

    /// The perf counters are inherited by the run thread: checked with the task clock, a
    /// software event that the kernel provides where hardware counters are missing.
    #[cfg(target_os = "linux")]
    #[test]
    fn perf_counters_count_the_run_thread() {
        let mut meter = match PerfMeter::open_event(perf_event::events::Software::TASK_CLOCK) {
            Ok(m) => m,
            Err(e) if matches!(e.raw_os_error(), Some(libc::EACCES | libc::EPERM)) => {
                err_println!("perf_event_open not permitted here ({e}); nothing to check");
                return;
            }
            Err(e) => panic!("perf_event_open(task-clock) failed: {e}"),
        };
        let before = meter.read().unwrap();
        spin_on_a_thread(20);
        let spent = meter.read().unwrap() - before;
        // Task-clock and the thread CPU clock tick at different moments: allow 10 %.
        assert!(spent >= 18_000_000, "task clock {spent} ns");
    }
}
