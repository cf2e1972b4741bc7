//! `airq completions SHELL` and `airq man`: a shell completion script (clap_complete)
//! and a man page (clap_mangen, roff), both generated from the command line's own clap
//! definition ([`crate::cli::Cli`]), so they name every command and option there is.

use crate::cli::Cli;
use crate::error::CliError;
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::Write;

/// Prints the completion script of `shell`.
pub fn completions(shell: Shell) -> Result<(), CliError> {
    print(&completion_script(shell))
}

/// Prints the man page.
pub fn man() -> Result<(), CliError> {
    print(&man_page()?)
}

/// The completion script of `shell` for `airq`.
pub fn completion_script(shell: Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "airq", &mut out);
    out
}

/// The man page, roff: airq(1), then the page of each command it names (airq-run(1),
/// ...), one after the other, so that one file holds them all.
pub fn man_page() -> Result<Vec<u8>, CliError> {
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    let mut out = Vec::new();
    let pages = std::iter::once(&cli).chain(cli.get_subcommands().filter(|c| !c.is_hide_set()));
    for page in pages {
        clap_mangen::Man::new(page.clone())
            .source(format!("airq {}", env!("CARGO_PKG_VERSION")))
            .render(&mut out)
            .map_err(|e| CliError::new(format!("cannot render the man page: {e}")))?;
    }
    Ok(out)
}

fn print(bytes: &[u8]) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| CliError::new(format!("cannot write to standard output: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn every_shells_script_completes_the_commands() {
        for &shell in Shell::value_variants() {
            let script = String::from_utf8(completion_script(shell)).unwrap();
            assert!(script.contains("compare"), "{shell}: {script}");
            assert!(script.contains("sweep"), "{shell}");
        }
    }

    #[test]
    fn the_man_page_is_roff_and_lists_the_commands() {
        let page = String::from_utf8(man_page().unwrap()).unwrap();
        // roff's first requests define the apostrophe string `\*(Aq` the page uses;
        // the title comes next.
        let first = page
            .lines()
            .find(|l| !l.starts_with(".ie ") && !l.starts_with(".el "))
            .unwrap();
        assert!(first.starts_with(".TH airq 1"), "{page}");
        assert!(page.contains("sweep"), "{page}");
        assert!(
            page.contains(".TH airq-sweep 1"),
            "every command's page follows"
        );
    }
}
