import { describe, expect, it } from "vitest";
import {
  LNAV_FORMAT_NAME,
  LNAV_LEVELS,
  lnavFormat,
  lnavFormatText,
} from "../../src/logs/lnav-format.js";
import { LOG_LEVELS } from "../../src/text/log-level.js";

interface Definition {
  json: boolean;
  "timestamp-field": string;
  "level-field": string;
  "body-field": string;
  level: Record<string, string>;
  value: Record<string, { kind: string; identifier?: boolean; hidden?: boolean }>;
  "line-format": (string | { field: string })[];
  sample: { line: string; level: string }[];
}

describe("the lnav format", () => {
  const printed = JSON.parse(lnavFormatText()) as Record<string, unknown>;
  const def = printed[LNAV_FORMAT_NAME] as Definition;

  it("is one JSON-lines format naming lnav's schema, printed as JSON", () => {
    expect(printed).toEqual(lnavFormat());
    expect(printed.$schema).toBe("https://lnav.org/schemas/format-v1.schema.json");
    expect(Object.keys(printed)).toEqual(["$schema", LNAV_FORMAT_NAME]);
    expect(def.json).toBe(true);
  });

  it("reads time, level and content, with the replica and the deployment as identifiers", () => {
    expect(def["timestamp-field"]).toBe("time");
    expect(def["level-field"]).toBe("level");
    expect(def["body-field"]).toBe("content");
    expect(def.value.replicaLabel).toEqual({ kind: "string", identifier: true });
    expect(def.value.deploymentId).toEqual({ kind: "string", identifier: true });
    // ts says what time says; level is the level column.
    expect(def.value.ts?.hidden).toBe(true);
    expect(def.value.level?.hidden).toBe(true);
    // Value names become columns of lnav's SQL table: SQL keywords (a gap's from and to) would
    // keep lnav from making it, so they are left to show as extra fields.
    for (const name of Object.keys(def.value)) expect(["from", "to"]).not.toContain(name);
  });

  it("maps each level tail writes to one of lnav's", () => {
    expect(def.level).toEqual(LNAV_LEVELS);
    expect(Object.values(def.level).sort()).toEqual(LOG_LEVELS.map((l) => l as string).sort());
    expect(Object.keys(def.level)).toEqual(["trace", "debug", "info", "warning", "error", "fatal"]);
  });

  it("shows only fields tail writes, and samples as tail -o json prints them", () => {
    const fields = def["line-format"].flatMap((f) => (typeof f === "string" ? [] : [f.field]));
    expect(fields).toEqual(["__timestamp__", "deploymentId", "replicaLabel", "content", "reason"]);
    expect(def.sample.length).toBeGreaterThan(0);
    for (const s of def.sample) {
      const line = JSON.parse(s.line) as { time: string; level: string; content: string };
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
      expect(def.level[s.level]).toBe(line.level);
    }
  });
});
