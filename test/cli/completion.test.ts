import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { Option } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { operationNames } from "../../src/api/operations.js";
import { bashScript } from "../../src/cli/commands/completion/bash.js";
import { EXTRA_VALUES } from "../../src/cli/commands/completion/extra-values.js";
import { fishScript } from "../../src/cli/commands/completion/fish.js";
import { buildCompletionTree } from "../../src/cli/commands/completion/tree.js";
import { completionTables } from "../../src/cli/commands/completion/value-table.js";
import { zshScript } from "../../src/cli/commands/completion/zsh.js";
import { buildCompleteProgram } from "../../src/cli/main.js";
import { SCENARIOS } from "../../src/sim/scenario.js";
import { runCli } from "../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-completion-"));
const scripts: Record<"bash" | "zsh" | "fish", string> = { bash: "", zsh: "", fish: "" };

function hasShell(name: string): boolean {
  return spawnSync(name, ["-c", "exit 0"]).status === 0;
}

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Prints what the completion function offered, one per line. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: bash, not a template
const PRINT_REPLY = 'printf "%s\\n" "${COMPREPLY[@]}"';

/** Runs the bash completion function as bash runs it for <Tab>, from COMP_WORDS and COMP_CWORD. */
function bashComplete(script: string, words: string[]): string[] {
  const out = execFileSync(
    "bash",
    [
      "-c",
      `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _tvcwatch; ${PRINT_REPLY}`,
      "_",
      script,
      ...words,
    ],
    { encoding: "utf8" },
  );
  return out.split("\n").filter(Boolean);
}

/** The same, given the command line as bash passes it (COMP_LINE, cursor at its end). */
function bashCompleteLine(script: string, line: string): string[] {
  const out = execFileSync(
    "bash",
    [
      "-c",
      `source "$1"; COMP_LINE="$2"; COMP_POINT=\${#COMP_LINE}; _tvcwatch; ${PRINT_REPLY}`,
      "_",
      script,
      line,
    ],
    { encoding: "utf8" },
  );
  return out.split("\n").filter(Boolean);
}

/** Every command path and option name of a commander program, read straight from it. */
function everyCommandAndFlag(program: Command): { paths: string[]; flags: string[] } {
  const paths: string[] = [];
  const flags = new Set<string>();
  const visit = (cmd: Command, path: string[]) => {
    for (const o of cmd.options) {
      if (o.short) flags.add(o.short);
      if (o.long) flags.add(o.long);
    }
    for (const sub of cmd.commands) {
      paths.push([...path, sub.name()].join(" "));
      visit(sub, [...path, sub.name()]);
    }
  };
  visit(program, []);
  return { paths, flags: [...flags] };
}

beforeAll(async () => {
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const r = await runCli(["completion", shell]);
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = r.stdout;
  }
});

