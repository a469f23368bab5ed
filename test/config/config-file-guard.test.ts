import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { configFileSchema } from "../../src/config/config-file.js";
import { isConfigFile } from "../../src/config/config-file-guard.js";

const hex = (length: number) =>
  fc
    .array(fc.constantFrom(..."0123456789abcdefABCDEF"), { minLength: length, maxLength: length })
    .map((chars) => chars.join(""));

const junk = fc.oneof(
  fc.string(),
  fc.constant(""),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.array(fc.oneof(fc.string(), fc.constant(""), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);

const text = fc.oneof(fc.string({ minLength: 1 }), junk);
const list = fc.oneof(fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }), junk);
const key = (length: number) =>
  fc.oneof(
    hex(length),
    hex(length - 1),
    hex(length + 1),
    hex(length).map((h) => `${h}\n`),
    junk,
  );

const file = fc.record(
  {
    baseUrl: text,
    organizationId: text,
    apiPublicKey: key(66),
    apiPrivateKey: key(64),
    keyName: text,
    deploymentId: text,
    emails: list,
    solanaAddresses: list,
    caip2: text,
    authProxyUrl: text,
    authProxyConfigId: text,
    signerPublicKey: fc.oneof(
      hex(128).map((h) => `04${h}`),
      hex(130),
      key(130),
    ),
    organisationId: text,
  },
  { requiredKeys: [] },
);

describe("the config file guard", () => {
  it("accepts exactly what the config file schema accepts", () => {
    fc.assert(
      fc.property(fc.oneof(file, junk), (value) => {
        expect(isConfigFile(value)).toBe(configFileSchema.safeParse(value).success);
      }),
      { numRuns: 5000 },
    );
  });

  it("knows every key the schema knows", () => {
    const all = Object.fromEntries(
      Object.keys(configFileSchema.shape).map((k) => [k, k === "emails" ? [] : "x"]),
    );
    // Every key known: only the values can be refused (hex keys here), never a key.
    for (const k of Object.keys(all)) {
      expect(isConfigFile({ [k]: all[k] })).toBe(
        configFileSchema.safeParse({ [k]: all[k] }).success,
      );
    }
    expect(isConfigFile({ organizationId: "o", deploymentId: "d", emails: ["a@b"] })).toBe(true);
  });
});
