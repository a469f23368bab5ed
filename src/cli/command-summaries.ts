/**
 * Each command's one-line summary, as the top-level help lists it and each command's own help
 * shows it. A file of its own so that the command table (which loads the commands) and the
 * commands (which declare themselves) both read it without importing each other.
 */
export const COMMAND_SUMMARIES = {
  watch: "the dashboard (default): logs beside activities, email and Solana panes",
  demo: "the dashboard against a local simulator (no account needed)",
  open: "read saved logs (files, .gz, or - for a pipe) in the dashboard's log pane, no API needed",
  tail: "print or follow a deployment's debug logs, every replica merged, each line once",
  call: "invoke any API operation and print its JSON response",
  activity: "list, inspect, approve, reject and wait for the organization's activities",
  sim: "run a local simulator of Turnkey's API (a test double for demos and tests)",
  keys: "manage API key files (the layout Turnkey's tkcli uses)",
  doctor: "check the setup: settings and where they came from, key, API, clock, deployments",
  completion: "print the shell completion script for bash, zsh or fish",
  "lnav-format": "print an lnav log format for the NDJSON of tail -o json (lnav -i FILE)",
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;

export const commandSummary = (name: CommandName): string => COMMAND_SUMMARIES[name];
