/**
 * An lnav log format (https://lnav.org/schemas/format-v1.schema.json) for the NDJSON `tail -o
 * json` prints and the dashboard's `S` saves: `tvcwatch lnav-format > tvcwatch.json && lnav -i
 * tvcwatch.json` installs it. lnav then reads each line's `time` as its timestamp, `level` as its
 * level (the six names tail writes, mapped to lnav's), `content` as its body, and `replicaLabel`
 * and `deploymentId` as identifiers (coloured, and columns of the `tvcwatch_log` SQL table). A
 * line shows as `TIME DEPLOY [replica 2/3] content`, the deployment cut to its first 6
 * characters; a gap as its reason, with its from and to below.
 *
 * lnav 0.11 leaves out a JSON line whose timestamp is null (a line the platform did not
 * timestamp); `tvcwatch open` shows those lines in place.
 */

import { formatEvent } from "./formats/stream-format.js";
import type { LogEvent } from "./model/log-line.js";

/** The format's name: lnav's SQL table for these files. */
export const LNAV_FORMAT_NAME = "tvcwatch_log";

/** tvcwatch's level names as lnav names its levels. */
export const LNAV_LEVELS = {
  trace: "trace",
  debug: "debug",
  info: "info",
  warning: "warn",
  error: "error",
  fatal: "fatal",
} as const;

/** Lines lnav checks the format against when it is installed, as `tail -o json` prints them. */
const SAMPLES: { event: LogEvent; level: keyof typeof LNAV_LEVELS }[] = [
  {
    event: {
      kind: "line",
      replicaLabel: "replica 2/3",
      seconds: "1795000000",
      nanos: 5,
      sortKey: 1_795_000_000_000,
      content: "ERROR signer: unhandled rejection: Error: upstream timeout after 5000ms",
      late: false,
    },
    level: "error",
  },
  {
    event: {
      kind: "line",
      replicaLabel: "replica 1/3",
      seconds: "1795000001",
      nanos: 250_000_000,
      sortKey: 1_795_000_001_250,
      content: '{"level":"warn","msg":"policy evaluated","latencyMs":812}',
      late: false,
      deploymentId: "9463b1f2-7c1e-4f4e-9d8e-2a1b3c4d5e6f",
    },
    level: "warning",
  },
];

const JSON_LINE = { output: "json", timestamps: false, utc: true, colour: false } as const;

/** The format definition, as a JSON value. */
export function lnavFormat(): Record<string, unknown> {
  return {
    $schema: "https://lnav.org/schemas/format-v1.schema.json",
    [LNAV_FORMAT_NAME]: {
      title: "tvcwatch",
      description:
        "Turnkey Verifiable Cloud debug logs as `tvcwatch tail -o json` prints them and the dashboard's S saves them.",
      json: true,
      "timestamp-field": "time",
      "level-field": "level",
      "body-field": "content",
      level: LNAV_LEVELS,
      value: {
        deploymentId: { kind: "string", identifier: true },
        replicaLabel: { kind: "string", identifier: true },
        ts: { kind: "json", hidden: true },
        level: { kind: "string", hidden: true },
        event: { kind: "string", identifier: true },
        reason: { kind: "string" },
      },
      "line-format": [
        { field: "__timestamp__" },
        " ",
        { field: "deploymentId", "default-value": "", "max-width": 6, overflow: "truncate" },
        " [",
        { field: "replicaLabel", "default-value": "-" },
        "] ",
        { field: "content", "default-value": "" },
        { field: "reason", "default-value": "" },
      ],
      sample: SAMPLES.map((s) => ({ line: formatEvent(s.event, JSON_LINE), level: s.level })),
    },
  };
}

/** What `tvcwatch lnav-format` prints. */
export function lnavFormatText(): string {
  return `${JSON.stringify(lnavFormat(), null, 2)}\n`;
}
