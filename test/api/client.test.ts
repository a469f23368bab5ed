import { afterEach, describe, expect, it } from "vitest";
import type { RetryInfo } from "../../src/api/client.js";
import { parseRetryAfter, TurnkeyClient } from "../../src/api/client.js";
import {
  NetworkError,
  parseErrorBody,
  RedirectError,
  RequestValidationError,
  ResponseShapeError,
  ResponseTooLargeError,
  TurnkeyApiError,
} from "../../src/api/errors.js";
import { getOperation, operationNames } from "../../src/api/operations.js";
import { retryDecision } from "../../src/api/retry-decision.js";
import { generateKeyPair } from "../../src/api/stamp.js";
import { verifyStamp } from "../../src/api/stamp-verify.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { EXAMPLE_INPUTS } from "./operation-examples.js";

const key = generateKeyPair();
const fixedClock = { now: () => 1_790_000_000_000, monotonic: () => performance.now() };
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

function client(url: string, extra: Partial<ConstructorParameters<typeof TurnkeyClient>[0]> = {}) {
  return new TurnkeyClient({
    baseUrl: url,
    organizationId: "org-1",
    apiKey: key,
    authProxyUrl: url,
    authProxyConfigId: "cfg-1",
    clock: fixedClock,
    minRetryDelayMs: 5,
    maxRetryDelayMs: 2000,
    ...extra,
  });
}

/** The same status with a negative ready count for its first deployment. */
function badCount(status: { appStatus: { deployments: object[] } }): unknown {
  const [first, ...rest] = status.appStatus.deployments;
  return {
    appStatus: { ...status.appStatus, deployments: [{ ...first, readyReplicas: -1 }, ...rest] },
  };
}

const WHOAMI = { organizationId: "org-1", organizationName: "o", userId: "u", username: "n" };

describe("request shapes", () => {
  it.each(operationNames)("%s is sent as the spec says", async (name) => {
    const c = client("http://127.0.0.1:9");
    const op = getOperation(name);
    const req = await c.buildRequest(name, EXAMPLE_INPUTS[name], { generateAppProofs: true });
    expect(req.headers.Accept).toBe("application/json");
    expect(req.headers["Content-Type"]).toBe("application/json");
    const body = JSON.parse(req.body);
    if (op.kind === "activity") {
      expect(req.url).toBe(`http://127.0.0.1:9/public/v1/submit/${name}`);
      expect(body).toEqual({
        type: op.activityType,
        timestampMs: "1790000000000",
        organizationId: "org-1",
        parameters: EXAMPLE_INPUTS[name],
        generateAppProofs: true,
      });
      expect(verifyStamp(req.headers["X-Stamp"] as string, req.body).publicKey).toBe(key.publicKey);
    } else if (op.kind === "query") {
      expect(req.url).toBe(`http://127.0.0.1:9/public/v1/query/${name}`);
      expect(body).toEqual({ organizationId: "org-1", ...EXAMPLE_INPUTS[name] });
      expect(verifyStamp(req.headers["X-Stamp"] as string, req.body).publicKey).toBe(key.publicKey);
    } else {
      expect(req.url).toBe("http://127.0.0.1:9/v1/wallet_kit_config");
      expect(req.body).toBe("{}");
      expect(req.headers["X-Auth-Proxy-Config-Id"]).toBe("cfg-1");
      expect(req.headers["X-Stamp"]).toBeUndefined();
    }
  });

  it("uses the V2 type and intent names for create_api_keys", () => {
    const op = getOperation("create_api_keys");
    expect(op.kind === "activity" && op.activityType).toBe("ACTIVITY_TYPE_CREATE_API_KEYS_V2");
    expect(op.kind === "activity" && op.intentKey).toBe("createApiKeysIntentV2");
  });

  it("names the field and the expectation before anything is sent", async () => {
    const c = client("http://127.0.0.1:9");
    await expect(
      c.buildRequest("get_tvc_deployment_debug_logs", { deploymentId: "d", sinceSeconds: 5 }),
    ).rejects.toThrow(/field sinceSeconds: .*string/);
    await expect(
      c.buildRequest("get_tvc_deployment_debug_logs", { deploymentId: "", sinceSeconds: "5" }),
    ).rejects.toThrow(/field deploymentId: must not be empty/);
    await expect(
      c.buildRequest("create_api_keys", {
        userId: "u",
        apiKeys: [{ apiKeyName: "x", publicKey: "y", curveType: "RSA" }],
      }),
    ).rejects.toThrow(RequestValidationError);
    await expect(c.buildRequest("whoami", { typo: 1 })).rejects.toThrow(/typo/);
    await expect(c.buildRequest("create_user_tag", { userIds: [] })).rejects.toThrow(
      "create_user_tag: field parameters.userTagName: required (a string)",
    );
  });
});

