import { describe, expect, it } from "vitest";
import { smartCaseRegex } from "../../src/text/smart-case.js";

describe("smart case", () => {
  it("an all-lower-case pattern ignores case; one upper-case letter makes it exact", () => {
    expect(smartCaseRegex("info").test('{"level":"INFO"}')).toBe(true);
    expect(smartCaseRegex("info").test('{"level":"info"}')).toBe(true);
    expect(smartCaseRegex("INFO").test('{"level":"info"}')).toBe(false);
    expect(smartCaseRegex("Timeout").test("timeout after 5s")).toBe(false);
  });

  it("upper-case escapes are syntax, not letters: \\S, \\W, \\p{Lu} keep a lower-case pattern case-blind", () => {
    expect(smartCaseRegex("error\\S+").flags).toBe("i");
    expect(smartCaseRegex("\\Werr").flags).toBe("i");
    expect(smartCaseRegex("\\p{Lu}x").flags).toBe("i");
    expect(smartCaseRegex("\\x41rr").flags).toBe("i");
    expect(smartCaseRegex("E\\d+").flags).toBe("");
  });
});
