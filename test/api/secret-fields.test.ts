import { describe, expect, it } from "vitest";
import { getOperation, operationNames } from "../../src/api/operations.js";
import { redactSecrets, SECRET_FIELDS } from "../../src/api/secret-fields.js";

describe("redactSecrets", () => {
  it("knows the table's secret fields", () => {
    expect([...SECRET_FIELDS].sort()).toEqual([
      "credentialBundle",
      "exportBundle",
      "oidcToken",
      "secretPayloads",
      "session",
    ]);
  });

  it("are exactly the fields the operation table names secret", () => {
    const table = new Set(
      operationNames.flatMap((name) => {
        const op = getOperation(name);
        return op.kind === "activity" ? op.secretFields : [];
      }),
    );
    expect([...SECRET_FIELDS].sort()).toEqual([...table].sort());
  });

  it("replaces secrets at any depth, arrays item by item, and leaves everything else", () => {
    const response = {
      activities: [
        {
          id: "a1",
          intent: { oauthIntent: { oidcToken: "eyJhbGciOi.x.y", targetPublicKey: "04ab" } },
          result: { oauthResult: { userId: "u1", credentialBundle: "3vQB7" } },
        },
        { result: { exportSecretsResult: { secretPayloads: ["{}", '{"a":1}'] } } },
        { result: { stampLoginResult: { session: "" } } },
      ],
    };
    const { value, fields } = redactSecrets(response);
    expect(fields).toEqual(["oidcToken", "credentialBundle", "secretPayloads"]);
    expect(value).toEqual({
      activities: [
        {
          id: "a1",
          intent: {
            oauthIntent: { oidcToken: "[redacted: 14 characters]", targetPublicKey: "04ab" },
          },
          result: { oauthResult: { userId: "u1", credentialBundle: "[redacted: 5 characters]" } },
        },
        {
          result: {
            exportSecretsResult: {
              secretPayloads: ["[redacted: 2 characters]", "[redacted: 7 characters]"],
            },
          },
        },
        { result: { stampLoginResult: { session: "" } } },
      ],
    });
    expect(response.activities[0]?.result.oauthResult?.credentialBundle).toBe("3vQB7");
  });
});
