import type { FieldQuery } from "../../../logs/field-query.js";
import type { LogLevel } from "../../../text/log-level.js";
import type { Pattern } from "../../../text/pattern.js";
import type { TimeBound } from "../../../text/time-bound.js";

/** `tvcwatch tail`'s flags as commander parses them (declared in commands/tail.ts). */
export interface TailFlags {
  /** Repeatable: several deployments merged. */
  deployment?: string[];
  app?: string;
  all?: boolean;
  maxConcurrent?: number;
  /** With --app / --all: the most deployments followed. */
  maxDeployments?: number;
  follow?: boolean;
  /** A duration back, a clock time or RFC 3339 (src/text/time-bound.ts). */
  since?: TimeBound;
  /** The end: the same forms; refused with -f or in the future. */
  until?: TimeBound;
  tail?: number;
  replica?: string[];
  /** Repeatable: a line is kept when any matches. */
  grep?: Pattern[];
  /** Repeatable: a line is hidden when any matches. */
  exclude?: Pattern[];
  /** Repeatable: field queries, every one must hold. */
  where?: FieldQuery[];
  level?: LogLevel;
  /** grep's -C, -A, -B: context lines around each kept line. */
  context?: number;
  afterContext?: number;
  beforeContext?: number;
  /** Repeatable: matches marked on a terminal. */
  highlight?: Pattern[];
  /** `--fields`: text lines as columns of these fields. */
  fields?: string[];
  timestamps?: boolean;
  utc?: boolean;
  output: "text" | "json" | "otlp";
  otlpEndpoint?: string;
  interval: number;
  overlap: number;
  verbose?: boolean;
  checkpoint?: string;
  /** With --checkpoint: its record set aside, a fresh start. */
  startOver?: boolean;
  outputFile?: string;
  /** The side panes' events printed among the lines (./tail-events.ts). */
  events?: boolean;
  email?: string[];
  solAddress?: string[];
  caip2?: string;
}
