import type { LogLevel } from "../../text/log-level.js";

/** `tvcwatch tail`'s flags as commander parses them (declared in commands/tail.ts). */
export interface TailFlags {
  /** Repeatable: several deployments merged. */
  deployment?: string[];
  app?: string;
  all?: boolean;
  maxConcurrent?: number;
  follow?: boolean;
  since?: number;
  tail?: number;
  replica?: string[];
  grep?: RegExp;
  exclude?: RegExp;
  level?: LogLevel;
  timestamps?: boolean;
  utc?: boolean;
  output: "text" | "json" | "otlp";
  otlpEndpoint?: string;
  interval: number;
  overlap: number;
  verbose?: boolean;
  checkpoint?: string;
  outputFile?: string;
}
