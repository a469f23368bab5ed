import { mkdirSync } from "node:fs";
import type { Command } from "commander";
import { generateKeyPair } from "../../api/stamp.js";
import { defaultKeysFolder, writeKeyFiles } from "../../config/key-files.js";
import { CliError } from "../cli-error.js";

export function registerKeysCommand(program: Command): void {
  const keys = program
    .command("keys")
    .description("Manage API key files (the layout Turnkey's tkcli uses)");
  keys
    .command("generate")
    .summary("write a new P-256 API key pair in the tkcli layout")
    .description(
      "Write a new P-256 API key pair as NAME.private (0600), NAME.public (0644) and NAME.meta in the keys folder (--keys-folder, default $XDG_CONFIG_HOME/turnkey/keys, the folder Turnkey's tkcli uses) and print the public key. Register the public key with your Turnkey user before using it. Never overwrites a key.",
    )
    .requiredOption("--name <name>", "key name")
    .action((flags: { name: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as { keysFolder?: string };
      const folder = globals.keysFolder ?? defaultKeysFolder();
      if (!/^[A-Za-z0-9._-]+$/.test(flags.name) || flags.name.startsWith(".")) {
        throw new CliError(
          `--name ${JSON.stringify(flags.name)}: use letters, digits, dot, dash and underscore`,
          2,
        );
      }
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        const pair = generateKeyPair();
        const { privatePath } = writeKeyFiles(folder, flags.name, pair);
        process.stderr.write(`wrote ${privatePath} and ${flags.name}.public\n`);
        process.stdout.write(`${pair.publicKey}\n`);
      } catch (err) {
        throw new CliError((err as Error).message, 1);
      }
    });
}
