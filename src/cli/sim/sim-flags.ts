/** `tvcwatch sim`'s flags as parsed, and the ranges of those that size its work and memory. */
import type { ScenarioName } from "../../sim/scenario.js";
import { formatDuration } from "../../text/duration.js";
import { CliError } from "../cli-error.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
/** Ranges of the flags that size the simulator's work and memory or hold its answers back. */
export const SIM_LIMITS = {
  logRate: { min: 0.01, max: 1000 },
  retentionMs: { min: 10 * SECOND, max: 24 * HOUR },
  latencyMs: 60 * SECOND,
  clockSkewMs: 24 * HOUR,
  ingestLagMs: 10 * MINUTE,
  /** Log lines held at once (rate × replicas × retention): about 1 GB of memory. */
  heldLines: 5_000_000,
} as const;

export interface SimFlags {
  host: string;
  port: number;
  seed?: number;
  scenario?: ScenarioName;
  state?: string;
  rootQuorum?: number;
  writeConfig?: string;
  replicas: number;
  logRate: number;
  retention: number;
  faults: number;
  latency?: [number, number];
  clockSkew: number;
  ingestLag: number;
  truthFile?: string;
}

/** Refuses flags that together would hold more log lines than the simulator keeps. */
export function checkHeldLines(flags: SimFlags): void {
  const held = flags.logRate * flags.replicas * (flags.retention / SECOND);
  if (held > SIM_LIMITS.heldLines) {
    const n = (x: number) => Math.round(x).toLocaleString("en-US");
    throw new CliError(
      `--log-rate ${flags.logRate} x --replicas ${flags.replicas} x --retention ${formatDuration(flags.retention)} holds ${n(held)} log lines; the simulator holds at most ${n(SIM_LIMITS.heldLines)}: lower one of them`,
      2,
    );
  }
}