describe("responses and errors", () => {
  it("returns validated data with the server's Date", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 200, WHOAMI, { Date: "Sun, 22 Nov 2026 10:00:00 GMT" }),
    );
    closers.push(s.close);
    const { data, meta } = await client(s.url).callWithMeta("whoami", {});
    expect(data.username).toBe("n");
    expect(meta.serverDate).toBe(Date.parse("2026-11-22T10:00:00Z"));
    expect(meta.attempts).toBe(1);
  });

  it("names the field of a response of the wrong shape", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 200, { entries: [{ line: { content: 5 }, replicaLabel: "r" }] }),
    );
    closers.push(s.close);
    await expect(
      client(s.url).call("get_tvc_deployment_debug_logs", { deploymentId: "d" }),
    ).rejects.toThrow(/entries\.0\.line\.content/);
    await expect(
      client(s.url).call("get_tvc_deployment_debug_logs", { deploymentId: "d" }),
    ).rejects.toBeInstanceOf(ResponseShapeError);
  });

  it("get_app_status: the stamped request it sends, the status it returns, a count it refuses", async () => {
    const status = {
      appStatus: {
        appId: "app-1",
        targetedDeploymentId: "dep-a",
        deployments: [
          {
            deploymentId: "dep-a",
            readyReplicas: 2,
            desiredReplicas: 3,
            lastUpdatedTime: { seconds: "1790000045", nanos: "0" },
          },
          // proto3 JSON leaves a zero out.
          { deploymentId: "dep-b", lastUpdatedTime: { seconds: "1789990000", nanos: "0" } },
        ],
      },
    };
    const s = await scriptedServer((r, res) =>
      json(res, 200, r.body.includes("app-bad") ? badCount(status) : status),
    );
    closers.push(s.close);
    const { appStatus } = await client(s.url).call("get_app_status", { appId: "app-1" });
    expect(s.requests[0]?.url).toBe("/public/v1/query/get_app_status");
    const sent = s.requests[0] as (typeof s.requests)[0];
    expect(JSON.parse(sent.body)).toEqual({ organizationId: "org-1", appId: "app-1" });
    expect(verifyStamp(String(sent.headers["x-stamp"]), sent.body).publicKey).toBe(key.publicKey);
    expect(appStatus.targetedDeploymentId).toBe("dep-a");
    expect(appStatus.deployments?.map((d) => [d.readyReplicas, d.desiredReplicas])).toEqual([
      [2, 3],
      [undefined, undefined],
    ]);
    await expect(client(s.url).call("get_app_status", { appId: "app-bad" })).rejects.toThrow(
      /appStatus\.deployments\.0\.readyReplicas/,
    );
    await expect(client(s.url).call("get_app_status", { appId: "" })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
  });

  it("maps Turnkey's error body, with turnkeyErrorCode from details and field violations", () => {
    const err = parseErrorBody(
      401,
      JSON.stringify({
        code: 16,
        message: "could not verify api key signature",
        details: [
          {
            "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail",
            turnkeyErrorCode: "API_KEY_INVALID",
          },
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [{ field: "x", description: "bad" }],
          },
        ],
      }),
      "whoami",
    );
    expect(err.codeName).toBe("UNAUTHENTICATED");
    expect(err.turnkeyErrorCode).toBe("API_KEY_INVALID");
    expect(err.describe()).toBe(
      "UNAUTHENTICATED (HTTP 401): could not verify api key signature [x: bad] [turnkeyErrorCode API_KEY_INVALID]",
    );
    expect(
      parseErrorBody(400, JSON.stringify({ code: 9, message: "m", turnkeyErrorCode: "T" }))
        .codeName,
    ).toBe("FAILED_PRECONDITION");
    for (const [status, name] of [
      [400, "INVALID_ARGUMENT"],
      [403, "PERMISSION_DENIED"],
      [404, "NOT_FOUND"],
      [429, "RESOURCE_EXHAUSTED"],
      [500, "INTERNAL"],
    ] as const) {
      expect(parseErrorBody(status, "{}").codeName).toBe(name);
    }
  });

  it("gives a useful, sanitized error for a non-JSON body", () => {
    const err = parseErrorBody(502, "<html>\u001b[2J bad gateway</html>");
    expect(err.message).toContain("non-JSON error body");
    expect(err.message).not.toContain("\u001b");
    expect(err.httpStatus).toBe(502);
  });

  it("parses Retry-After as seconds or a date", () => {
    expect(parseRetryAfter("2", 0)).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
  });
});

