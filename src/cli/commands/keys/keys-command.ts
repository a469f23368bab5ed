import { existsSync, mkdirSync, statSync } from "node:fs";
import type { Command } from "commander";
import { generateKeyPair } from "../../../api/stamp.js";
import { fileProblem } from "../../../config/file-problem.js";
import { defaultKeysFolder, writeKeyFiles } from "../../../config/key-files.js";
import { writeStderr } from "../../../text/stderr.js";
import { CliError } from "../../cli-error.js";
import { commandSummary } from "../../command-summaries.js";
import { textFlag } from "../../flag-parsers.js";

export function registerKeysCommand(program: Command): void {
  const keys = program
    .command("keys")
    .summary(commandSummary("keys"))
    .description("Manage API key files (the layout Turnkey's tkcli uses).");
  keys
    .command("generate")
    .summary("write a new P-256 API key pair in the tkcli layout")
    .description(
      "Write a new P-256 API key pair as NAME.private (0600), NAME.public (0644) and NAME.meta in the keys folder (--keys-folder, default $XDG_CONFIG_HOME/turnkey/keys, the folder Turnkey's tkcli uses) and print the public key. Register the public key with your Turnkey user before using it. Never overwrites a key.",
    )
    .requiredOption("--name <name>", "key name", textFlag)
    .action((flags: { name: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as { keysFolder?: string };
      const folder = globals.keysFolder ?? defaultKeysFolder();
      if (!/^[A-Za-z0-9._-]+$/.test(flags.name) || flags.name.startsWith(".")) {
        throw new CliError(
          `--name ${JSON.stringify(flags.name)}: use letters, digits, dot, dash and underscore`,
          2,
        );
      }
      if (existsSync(folder) && !statSync(folder).isDirectory()) {
        throw new CliError(
          `--keys-folder ${folder} is a file, not a folder; give the folder to write ${flags.name}.private, ${flags.name}.public and ${flags.name}.meta in`,
          2,
        );
      }
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
      } catch (err) {
        throw new CliError(
          `cannot create --keys-folder ${folder}: ${fileProblem(err as NodeJS.ErrnoException)}`,
          2,
        );
      }
      const pair = generateKeyPair();
      let privatePath: string;
      try {
        privatePath = writeKeyFiles(folder, flags.name, pair).privatePath;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new CliError(
          code
            ? `cannot write the key files in ${folder}: ${fileProblem(err as NodeJS.ErrnoException)}`
            : (err as Error).message,
          1,
        );
      }
      writeStderr(`wrote ${privatePath} and ${flags.name}.public`);
      process.stdout.write(`${pair.publicKey}\n`);
    });
}
