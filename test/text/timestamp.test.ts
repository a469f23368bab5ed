import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatRfc3339,
  msToUtcRfc3339,
  parseRfc3339,
  Rfc3339Bytes,
  utcRfc3339,
} from "../../src/text/timestamp.js";

describe("parseRfc3339", () => {
  it.each([
    ["2026-11-18T11:06:40.000000005Z", { seconds: 1_795_000_000, nanos: 5 }],
    ["2026-11-18T11:06:40Z", { seconds: 1_795_000_000, nanos: 0 }],
    ["2026-11-18T11:06:40.5Z", { seconds: 1_795_000_000, nanos: 500_000_000 }],
    ["2026-11-18t11:06:40.123z", { seconds: 1_795_000_000, nanos: 123_000_000 }],
    ["2026-11-18 11:06:40.123Z", { seconds: 1_795_000_000, nanos: 123_000_000 }],
    ["2026-11-18T12:06:40.000000005+01:00", { seconds: 1_795_000_000, nanos: 5 }],
    ["2026-11-18T05:36:40.000000005-05:30", { seconds: 1_795_000_000, nanos: 5 }],
    ["1969-12-31T23:59:59.999999999Z", { seconds: -1, nanos: 999_999_999 }],
    ["2024-02-29T00:00:00Z", { seconds: 1_709_164_800, nanos: 0 }],
  ])("reads %s", (text, want) => {
    expect(parseRfc3339(text)).toEqual(want);
  });

  it.each([
    "2026-11-18T11:06:40",
    "2026-11-18T11:06:40.Z",
    "2026-11-18T11:06:40.1234567890Z",
    "2026-13-18T11:06:40Z",
    "2025-02-29T11:06:40Z",
    "2026-11-31T11:06:40Z",
    "2026-11-18T24:06:40Z",
    "2026-11-18T11:06:40+1:00",
    "2026-11-18T11:06:40Z ",
    "2026-11-18X11:06:40Z",
    "invalid-timestamp",
    "-",
  ])("refuses %s", (text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });

  it("reads back what formatRfc3339 writes, in UTC and in the local zone", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 253_402_300_000 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.boolean(),
        (seconds, nanos, utc) => {
          expect(parseRfc3339(formatRfc3339(String(seconds), nanos, utc))).toEqual({
            seconds,
            nanos,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("Rfc3339Bytes", () => {
  /** What the byte reader reads of `text` put between other bytes, by the reader given. */
  const byBytes = (reader: Rfc3339Bytes, text: string) => {
    const bytes = Buffer.from(`9${text}12:00`, "latin1");
    return reader.read(bytes, 1, 1 + text.length)
      ? { seconds: reader.seconds, nanos: reader.nanos }
      : undefined;
  };

  it("reads what parseRfc3339 reads, one time after another (the second kept between them)", () => {
    const reader = new Rfc3339Bytes();
    for (const text of [
      "2026-11-27T01:23:43.966342041Z",
      "2026-11-27T01:23:43.1Z",
      "2026-11-27T01:23:43Z",
      "2026-11-27T01:23:43.966342041+01:30",
      "2026-11-27T01:23:43.966342041-05:00",
      "2026-11-27T01:23:44.000000001z",
      "2026-11-27 01:23:44.5Z",
      "2026-11-27T01:23:44.Z",
      "2026-11-27T01:23:44.1234567890Z",
      "2026-11-27T01:23:44.12+01:3",
      "2026-11-27T01:23:44.12+24:00",
      "2026-11-27T01:23:44.12Zx",
      "2026-02-30T01:23:44Z",
      "2026-11-27T01:23:4",
      "2026-11-27T01:23:44.966342041Z",
    ]) {
      expect(byBytes(reader, text), text).toEqual(parseRfc3339(text));
    }
  });

  it("agrees with parseRfc3339 on times of any shape", () => {
    const reader = new Rfc3339Bytes();
    const digits = (n: number) =>
      fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: n, maxLength: n });
    const time = fc
      .tuple(
        fc.constantFrom(
          "2026-11-27T01:23:4",
          "2026-11-27T01:23:5",
          "2024-02-29T23:59:5",
          "2026-13-01T00:00:0",
        ),
        digits(1),
        // Ten bytes after the second, then `Z`, as the usual shape has them, some not digits.
        fc.constantFrom(
          "",
          ".",
          ".5",
          ".123456789",
          ".1234567890",
          ",",
          ".12345678x",
          ".123+01:00",
        ),
        fc.constantFrom("Z", "z", "+01:00", "-23:59", "+1:00", "", "Z ", "+01:60"),
      )
      .map((p) => p.join(""));
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 6 }), (times) => {
        for (const text of times) expect(byBytes(reader, text)).toEqual(parseRfc3339(text));
      }),
      { numRuns: 2_000, seed: 4104 },
    );
  });
});