describe("retries against a real server", () => {
  it("retries 5xx and connection resets, resending the identical body", async () => {
    const s = await scriptedServer((_r, res, i) => {
      if (i === 0) return json(res, 503, { code: 14, message: "unavailable" });
      if (i === 1) return res.socket?.destroy();
      json(res, 200, {
        activity: {
          id: "a",
          organizationId: "org-1",
          status: "ACTIVITY_STATUS_COMPLETED",
          type: "ACTIVITY_TYPE_CREATE_USER_TAG",
          intent: {},
          result: { createUserTagResult: { userTagId: "t", userIds: [] } },
          votes: [],
          fingerprint: "sha256:x",
          canApprove: false,
          canReject: false,
          createdAt: { seconds: "1", nanos: "0" },
          updatedAt: "2",
        },
      });
    });
    closers.push(s.close);
    const retries: RetryInfo[] = [];
    const out = await client(s.url).callWithMeta(
      "create_user_tag",
      { userTagName: "t", userIds: [] },
      {
        onRetry: (i) => retries.push(i),
      },
    );
    expect(out.meta.attempts).toBe(3);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(s.requests).toHaveLength(3);
    expect(new Set(s.requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(s.requests.map((r) => r.headers["x-stamp"])).size).toBe(1);
  });

  it("honours Retry-After on 429", async () => {
    const s = await scriptedServer((_r, res, i) =>
      i === 0
        ? json(res, 429, { code: 8, message: "slow down" }, { "Retry-After": "1" })
        : json(res, 200, WHOAMI),
    );
    closers.push(s.close);
    const retries: RetryInfo[] = [];
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    await client(s.url, { sleep }).call("whoami", {}, { onRetry: (i) => retries.push(i) });
    expect(retries[0]?.delayMs).toBe(1000);
    // The client waited exactly that before the second attempt.
    expect(waits).toEqual([1000]);
    expect(s.requests).toHaveLength(2);
  });

  it("takes a per-call number of retries", async () => {
    const s = await scriptedServer((_r, res) => json(res, 503, { code: 14, message: "down" }));
    closers.push(s.close);
    const c = client(s.url, { retries: 4 });
    await expect(c.call("whoami", {}, { retries: 0 })).rejects.toBeInstanceOf(TurnkeyApiError);
    expect(s.requests).toHaveLength(1);
    const retries: RetryInfo[] = [];
    await expect(
      c.call("whoami", {}, { retries: 1, onRetry: (i) => retries.push(i) }),
    ).rejects.toBeInstanceOf(TurnkeyApiError);
    expect(s.requests).toHaveLength(3);
    expect(retries.map((r) => [r.attempt, r.retriesLeft])).toEqual([[1, 0]]);
  });

  it("does not wait for a Retry-After beyond its cap: the error says why, at once", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 429, { code: 8, message: "slow down" }, { "Retry-After": "3600" }),
    );
    closers.push(s.close);
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const err = await client(s.url, { maxRetryAfterMs: 60_000, sleep })
      .call("whoami", {})
      .catch((e) => e);
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(1);
    expect((err as TurnkeyApiError).describe()).toBe(
      "RESOURCE_EXHAUSTED (HTTP 429): slow down; the server asks to wait 1h before a retry, longer than tvcwatch waits (1m): try again later",
    );
  });

  it("never retries other 4xx", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 404, { code: 5, message: "no such deployment" }),
    );
    closers.push(s.close);
    const err = await client(s.url)
      .call("get_tvc_deployment", { deploymentId: "x" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TurnkeyApiError);
    expect((err as TurnkeyApiError).codeName).toBe("NOT_FOUND");
    expect(s.requests).toHaveLength(1);
  });

  it("does not retry UNIMPLEMENTED (501), which another attempt cannot change", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 501, { code: 12, message: "not served here" }),
    );
    closers.push(s.close);
    const err = await client(s.url)
      .call("list_private_keys", {})
      .catch((e) => e);
    expect((err as TurnkeyApiError).codeName).toBe("UNIMPLEMENTED");
    expect(retryDecision(err, "request")).toEqual({
      action: "stop",
      reason: "the server does not have this operation",
    });
    expect(s.requests).toHaveLength(1);
  });

  it("times out each attempt and gives up with a NetworkError", async () => {
    const s = await scriptedServer(() => {
      /* never answers */
    });
    closers.push(s.close);
    const err = await client(s.url, { timeoutMs: 150, retries: 2 })
      .call("whoami", {})
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).attempts).toBe(3);
    expect((err as Error).message).toMatch(
      /^whoami: 127\.0\.0\.1:\d+ did not answer within 150ms \(gave up after 3 attempts\)$/,
    );
  });

  it("stops at once when the caller aborts", async () => {
    const controller = new AbortController();
    // Aborted once the server has the request, which it never answers: the call is in flight.
    const s = await scriptedServer(() => controller.abort(new Error("stopped by test")));
    closers.push(s.close);
    const pending = client(s.url).call("whoami", {}, { signal: controller.signal });
    await expect(pending).rejects.toThrow("stopped by test");
    expect(s.requests.length).toBe(1);
  });

  it("fails with a NetworkError when nothing listens", async () => {
    const s = await scriptedServer(() => {});
    await s.close();
    const err = await client(s.url, { retries: 1 })
      .call("whoami", {})
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(
      /^whoami: connection refused by 127\.0\.0\.1:\d+ \(gave up after 2 attempts\)$/,
    );
  });
});

