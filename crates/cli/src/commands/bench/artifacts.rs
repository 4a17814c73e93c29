//! The `--out` directory: the tables, every raw sample, expected and actual results, the
//! run-time counters, the environment fingerprint, the chart, and the IR, CLIF and assembly of
//! every program at every level — everything needed to check or redo a figure later.

use super::error::BenchError;
use super::protocol::{ConfigLabel, Measurements, Variant};
use super::summary::Phase;
use poolopt::{parse_and_verify, ClOpt, PassManager, Session};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Writes under one output directory, turning I/O failures into [`BenchError::Io`].
pub struct OutDir {
    root: PathBuf,
}

impl OutDir {
    /// Creates `root` (and its parents) if needed.
    pub fn create(root: &Path) -> Result<OutDir, BenchError> {
        std::fs::create_dir_all(root).map_err(|source| BenchError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(OutDir {
            root: root.to_path_buf(),
        })
    }

    /// Writes `text` to `relative` (creating its directory).
    pub fn write(&self, relative: &str, text: &str) -> Result<(), BenchError> {
        let path = self.root.join(relative);
        let io = |source| BenchError::Io {
            path: path.clone(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&path, text).map_err(io)
    }
}

/// `samples.csv`: one line per measured sample and phase, in the metric's unit (the last
/// column is named after it: `ns`, `instructions` or `cycles`).
pub fn samples_csv(m: &Measurements) -> String {
    let mut s = format!(
        "workload,bytes,n,rounds,level,cl_opt,phase,sample,{}\n",
        m.metric.unit()
    );
    for sample in &m.samples {
        let config = m.configs[sample.config];
        let case = &m.cases[config.case];
        let phases: &[Phase] = match config.variant {
            Variant::Jit { .. } => &Phase::ALL,
            Variant::Native => &[Phase::Run],
        };
        for phase in phases {
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{}",
                case.workload.name(),
                case.elem.bytes(),
                case.n,
                case.rounds,
                config.variant.level_name(),
                config.variant.cl_name(),
                phase.name(),
                sample.index + 1,
                phase.of(&sample.phases)
            );
        }
    }
    s
}

/// `results.csv`: the expected result and every sample's actual result.
pub fn results_csv(m: &Measurements) -> String {
    let mut s = String::from("workload,bytes,n,rounds,level,cl_opt,sample,expected,actual\n");
    for sample in &m.samples {
        let config = m.configs[sample.config];
        let case = &m.cases[config.case];
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{}",
            case.workload.name(),
            case.elem.bytes(),
            case.n,
            case.rounds,
            config.variant.level_name(),
            config.variant.cl_name(),
            sample.index + 1,
            case.expected,
            sample.result
        );
    }
    s
}

/// `counters.csv`: the run-time counters of each JIT configuration's last run.
pub fn counters_csv(m: &Measurements) -> String {
    let mut s = String::from(
        "workload,bytes,n,rounds,level,cl_opt,operations,vec_growths,bytes_allocated,bytes_copied\n",
    );
    for (config, stats) in m.configs.iter().zip(&m.stats) {
        let Some(stats) = stats else { continue };
        let case = &m.cases[config.case];
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{}",
            case.workload.name(),
            case.elem.bytes(),
            case.n,
            case.rounds,
            config.variant.level_name(),
            config.variant.cl_name(),
            case.operations(),
            stats.vec_growths,
            stats.bytes_allocated,
            stats.bytes_copied
        );
    }
    s
}

/// Writes `emitted/<program>/<level>.pir`, `<level>.<cl>.clif` and `<level>.<cl>.s` for every
/// program, level and Cranelift level of the run.
pub fn write_emitted(out: &OutDir, m: &Measurements) -> Result<(), BenchError> {
    let mut seen = HashSet::new();
    for config in &m.configs {
        let Variant::Jit { level, cl_opt } = config.variant else {
            continue;
        };
        let case = &m.cases[config.case];
        if !seen.insert((case.elem, level, cl_opt)) {
            continue;
        }
        let program = case.elem.program();
        let failed = |source: poolopt::Error| BenchError::Pipeline {
            config: ConfigLabel(case, config.variant).to_string(),
            source,
        };
        let module = parse_and_verify(&program.file_name(), program.source)
            .map_err(|d| failed(poolopt::Error::Source(d)))?;
        let session = Session::new(module)
            .optimize(&PassManager::for_level(level).verify_each(true))
            .map_err(failed)?;
        let dir = format!("emitted/{}", program.name);
        let l = level.name();
        if cl_opt == first_cl(m) {
            out.write(
                &format!("{dir}/{l}.pir"),
                &poolopt::ir::print_module(session.module().module()),
            )?;
        }
        out.write(
            &format!("{dir}/{l}.{cl_opt}.clif"),
            &session.emit_clif(cl_opt).map_err(failed)?,
        )?;
        out.write(
            &format!("{dir}/{l}.{cl_opt}.s"),
            &session.emit_asm(cl_opt).map_err(failed)?,
        )?;
    }
    Ok(())
}

/// The first Cranelift level of the run (the IR is written once, with it).
fn first_cl(m: &Measurements) -> ClOpt {
    m.configs
        .iter()
        .find_map(|c| match c.variant {
            Variant::Jit { cl_opt, .. } => Some(cl_opt),
            Variant::Native => None,
        })
        .unwrap_or(ClOpt::Speed)
}
