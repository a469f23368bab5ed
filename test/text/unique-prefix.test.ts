import { describe, expect, it } from "vitest";
import { uniquePrefixes } from "../../src/text/unique-prefix.js";

describe("the shortest unique prefixes", () => {
  it("are at least the minimum long, longer only where ids share a start", () => {
    const ids = [
      "418b4e9d-1111-4000-8000-000000000000",
      "418b4e9d-2222-4000-8000-000000000000",
      "384a246f-0000-4000-8000-000000000000",
      "418b4e9e-0000-4000-8000-000000000000",
    ];
    const p = uniquePrefixes(ids, 8);
    expect(p.get(ids[0] as string)).toBe("418b4e9d-1");
    expect(p.get(ids[1] as string)).toBe("418b4e9d-2");
    expect(p.get(ids[2] as string)).toBe("384a246f");
    expect(p.get(ids[3] as string)).toBe("418b4e9e");
    // Every prefix tells its id from every other one.
    const shown = ids.map((id) => p.get(id) as string);
    for (const [i, id] of ids.entries())
      for (const [j, prefix] of shown.entries())
        expect(i === j || !id.startsWith(prefix)).toBe(true);
  });

  it("is the whole id when it is short, repeated, or the start of another", () => {
    const p = uniquePrefixes(["abc", "abcdefghij", "abc", "zz"], 4);
    expect(p.get("abc")).toBe("abc");
    expect(p.get("abcdefghij")).toBe("abcd");
    expect(p.get("zz")).toBe("zz");
    expect(p.size).toBe(3);
  });
});