describe("what leaves the client", () => {
  it("never follows a redirect: one request, a RedirectError naming the Location's host", async () => {
    const target = await scriptedServer((_r, res) => json(res, 200, WHOAMI));
    closers.push(target.close);
    for (const status of [301, 302, 303, 307, 308]) {
      const s = await scriptedServer((_r, res) => {
        res.writeHead(status, { Location: `${target.url}/public/v1/query/whoami` });
        res.end();
      });
      closers.push(s.close);
      const err = await client(s.url)
        .call("whoami", {})
        .catch((e) => e);
      expect(err).toBeInstanceOf(RedirectError);
      expect((err as RedirectError).host).toBe(new URL(target.url).host);
      expect((err as Error).message).toMatch(/never follows redirects \(check the base URL\)$/);
      expect(s.requests).toHaveLength(1);
    }
    expect(target.requests).toHaveLength(0);
  });

  it("refuses, in its constructor, a URL the policy refuses", () => {
    expect(() => client("http://api.example.com")).toThrow(/plain http to a non-loopback host/);
    expect(() => client("https://api.example.com", { authProxyUrl: "http://10.0.0.1" })).toThrow(
      /auth-proxy URL .* plain http/,
    );
    expect(() => client("ftp://127.0.0.1")).toThrow(/must use https/);
    expect(() => client("https://user:pw@api.example.com")).toThrow(/user name or password/);
    expect(client("https://api.example.com/").baseUrl).toBe("https://api.example.com");
  });
});

describe("a body read as text", () => {
  it("callForText gives the text of callForBody's bytes, from a body sent in pieces that split characters", async () => {
    const entries = Array.from({ length: 400 }, (_, i) => ({
      line: {
        content: `línea ${i} — ünïcödé ✓ 𝄞 ${"é".repeat(i % 7)}`,
        ts: { seconds: "1", nanos: String(i) },
      },
      replicaLabel: "replica 1/1",
    }));
    const bytes = Buffer.from(JSON.stringify({ entries }), "utf8");
    let pieces = 0;
    const s = await scriptedServer((_r, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      // Pieces of 7 bytes, each on its own turn: the client reads many chunks, cut mid-character.
      let at = 0;
      const next = () => {
        if (at >= bytes.length) return res.end();
        res.write(bytes.subarray(at, at + 7));
        pieces += 1;
        at += 7;
        setImmediate(next);
      };
      next();
    });
    closers.push(s.close);
    const c = client(s.url);
    const input = { deploymentId: "d-1", sinceSeconds: "5" };
    const text = await c.callForText("get_tvc_deployment_debug_logs", input);
    const raw = await c.callForBody("get_tvc_deployment_debug_logs", input);
    expect(pieces).toBeGreaterThan(100);
    expect(text.body).toBe(bytes.toString("utf8"));
    expect(Buffer.from(raw.body).equals(bytes)).toBe(true);
    expect(text.meta.status).toBe(200);
  });
});

