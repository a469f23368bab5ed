/** Whether to colour output: FORCE_COLOR wins, then NO_COLOR, then whether it is a terminal. */
export function shouldColour(
  isTTY: boolean | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "" && force !== "0" && force !== "false") return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (force === "0" || force === "false") return false;
  return isTTY === true;
}

/**
 * Foreground colours for replicas, readable on dark and light backgrounds, and apart from the
 * colours that mean something in a line (red errors, yellow warnings, gray debug).
 */
export const REPLICA_COLOURS = [
  "cyan",
  "magenta",
  "blue",
  "green",
  "cyanBright",
  "magentaBright",
  "blueBright",
  "greenBright",
] as const;
export type ReplicaColour = (typeof REPLICA_COLOURS)[number];

/** The colours log levels are shown in, which replicas never take. */
export const LEVEL_COLOURS = ["red", "yellow", "gray"] as const;
export type LevelColour = (typeof LEVEL_COLOURS)[number];
/** Every colour this program writes. */
export type TextColour = ReplicaColour | LevelColour;

const ANSI: Record<TextColour, number> = {
  red: 31,
  yellow: 33,
  gray: 90,
  green: 32,
  blue: 34,
  magenta: 35,
  cyan: 36,
  greenBright: 92,
  blueBright: 94,
  magentaBright: 95,
  cyanBright: 96,
};

/**
 * A replica's colour: by its index in `replica i/K` (stable across restarts), else by a hash. Only
 * a label's first 100 characters are looked at (a regex over a huge label would backtrack).
 */
export function replicaColour(fullLabel: string): ReplicaColour {
  const label = fullLabel.length > 100 ? fullLabel.slice(0, 100) : fullLabel;
  const m = /(\d+)\s*\/\s*\d+/.exec(label);
  let n: number;
  if (m) n = Number(m[1]) - 1;
  else {
    n = 0;
    for (let i = 0; i < label.length; i++) n = (n * 31 + label.charCodeAt(i)) >>> 0;
  }
  return REPLICA_COLOURS[n % REPLICA_COLOURS.length] as ReplicaColour;
}

export function ansi(colour: TextColour, text: string): string {
  return `\u001b[${ANSI[colour]}m${text}\u001b[39m`;
}
