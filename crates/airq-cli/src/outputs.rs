//! Output files: every one is checked before a simulation starts (a read-only folder
//! must not cost a whole run), none silently replaces a different run's results, and
//! each is written atomically (a temporary file in its folder, renamed over the name at
//! the end), so an interrupted run leaves the previous file intact and never a partial
//! one under the name.

use crate::error::{io_error, CliError};
use crate::results::{self, RunKey};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// What `--json`/`--csv` name: a file, or standard output for `-`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A file.
    File(PathBuf),
}

impl Target {
    /// `-` is standard output.
    pub fn of(path: &Path) -> Target {
        if path == Path::new("-") {
            Target::Stdout
        } else {
            Target::File(path.to_path_buf())
        }
    }

    /// Fails unless the file can be written (its folder takes new files; if it exists,
    /// it is a file).
    pub fn check(&self) -> Result<(), CliError> {
        let Target::File(path) = self else {
            return Ok(());
        };
        if path.is_dir() {
            return Err(CliError::new(format!(
                "{} is a folder: name a file",
                path.display()
            )));
        }
        check_folder(&folder_of(path))
    }

    /// Writes `text` there (a file atomically).
    pub fn write(&self, text: &str) -> Result<(), CliError> {
        match self {
            Target::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| CliError::new(format!("cannot write to standard output: {e}")))
            }
            Target::File(path) => write_atomically(path, |w| w.write_all(text.as_bytes())),
        }
    }
}

/// Creates `dir` if needed and checks that it takes new files, by making one.
pub fn check_folder(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| io_error("cannot create", dir, e))?;
    let probe = dir.join(format!(".airq-write-check-{}", std::process::id()));
    File::create(&probe).map_err(|e| io_error("cannot write files into", dir, e))?;
    std::fs::remove_file(&probe).map_err(|e| io_error("cannot remove", &probe, e))
}

/// Refuses to let a run of `key` replace the results file at `path` when that holds a
/// different run (another scenario text, variant, preset or seed) — unless `force`.
/// A file of the same run may be replaced: that is running the experiment again.
pub fn check_replace(path: &Path, key: &RunKey, force: bool) -> Result<(), CliError> {
    if force || !path.exists() {
        return Ok(());
    }
    let refuse = |what: String| {
        CliError::new(format!(
            "{} already holds {what}: it is not replaced without --force (or write to \
             another folder with -o)",
            path.display()
        ))
    };
    match results::load(path) {
        Err(e) => Err(refuse(format!("a file airq cannot read as results ({e})"))),
        Ok(old) if old.metadata.key() != *key => {
            let m = &old.metadata;
            Err(refuse(format!(
                "another run: `{}` of scenario `{}`, seed {}, {}",
                m.variant,
                m.scenario,
                m.seed,
                key.difference(&m.key())
            )))
        }
        Ok(_) => Ok(()),
    }
}

/// Writes `path` through a temporary file in its folder, renamed over `path` once
/// complete; on failure the temporary file is removed and `path` is as it was.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), CliError> {
    let name = path
        .file_name()
        .ok_or_else(|| CliError::new(format!("{} is not a file name", path.display())))?;
    let temp = folder_of(path).join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = File::create(&temp)
        .map_err(|e| io_error("cannot create", &temp, e))
        .and_then(|file| {
            let mut w = BufWriter::with_capacity(1 << 16, file);
            write(&mut w)
                .and_then(|()| w.flush())
                .and_then(|()| w.get_ref().sync_all())
                .map_err(|e| io_error("cannot write", &temp, e))
        })
        .and_then(|()| std::fs::rename(&temp, path).map_err(|e| io_error("cannot write", path, e)));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_previous_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.txt");
        write_atomically(&path, |w| w.write_all(b"first")).unwrap();
        let e = write_atomically(&path, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("interrupted"))
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    #[test]
    fn dash_is_standard_output_and_folders_are_not_files() {
        assert_eq!(Target::of(Path::new("-")), Target::Stdout);
        let dir = tempfile::tempdir().unwrap();
        let e = Target::of(dir.path()).check().unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        Target::of(&dir.path().join("new/x.json")).check().unwrap();
    }
}