describe("a body read as it comes", () => {
  it("callForChunks hands back the chunks as they came, and tells onBodyChunk of each as it comes (callForBody too, into one block)", async () => {
    const bytes = Buffer.from(JSON.stringify({ entries: [] }).padEnd(5000, " "), "utf8");
    const s = await scriptedServer((_r, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": bytes.length });
      let at = 0;
      const next = () => {
        if (at >= bytes.length) return res.end();
        res.write(bytes.subarray(at, at + 700));
        at += 700;
        setImmediate(next);
      };
      next();
    });
    closers.push(s.close);
    const input = { deploymentId: "d-1", sinceSeconds: "5" };
    type Seen = { chunk: Uint8Array; offset: number; declared: number | undefined; copy: Buffer };
    const watch = (seen: Seen[]) => ({
      onBodyChunk: (chunk: Uint8Array, offset: number, declared: number | undefined) =>
        seen.push({ chunk, offset, declared, copy: Buffer.from(chunk) }),
    });
    const seen: Seen[] = [];
    const raw = await client(s.url).callForChunks(
      "get_tvc_deployment_debug_logs",
      input,
      watch(seen),
    );
    expect(raw.body.byteLength).toBe(bytes.length);
    expect(Buffer.concat(raw.body.chunks).equals(bytes)).toBe(true);
    expect(seen.length).toBeGreaterThan(1);
    // Each chunk told as it came, where it lies in the body: the chunks handed back, unchanged.
    expect(seen.map((p) => p.chunk)).toEqual(raw.body.chunks);
    let offset = 0;
    for (const p of seen) {
      expect(p.offset).toBe(offset);
      expect(p.declared).toBe(bytes.length);
      expect(p.copy.equals(bytes.subarray(offset, offset + p.chunk.length))).toBe(true);
      offset += p.chunk.length;
    }
    const seenToo: Seen[] = [];
    const block = await client(s.url).callForBody(
      "get_tvc_deployment_debug_logs",
      input,
      watch(seenToo),
    );
    expect(Buffer.from(block.body).equals(bytes)).toBe(true);
    expect(Buffer.concat(seenToo.map((p) => p.copy)).equals(bytes)).toBe(true);
    expect(
      seenToo.every(
        (p, i) =>
          p.offset ===
          (i === 0 ? 0 : (seenToo[i - 1] as Seen).offset + (seenToo[i - 1] as Seen).copy.length),
      ),
    ).toBe(true);
  });
});

describe("response size limit", () => {
  it("stops reading past the limit and does not retry", async () => {
    const s = await scriptedServer((_r, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (res.write(chunk)) {
          /* until the socket pushes back */
        }
      };
      res.on("drain", pump);
      res.on("error", () => {});
      pump();
    });
    closers.push(s.close);
    const err = await client(s.url, { maxResponseBytes: 1024 * 1024 })
      .call("whoami", {})
      .catch((e) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as Error).message).toBe(
      "whoami: the server's answer is larger than the response size limit (1 MiB); stopped reading",
    );
    expect(s.requests).toHaveLength(1);
  });

  it("refuses an answer announced larger than the limit without reading it", async () => {
    const s = await scriptedServer((_r, res) => {
      res.writeHead(200, { "Content-Length": String(300 * 1024 * 1024) });
      res.write("{");
    });
    closers.push(s.close);
    const err = await client(s.url)
      .call("whoami", {})
      .catch((e) => e);
    expect((err as Error).message).toMatch(
      /announced as larger than the response size limit \(256 MiB\); not read/,
    );
  });

  it("reads an answer of exactly the limit, and names an error body too large to read", async () => {
    const body = JSON.stringify(WHOAMI);
    const s = await scriptedServer((_r, res, i) =>
      i === 0
        ? json(res, 200, WHOAMI)
        : json(res, 400, { code: 3, message: "x".repeat(2 * 1024 * 1024) }),
    );
    closers.push(s.close);
    const c = client(s.url, { maxResponseBytes: Buffer.byteLength(body) });
    expect(await c.call("whoami", {})).toEqual(WHOAMI);
    const err = (await c.call("whoami", {}).catch((e) => e)) as TurnkeyApiError;
    expect(err.describe()).toMatch(
      /^INVALID_ARGUMENT \(HTTP 400\): HTTP 400 with an error body larger than/,
    );
  });
});
