/**
 * `tvcwatch call` end to end against a tiny scripted server (not the simulator): what the
 * spawned program puts on the wire, what it prints, and its exit status.
 */
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { independentlyVerify } from "../helpers/independent-verify.js";
import { runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const credentials = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-wire",
};

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

const USER_TAG_ACTIVITY = {
  activity: {
    id: "act-1",
    organizationId: "org-wire",
    status: "ACTIVITY_STATUS_COMPLETED",
    type: "ACTIVITY_TYPE_CREATE_USER_TAG",
    intent: {},
    result: { createUserTagResult: { userTagId: "tag-1", userIds: ["u1"] } },
    votes: [],
    fingerprint: "sha256:abc",
    canApprove: false,
    canReject: false,
    createdAt: { seconds: "1790000000", nanos: "0" },
    updatedAt: { seconds: "1790000001", nanos: "0" },
  },
};

describe("tvcwatch call on the wire", () => {
  it("sends an activity stamped over the exact body, and prints the response on one line", async () => {
    const s = await scriptedServer((_r, res) => json(res, 200, USER_TAG_ACTIVITY));
    closers.push(s.close);
    const r = await runCli(
      [
        "--base-url",
        s.url,
        "call",
        "create_user_tag",
        "--body",
        '{"userTagName":"oncall","userIds":["u1"]}',
        "--generate-app-proofs",
      ],
      { env: credentials },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(s.requests).toHaveLength(1);
    const [sent] = s.requests;
    expect(sent?.url).toBe("/public/v1/submit/create_user_tag");
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers.accept).toBe("application/json");
    const body = JSON.parse(sent?.body ?? "");
    expect(body).toEqual({
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      timestampMs: expect.stringMatching(/^\d{13}$/),
      organizationId: "org-wire",
      parameters: { userTagName: "oncall", userIds: ["u1"] },
      generateAppProofs: true,
    });
    expect(independentlyVerify(String(sent?.headers["x-stamp"]), sent?.body ?? "")).toBe(true);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual(USER_TAG_ACTIVITY);
  });

  it("sends a query as {organizationId, ...fields}", async () => {
    const logs = { entries: [{ replicaLabel: "1/1", line: { content: "ready" } }] };
    const s = await scriptedServer((_r, res) => json(res, 200, logs));
    closers.push(s.close);
    const r = await runCli(
      [
        "--base-url",
        s.url,
        "call",
        "get_tvc_deployment_debug_logs",
        "--body",
        '{"deploymentId":"dep-1","tailLines":2}',
      ],
      { env: credentials },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(s.requests[0]?.url).toBe("/public/v1/query/get_tvc_deployment_debug_logs");
    expect(s.requests[0]?.body).toBe(
      '{"organizationId":"org-wire","deploymentId":"dep-1","tailLines":2}',
    );
    expect(
      independentlyVerify(String(s.requests[0]?.headers["x-stamp"]), s.requests[0]?.body ?? ""),
    ).toBe(true);
    expect(JSON.parse(r.stdout)).toEqual(logs);
  });

  it("asks the auth proxy unstamped, with its config ID, and needs no API key", async () => {
    const config = {
      enabledProviders: ["email"],
      sessionExpirationSeconds: "900",
      organizationId: "org-wire",
    };
    const s = await scriptedServer((_r, res) => json(res, 200, config));
    closers.push(s.close);
    const r = await runCli([
      "--auth-proxy-url",
      s.url,
      "--auth-proxy-config-id",
      "cfg-9",
      "call",
      "wallet_kit_config",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(s.requests[0]?.url).toBe("/v1/wallet_kit_config");
    expect(s.requests[0]?.body).toBe("{}");
    expect(s.requests[0]?.headers["x-auth-proxy-config-id"]).toBe("cfg-9");
    expect(s.requests[0]?.headers["x-stamp"]).toBeUndefined();
    expect(JSON.parse(r.stdout)).toEqual(config);
  });

  it("prints an API error on one line with code name, status, message and turnkeyErrorCode; no retry", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 401, {
        code: 16,
        message: "could not verify api key signature",
        details: [
          {
            "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail",
            turnkeyErrorCode: "API_KEY_NOT_FOUND",
          },
        ],
      }),
    );
    closers.push(s.close);
    const r = await runCli(["--base-url", s.url, "call", "whoami"], { env: credentials });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "tvcwatch: whoami: UNAUTHENTICATED (HTTP 401): could not verify api key signature [turnkeyErrorCode API_KEY_NOT_FOUND]\n",
    );
    expect(s.requests).toHaveLength(1);
    expect(r.stderr).not.toContain(key.privateKey);
  });

  it("retries a 502 with a non-JSON body, then reports it sanitized on one line", async () => {
    const s = await scriptedServer((_r, res) => {
      res.writeHead(502, { "Content-Type": "text/html", "Retry-After": "0" });
      res.end("<html>\u001b[2J\nBad Gateway</html>");
    });
    closers.push(s.close);
    const r = await runCli(["--base-url", s.url, "call", "whoami"], { env: credentials });
    expect(r.code).toBe(1);
    expect(s.requests).toHaveLength(5);
    expect(new Set(s.requests.map((q) => q.body)).size).toBe(1);
    expect(r.stderr).toMatch(/^tvcwatch: whoami: HTTP_502 \(HTTP 502\): non-JSON error body: /);
    expect(r.stderr).toContain("Bad Gateway");
    expect(r.stderr).not.toContain("\u001b");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("checks the body before credentials and before sending anything", async () => {
    const s = await scriptedServer((_r, res) => json(res, 200, {}));
    closers.push(s.close);
    const r = await runCli([
      "--base-url",
      s.url,
      "call",
      "get_tvc_deployment_debug_logs",
      "--body",
      '{"deploymentId":"dep-1","tailLines":"ten"}',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^tvcwatch: get_tvc_deployment_debug_logs: field tailLines: .*number.*\n$/,
    );
    expect(s.requests).toHaveLength(0);
  });

  it("names every way to give credentials when there are none, and sends nothing", async () => {
    const s = await scriptedServer((_r, res) => json(res, 200, {}));
    closers.push(s.close);
    const r = await runCli(["--base-url", s.url, "--organization", "o", "call", "whoami"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/TURNKEY_API_PUBLIC_KEY/);
    expect(r.stderr).toMatch(/--config/);
    expect(r.stderr).toMatch(/--key-name/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(s.requests).toHaveLength(0);
  });
});
