import { ApiKeyStamper as TurnkeyApiKeyStamper } from "@turnkey/api-key-stamper";
import { afterEach, describe, expect, it } from "vitest";
import { TurnkeyClient } from "../../src/api/client.js";
import { decodeStamp, generateKeyPair } from "../../src/api/stamp.js";
import { verifyStamp } from "../../src/api/stamp-verify.js";
import { ApiKeyStamper, type Stamper } from "../../src/api/stamper.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { independentlyVerify } from "../helpers/independent-verify.js";

const WHOAMI = { organizationId: "org", organizationName: "Org", userId: "u", username: "oncall" };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("ApiKeyStamper", () => {
  it("stamps as @turnkey/api-key-stamper does: the same header, the same JSON, both verifying", async () => {
    const pair = generateKeyPair();
    const theirs = new TurnkeyApiKeyStamper({
      apiPublicKey: pair.publicKey,
      apiPrivateKey: pair.privateKey,
    });
    const body = JSON.stringify({ organizationId: "org", note: "dép ✓" });
    const a = new ApiKeyStamper(pair).stamp(body);
    const b = await theirs.stamp(body);
    expect(a.stampHeaderName).toBe(b.stampHeaderName);
    // The signature's nonce is random: all else, key order included, is the same text.
    const withoutSignature = (value: string) =>
      Buffer.from(value, "base64url")
        .toString("utf8")
        .replace(/"signature":"[0-9a-f]+"/, "");
    expect(withoutSignature(a.stampHeaderValue)).toBe(withoutSignature(b.stampHeaderValue));
    expect(a.stampHeaderValue).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const value of [a.stampHeaderValue, b.stampHeaderValue]) {
      expect(verifyStamp(value, body).publicKey).toBe(pair.publicKey);
      expect(independentlyVerify(value, body)).toBe(true);
    }
  });
});

describe("the client's stamper", () => {
  it("is an ApiKeyStamper of the API key unless given; a given one stamps the exact body sent", async () => {
    const s = await scriptedServer((_req, res) => json(res, 200, WHOAMI));
    closers.push(s.close);
    const pair = generateKeyPair();
    await new TurnkeyClient({ baseUrl: s.url, organizationId: "org", apiKey: pair }).call(
      "whoami",
      {},
    );
    const sent = s.requests[0];
    const header = sent?.headers["x-stamp"] as string;
    expect(decodeStamp(header).publicKey).toBe(pair.publicKey);
    expect(verifyStamp(header, sent?.body ?? "").publicKey).toBe(pair.publicKey);

    const seen: string[] = [];
    const custom: Stamper = {
      stamp: async (body) => {
        seen.push(body);
        return { stampHeaderName: "X-Stamp-Test", stampHeaderValue: `len ${body.length}` };
      },
    };
    await new TurnkeyClient({ baseUrl: s.url, organizationId: "org", stamper: custom }).call(
      "whoami",
      {},
    );
    const second = s.requests[1];
    expect(seen).toEqual([second?.body]);
    expect(second?.headers["x-stamp-test"]).toBe(`len ${second?.body.length}`);
    expect(second?.headers["x-stamp"]).toBeUndefined();
  });
});