describe("tvcwatch completion", () => {
  it("refuses a shell it has no script for, with exit 2", async () => {
    const r = await runCli(["completion", "powershell"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/powershell.*(bash, zsh, fish)/);
  });

  it("covers every command and flag of the program tree, the operations and the scenarios", async () => {
    const tree = buildCompletionTree(await buildCompleteProgram(), EXTRA_VALUES);
    const { paths, flags } = everyCommandAndFlag(await buildCompleteProgram());
    const treePaths = tree.commands.map((c) => c.path.join(" "));
    for (const p of paths) expect(treePaths).toContain(p);
    const treeFlags = new Set(
      [...tree.globalOptions, ...tree.commands.flatMap((c) => c.options)].flatMap((o) => o.names),
    );
    for (const f of flags) expect(treeFlags).toContain(f);
    const call = tree.commands.find((c) => c.path.join(" ") === "call");
    expect(call?.positionals[0]).toEqual({
      kind: "words",
      words: operationNames.map((value) => expect.objectContaining({ value })),
    });
    const sim = tree.commands.find((c) => c.path.join(" ") === "sim");
    expect(sim?.options.find((o) => o.names.includes("--scenario"))?.value).toEqual({
      kind: "words",
      words: SCENARIOS.map((value) => ({ value })),
    });
  });
});

describe("the bash script, run in bash", () => {
  let script: string;
  beforeAll(() => {
    script = write("tvcwatch.bash", scripts.bash);
  });

  it("completes subcommands and the flags of tail", () => {
    expect(bashComplete(script, ["tvcwatch", "ta"])).toEqual(["tail"]);
    expect(bashComplete(script, ["tvcwatch", ""])).toEqual(
      expect.arrayContaining(["watch", "demo", "tail", "call", "sim", "keys", "completion"]),
    );
    expect(bashComplete(script, ["tvcwatch", "tail", "--fo"])).toEqual(["--follow"]);
    // Global flags are accepted after the subcommand too.
    expect(bashComplete(script, ["tvcwatch", "tail", "--conf"])).toEqual(["--config"]);
    expect(bashComplete(script, ["tvcwatch", "keys", "g"])).toEqual(["generate"]);
  });

  it("completes operation names after call, scenarios after sim --scenario and -o values", () => {
    expect(bashComplete(script, ["tvcwatch", "call", "who"])).toEqual(["whoami"]);
    expect(bashComplete(script, ["tvcwatch", "call", "get_tvc_dep"]).sort()).toEqual([
      "get_tvc_deployment",
      "get_tvc_deployment_debug_logs",
    ]);
    // An option's value is stepped over: the operation is still the first argument.
    expect(bashComplete(script, ["tvcwatch", "--config", "c.json", "call", "list_tvc_a"])).toEqual([
      "list_tvc_apps",
      "list_tvc_app_deployments",
    ]);
    expect(bashComplete(script, ["tvcwatch", "sim", "--scenario", ""])).toEqual([...SCENARIOS]);
    expect(bashComplete(script, ["tvcwatch", "tail", "-o", ""])).toEqual(["text", "json", "otlp"]);
    expect(bashComplete(script, ["tvcwatch", "tail", "--since", ""])).toEqual([]);
  });

  it("completes files where a flag takes one, and values typed with = or :", () => {
    write("sim-config.json", "{}");
    expect(bashComplete(script, ["tvcwatch", "--config", join(dir, "sim-con")])).toEqual([
      join(dir, "sim-config.json"),
    ]);
    // What bash really passes: COMP_LINE; it replaces only what follows the last = or :.
    expect(bashCompleteLine(script, "tvcwatch tail --output=j")).toEqual(["json"]);
    expect(bashCompleteLine(script, "tvcwatch --caip2 solana:d")).toEqual(["devnet"]);
    expect(bashCompleteLine(script, "tvcwatch sim --scenario ")).toEqual([...SCENARIOS]);
  });

  it("completes a command and flag added to the program, with no change to the generator", async () => {
    const program = await buildCompleteProgram();
    program
      .command("inspect")
      .addOption(new Option("--format <kind>", "how to print").choices(["table", "yaml"]))
      .option("--trace-file <file>", "where to write");
    const added = write(
      "added.bash",
      bashScript(completionTables(buildCompletionTree(program, EXTRA_VALUES))),
    );
    expect(bashComplete(added, ["tvcwatch", "ins"])).toEqual(["inspect"]);
    expect(bashComplete(added, ["tvcwatch", "inspect", "--f"])).toEqual(["--format"]);
    expect(bashComplete(added, ["tvcwatch", "inspect", "--format", ""])).toEqual(["table", "yaml"]);
  });
});

describe("the zsh and fish scripts", () => {
  let program: Awaited<ReturnType<typeof buildCompleteProgram>>;
  beforeAll(async () => {
    program = await buildCompleteProgram();
  });
  const tree = () => completionTables(buildCompletionTree(program, EXTRA_VALUES));

  it("zsh: generated from the program tree, valid zsh, and completes like bash", () => {
    expect(scripts.zsh).toBe(zshScript(tree()));
    expect(scripts.zsh).toMatch(/^#compdef tvcwatch\n/);
    for (const name of ["'tail/--since'", "'call/#0'", "'sim/--scenario'", "whoami:"])
      expect(scripts.zsh).toContain(name);
    if (!hasShell("zsh")) return;
    const file = write("_tvcwatch", scripts.zsh);
    expect(spawnSync("zsh", ["-n", file]).status).toBe(0);
    const complete = (...words: string[]) =>
      execFileSync(
        "zsh",
        [
          "-f",
          "-c",
          'autoload -Uz compinit && compinit -u -D; source "$1"; shift; _tvcwatch_complete $# "$@"; print -r -- "$_tvcwatch_kind"; print -rl -- $reply',
          "_",
          file,
          ...words,
        ],
        { encoding: "utf8" },
      )
        .trim()
        .split("\n");
    expect(complete("tvcwatch", "tail", "--fo")).toEqual(
      expect.arrayContaining(["options", "--follow:keep polling for new lines until interrupted"]),
    );
    expect(complete("tvcwatch", "sim", "--scenario", "")).toEqual(["values", ...SCENARIOS]);
    expect(complete("tvcwatch", "call", "")).toContain(
      "whoami:The organization and user behind the API key",
    );
    expect(complete("tvcwatch", "--config", "")[0]).toBe("file");
  });

  it("fish: generated from the program tree, valid fish, and completes like bash", () => {
    expect(scripts.fish).toBe(fishScript(tree()));
    for (const line of ["-l 'follow'", "-a 'whoami'", "-l 'scenario' -x -a 'demo quiet incident'"])
      expect(scripts.fish).toContain(line);
    if (!hasShell("fish")) return;
    const file = write("tvcwatch.fish", scripts.fish);
    expect(spawnSync("fish", ["-n", file]).status).toBe(0);
    const complete = (line: string) =>
      execFileSync("fish", ["-c", "source $argv[1]; complete -C $argv[2]", file, line], {
        encoding: "utf8",
      })
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t")[0]);
    expect(complete("tvcwatch ta")).toEqual(["tail"]);
    expect(complete("tvcwatch tail --fo")).toEqual(["--follow"]);
    expect(complete("tvcwatch call who")).toEqual(["whoami"]);
    expect(complete("tvcwatch sim --scenario ").sort()).toEqual([...SCENARIOS].sort());
    expect(complete("tvcwatch tail -o ").sort()).toEqual(["json", "text"]);
  });
});
