import { describe, expect, it } from "vitest";
import { messageShape, SHAPE_CHARS } from "../../src/logs/message-shape.js";

describe("a message's shape", () => {
  it("masks numbers, hex and ids, so occurrences of one message read as one", () => {
    const a = messageShape(
      "ERROR signer: upstream timeout after 5000ms (pool exhausted: 64 of 64 connections busy)",
    );
    expect(a).toBe(
      "ERROR signer: upstream timeout after #ms (pool exhausted: # of # connections busy)",
    );
    expect(
      messageShape(
        "ERROR signer: upstream timeout after 3000ms (pool exhausted: 63 of 64 connections busy)",
      ),
    ).toBe(a);
    expect(messageShape("tx 0x9f8e7d6c5b4a failed for 8f14e45f-ceea-467f-a0e6-2f4b1c3d5e6f")).toBe(
      "tx <hex> failed for <id>",
    );
    expect(
      messageShape("sig 5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4t"),
    ).toBe("sig <id>");
    expect(
      messageShape('{"level":"error","msg":"nonce reserved","seq":2000002,"requestId":"4b5a"}'),
    ).toBe('{"level":"error","msg":"nonce reserved","seq":#,"requestId":"<hex>"}');
    expect(messageShape("10.0.3.17 heap at 97% of 2 GiB, v2 e2e")).toBe(
      "#.#.#.# heap at #% of # GiB, v# e#e",
    );
  });

  it("keeps what tells messages apart, and reads a bounded prefix", () => {
    expect(messageShape("ERROR ledger: unhandled rejection")).not.toBe(
      messageShape("ERROR signer: unhandled rejection"),
    );
    expect(messageShape(`${"x".repeat(SHAPE_CHARS)}tail`)).toBe("x".repeat(SHAPE_CHARS));
  });
});
