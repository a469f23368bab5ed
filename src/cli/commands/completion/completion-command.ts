import type { Command } from "commander";
import { Argument } from "commander";
import { commandSummary } from "../../command-summaries.js";
import { bashScript } from "./bash.js";
import { EXTRA_VALUES } from "./extra-values.js";
import { fishScript } from "./fish.js";
import { buildCompletionTree } from "./tree.js";
import { completionTables } from "./value-table.js";
import { zshScript } from "./zsh.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

const SCRIPTS: Record<Shell, typeof bashScript> = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
};

/** The root of the program a command belongs to. */
function rootOf(cmd: Command): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}

export function registerCompletionCommand(program: Command): void {
  program
    .command("completion")
    .summary(commandSummary("completion"))
    .description(
      "Print a completion script for your shell: commands, their flags, the operations of `call`, `sim --scenario` and `-o` values, and file names where a flag takes a file.",
    )
    .addArgument(new Argument("<shell>", "your shell").choices(SHELLS))
    .addHelpText(
      "after",
      `
Install:
  bash  echo 'source <(tvcwatch completion bash)' >> ~/.bashrc
        (or: tvcwatch completion bash > ~/.local/share/bash-completion/completions/tvcwatch)
  zsh   mkdir -p ~/.zfunc && tvcwatch completion zsh > ~/.zfunc/_tvcwatch
        and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath)
        (or, after compinit in ~/.zshrc: source <(tvcwatch completion zsh))
  fish  tvcwatch completion fish > ~/.config/fish/completions/tvcwatch.fish`,
    )
    .action((shell: Shell, _flags: unknown, cmd: Command) => {
      const tables = completionTables(buildCompletionTree(rootOf(cmd), EXTRA_VALUES));
      process.stdout.write(SCRIPTS[shell](tables));
    });
}
