//! `airq help [TOPIC]`: the help of airq or of one command (clap's), and `airq help
//! scenario`, every key a scenario file may have (the reference of `airq list keys`).

use crate::cli::Cli;
use crate::error::CliError;
use crate::scenario::reference;
use clap::CommandFactory;

/// Prints the help of `topic`: none for airq's, a command's name, or `scenario`.
pub fn help(topic: Option<&str>) -> Result<(), CliError> {
    let mut cli = Cli::command();
    cli.build();
    let printed = match topic {
        None => cli.print_long_help(),
        Some("scenario" | "scenarios" | "keys") => {
            print!("{}", reference::text());
            Ok(())
        }
        Some(name) => {
            let names: Vec<String> = cli
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect();
            let Some(command) = cli.find_subcommand_mut(name) else {
                return Err(CliError::new(format!(
                    "help: no command `{name}`; commands: {}, or `scenario` for the \
                     scenario keys",
                    names.join(", ")
                )));
            };
            command.print_long_help()
        }
    };
    printed.map_err(|e| CliError::new(format!("cannot print the help: {e}")))
}