describe("utcRfc3339 and msToUtcRfc3339", () => {
  it("say a timestamp only when RFC 3339 can", () => {
    expect(utcRfc3339("1795000000", "5")).toBe("2026-11-18T11:06:40.000000005Z");
    expect(utcRfc3339("1795000000", 5)).toBe("2026-11-18T11:06:40.000000005Z");
    expect(utcRfc3339("-62167219200", 0)).toBe("0000-01-01T00:00:00.000000000Z");
    expect(utcRfc3339("253402300799", 999_999_999)).toBe("9999-12-31T23:59:59.999999999Z");
    for (const [s, n] of [
      ["253402300800", "0"],
      ["-62167219201", "0"],
      ["1.5", "0"],
      ["", "0"],
      ["1795000000", "-1"],
      ["1795000000", "1e3"],
      ["1795000000", "1234567890"],
      ["1795000000", ""],
    ] as const) {
      expect(utcRfc3339(s, n)).toBeUndefined();
    }
    expect(msToUtcRfc3339(1_795_000_000_001.5)).toBe("2026-11-18T11:06:40.001500000Z");
    expect(msToUtcRfc3339(Number.NaN)).toBeUndefined();
  });
});

describe("the local zone's date and time, written by hand", () => {
  // date-fns' format, which they stand in for, against them in zones of their own (Node reads TZ
  // from the environment a process starts with): whole offsets, half hours, 45 minutes, a
  // summer time, and the offsets of minutes and seconds a zone had before standard time.
  const dir = mkdtempSync(join(tmpdir(), "tvcwatch-local-time-"));
  const timestamp = fileURLToPath(new URL("../../src/text/timestamp.ts", import.meta.url));
  const contents = `import { format } from "date-fns";
    import { formatMsRfc3339, localDateTime, localZone } from ${JSON.stringify(timestamp)};
    const bad = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const instants = [0, -1, 1_795_000_000_123, -62_135_596_800_000, -62_198_755_200_000, -2_208_988_800_000, 8.64e15, -8.64e15];
    for (let k = 0; k < 20000; k++) instants.push(Math.round((random() * 2 - 1) * (k % 2 ? 4e12 : 8.64e15)));
    for (const ms of instants) {
      const date = new Date(ms);
      const pairs = [
        [localDateTime(date, "T"), format(date, "yyyy-MM-dd'T'HH:mm:ss")],
        [localDateTime(date, " "), format(date, "yyyy-MM-dd HH:mm:ss")],
        [localZone(date), format(date, "xxx")],
        [formatMsRfc3339(ms, false), format(date, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx")],
      ];
      for (const [ours, theirs] of pairs) if (ours !== theirs) bad.push([ms, ours, theirs]);
    }
    process.stdout.write(JSON.stringify(bad.slice(0, 5)));`;
  const script = join(dir, "local-time.mjs");
  buildSync({
    stdin: {
      contents,
      resolveDir: fileURLToPath(new URL("../../", import.meta.url)),
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    outfile: script,
    logLevel: "warning",
  });

  it.each([
    "UTC",
    "Europe/Amsterdam",
    "America/New_York",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "America/St_Johns",
    "Africa/Monrovia",
  ])("%s: as date-fns writes them, over the whole range of a Date", (zone) => {
    const run = spawnSync(process.execPath, [script], {
      encoding: "utf8",
      env: { ...process.env, TZ: zone },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
