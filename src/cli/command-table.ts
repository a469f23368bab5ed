/**
 * The program's commands as the top-level help lists them, and where each is defined. `main`
 * registers only the command being run (its module loaded on demand), so `tvcwatch tail`
 * never loads the dashboard or the simulator; `--help` lists the others from this table.
 * Each command's module takes its summary from here, so the two never disagree.
 */
import type { Command } from "commander";

export interface CommandEntry {
  /** The command as the help lists it: name, `[options]`, arguments. */
  term: string;
  summary: string;
  load(): Promise<(program: Command) => void>;
}

export const COMMANDS = {
  watch: {
    term: "watch [options]",
    summary: "the dashboard (default): logs beside activities, email and Solana panes",
    load: () => import("./commands/watch.js").then((m) => m.registerWatchCommand),
  },
  demo: {
    term: "demo [options]",
    summary: "the dashboard against a local simulator (no account needed)",
    load: () => import("./commands/demo.js").then((m) => m.registerDemoCommand),
  },
  tail: {
    term: "tail [options]",
    summary: "print or follow a deployment's debug logs, every replica merged, each line once",
    load: () => import("./commands/tail.js").then((m) => m.registerTailCommand),
  },
  call: {
    term: "call [options] [operation]",
    summary: "invoke any API operation and print its JSON response",
    load: () => import("./commands/call.js").then((m) => m.registerCallCommand),
  },
  activity: {
    term: "activity",
    summary: "list, inspect, approve, reject and wait for the organization's activities",
    load: () => import("./commands/activity.js").then((m) => m.registerActivityCommand),
  },
  sim: {
    term: "sim [options]",
    summary: "run a local simulator of Turnkey's API (a test double for demos and tests)",
    load: () => import("./commands/sim.js").then((m) => m.registerSimCommand),
  },
  keys: {
    term: "keys",
    summary: "manage API key files (the layout Turnkey's tkcli uses)",
    load: () => import("./commands/keys.js").then((m) => m.registerKeysCommand),
  },
  doctor: {
    term: "doctor [options]",
    summary: "check the setup: settings and where they came from, key, API, clock, deployments",
    load: () => import("./commands/doctor.js").then((m) => m.registerDoctorCommand),
  },
  completion: {
    term: "completion <shell>",
    summary: "print the shell completion script for bash, zsh or fish",
    load: () => import("./commands/completion.js").then((m) => m.registerCompletionCommand),
  },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

/** The command run when none is named. */
export const DEFAULT_COMMAND: CommandName = "watch";

export const commandSummary = (name: CommandName): string => COMMANDS[name].summary;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
