/**
 * A client that stamps with a passkey instead of an API key: the simulator's software passkey
 * (PasskeyStamper) and Turnkey's own WebauthnStamper, each given to the client as its stamper,
 * are accepted by the simulator as the seeded on-call user; a passkey it does not know is not.
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { WebauthnStamper } from "@turnkey/webauthn-stamper";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { TurnkeyClient } from "../../src/api/client.js";
import { TurnkeyApiError } from "../../src/api/errors.js";
import type { Stamper } from "../../src/api/stamper.js";
import { PasskeyStamper } from "../../src/sim/crypto/webauthn-stamp.js";
import { seededPasskeyPrivateKey } from "../../src/sim/organization/org-seed.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/server.js";

const SEED = 11;
let sim: RunningSimulator;
let credentialId: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: SEED, log: () => {} });
  credentialId = sim.service.state.users[0]?.authenticators[0]?.credentialId as string;
});
afterAll(() => sim.close());
afterEach(() => {
  vi.unstubAllGlobals();
});

const clientWith = (stamper: Stamper) =>
  new TurnkeyClient({
    baseUrl: sim.url,
    organizationId: sim.config.organizationId,
    stamper,
    retries: 0,
  });

describe("a client stamping with a passkey", () => {
  it("is accepted by the simulator with its seeded passkey (PasskeyStamper)", async () => {
    const passkey = new PasskeyStamper({ privateKey: seededPasskeyPrivateKey(SEED), credentialId });
    const client = clientWith(passkey);
    for (let i = 0; i < 2; i++) {
      const who = await client.call("whoami", {});
      expect(who.username).toBe("oncall-root");
      expect(who.organizationId).toBe(sim.config.organizationId);
    }
  });

  it("is refused with a key the credential was not registered with", async () => {
    const stranger = new PasskeyStamper({ privateKey: p256.utils.randomSecretKey(), credentialId });
    const err = await clientWith(stranger)
      .call("whoami", {})
      .catch((e) => e);
    expect(err).toBeInstanceOf(TurnkeyApiError);
    expect((err as TurnkeyApiError).codeName).toBe("UNAUTHENTICATED");
    expect((err as TurnkeyApiError).message).toBe("could not verify webauthn signature");
  });

  it("is accepted with Turnkey's own WebauthnStamper (a fake platform authenticator)", async () => {
    const secret = seededPasskeyPrivateKey(SEED);
    const rawId = Buffer.from(credentialId, "base64url");
    const ab = (u: Uint8Array) => u.slice().buffer;
    vi.stubGlobal("navigator", {
      credentials: {
        get: async (options: { publicKey: { challenge: Uint8Array; rpId: string } }) => {
          const clientDataJSON = new TextEncoder().encode(
            JSON.stringify({
              type: "webauthn.get",
              challenge: Buffer.from(new Uint8Array(options.publicKey.challenge)).toString(
                "base64url",
              ),
              origin: "http://localhost",
              crossOrigin: false,
            }),
          );
          const authenticatorData = concatBytes(
            sha256(new TextEncoder().encode(options.publicKey.rpId)),
            Uint8Array.of(0x05, 0, 0, 0, 1),
          );
          const digest = sha256(concatBytes(authenticatorData, sha256(clientDataJSON)));
          const signature = p256.sign(digest, secret, { prehash: false, format: "der" });
          return {
            type: "public-key",
            id: credentialId,
            rawId: ab(rawId),
            response: {
              clientDataJSON: ab(clientDataJSON),
              authenticatorData: ab(authenticatorData),
              signature: ab(signature),
              userHandle: null,
            },
            getClientExtensionResults: () => ({}),
          };
        },
      },
    });
    const who = await clientWith(new WebauthnStamper({ rpId: "localhost" })).call("whoami", {});
    expect(who.username).toBe("oncall-root");
  });
});
