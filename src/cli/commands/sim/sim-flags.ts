/** `tvcwatch sim`'s flags as parsed, and the ranges of those that size its work and memory. */
import { InvalidArgumentError } from "commander";
import type { ScenarioName } from "../../../sim/scenario.js";
import { formatDuration } from "../../../text/duration.js";
import { grouped } from "../../../text/grouped-number.js";
import { CliError } from "../../cli-error.js";
import { boundedDurationFlag } from "../../flag-parsers.js";

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
  outage?: { fromMs: number; toMs: number };
  clockSkew: number;
  ingestLag: number;
  truthFile?: string;
}

/** --outage AT+FOR: from AT after the start (0 to 24h), for FOR (1s to 24h). */
export function outageFlag(value: string): { fromMs: number; toMs: number } {
  const [at, length, ...rest] = value.split("+");
  if (at === undefined || length === undefined || rest.length > 0)
    throw new InvalidArgumentError(
      `expected AT+FOR, two durations (30s+20s: from 30 s after the start, for 20 s), got ${JSON.stringify(value.slice(0, 24))}`,
    );
  const fromMs = boundedDurationFlag(0, 24 * HOUR)(at);
  return { fromMs, toMs: fromMs + boundedDurationFlag(SECOND, 24 * HOUR)(length) };
}

/** Refuses flags that together would hold more log lines than the simulator keeps. */
export function checkHeldLines(flags: SimFlags): void {
  const held = flags.logRate * flags.replicas * (flags.retention / SECOND);
  if (held > SIM_LIMITS.heldLines) {
    const n = (x: number) => grouped(Math.round(x));
    throw new CliError(
      `--log-rate ${flags.logRate} x --replicas ${flags.replicas} x --retention ${formatDuration(flags.retention)} holds ${n(held)} log lines; the simulator holds at most ${n(SIM_LIMITS.heldLines)}: lower one of them`,
      2,
    );
  }
}
