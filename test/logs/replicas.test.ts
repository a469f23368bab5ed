import { describe, expect, it } from "vitest";
import {
  replicaMatcher,
  replicaNumber,
  sortedReplicaLabels,
  unmatchedReplicas,
} from "../../src/logs/replicas.js";

describe("replica selection", () => {
  it("--replica N matches `replica N/K`; anything else must equal the label", () => {
    const m = replicaMatcher(["2", "canary"]);
    expect(m("replica 2/3")).toBe(true);
    expect(m("replica 12/13")).toBe(false);
    expect(m("canary")).toBe(true);
    expect(m("replica 1/3")).toBe(false);
    expect(replicaMatcher(undefined)("anything")).toBe(true);
  });

  it("names the values that match no replica seen, and the replicas in reading order", () => {
    const seen = ["replica 10/12", "replica 2/12", "replica 1/12"];
    expect(unmatchedReplicas(["2", "7", "10", "replica 1/12"], seen)).toEqual(["7"]);
    expect(unmatchedReplicas(["7"], ["replica 1/3"])).toEqual(["7"]);
    expect(unmatchedReplicas(undefined, seen)).toEqual([]);
    expect(sortedReplicaLabels(seen)).toEqual(["replica 1/12", "replica 2/12", "replica 10/12"]);
  });

  it("reads the number of a label, also one a merged view prefixed", () => {
    expect(replicaNumber("replica 2/3")).toBe(2);
    expect(replicaNumber("5b2da4 replica 3/3")).toBe(3);
    expect(replicaNumber("main")).toBeUndefined();
  });
});
