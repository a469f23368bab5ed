import { describe, expect, it } from "vitest";
import { replicaTagText } from "../../../src/tui/log-view/rendered-line.js";

describe("a replica's tag", () => {
  it("is its number, after its deployment's label (with version and role) when several are merged", () => {
    expect(replicaTagText("replica 2/3")).toBe("2");
    expect(replicaTagText("9463b1 replica 2/3")).toBe("9463b1 2");
    expect(replicaTagText("0c7e55 0.8.0 canary replica 2/3")).toBe("0c7e55 0.8.0 canary 2");
    expect(replicaTagText("9463b1 live replica 1/1")).toBe("9463b1 live 1");
    expect(replicaTagText("no number")).toBeUndefined();
  });
});
