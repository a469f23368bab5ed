import { describe, expect, it } from "vitest";
import {
  ansi,
  LEVEL_COLOURS,
  REPLICA_COLOURS,
  replicaColour,
  shouldColour,
} from "../../src/text/colour.js";

describe("replica colours", () => {
  it("are never a level's colour (red errors, yellow warnings, gray debug), and differ for neighbours", () => {
    const colours = Array.from({ length: 9 }, (_, i) => replicaColour(`replica ${i + 1}/9`));
    for (const c of colours) expect(LEVEL_COLOURS as readonly string[]).not.toContain(c);
    expect(new Set(colours.slice(0, REPLICA_COLOURS.length)).size).toBe(REPLICA_COLOURS.length);
    expect(replicaColour("pod-abc")).toBe(replicaColour("pod-abc"));
    expect(ansi("cyanBright", "x")).toBe("\u001b[96mx\u001b[39m");
  });

  it("look at a bounded part of a label (a regex over a huge one would backtrack for minutes)", () => {
    // What lies past the first 100 characters does not count: a number there, or a long tail.
    const head = "x".repeat(100);
    expect(replicaColour(`${head}replica 2/3`)).toBe(replicaColour(head));
    expect(replicaColour("9".repeat(200_000))).toBe(replicaColour("9".repeat(100)));
  });

  it("follow NO_COLOR and FORCE_COLOR", () => {
    expect(shouldColour(true, {})).toBe(true);
    expect(shouldColour(true, { NO_COLOR: "1" })).toBe(false);
    expect(shouldColour(false, { FORCE_COLOR: "1" })).toBe(true);
    expect(shouldColour(false, {})).toBe(false);
  });
});
