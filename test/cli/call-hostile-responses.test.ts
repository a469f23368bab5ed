/**
 * `tvcwatch call` against a server whose every string is hostile (issue #10, "What to build"):
 * for every operation of the table, a valid response with escape sequences, C1, bidi and
 * zero-width characters in every string field (generated from the response schemas, so a new
 * field is covered by default) is served from loopback; nothing raw reaches stdout or stderr and
 * the output parses to exactly the value served. All operations run through the program's `main`
 * in this process (30 spawns would take most of a minute on a loaded machine); a few also run
 * through the spawned program, as does an API error with a hostile message and details.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationByPath, operationNames } from "../../src/api/operations.js";
import { generateKeyPair } from "../../src/api/stamp.js";
import { decodeResponse } from "../../src/api/validation.js";
import { main } from "../../src/cli/main.js";
import { HOSTILE, hostileResponse, RAW_UNSAFE } from "../api/hostile-samples.js";
import { EXAMPLE_INPUTS } from "../api/operation-examples.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const credentials = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-hostile",
};

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer((req, res) => {
    if (req.url === "/error") return;
    const found = operationByPath(req.url);
    if (!found) return json(res, 404, { code: 5, message: "no such path" });
    json(res, 200, hostileResponse(found.name));
  });
});
afterAll(() => server.close());

function callArgs(name: string, url = server.url): string[] {
  return [
    "--base-url",
    url,
    "--auth-proxy-url",
    url,
    "--auth-proxy-config-id",
    "cfg-hostile",
    "call",
    name,
    "--body",
    JSON.stringify(EXAMPLE_INPUTS[name as keyof typeof EXAMPLE_INPUTS]),
    "--reveal-secrets",
  ];
}

/** Runs the program's main in this process, capturing what it writes. */
async function runInProcess(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = {
    out: process.stdout.write,
    err: process.stderr.write,
    env: { ...process.env },
    exitCode: process.exitCode,
    listeners: process.stdout.listeners("error"),
  };
  const capture = (into: string[]) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof process.stdout.write;
  Object.assign(process.env, credentials);
  process.exitCode = undefined;
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  try {
    await main(["node", "tvcwatch", ...args]);
    return { code: Number(process.exitCode ?? 0), stdout: out.join(""), stderr: err.join("") };
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    process.env = saved.env;
    process.exitCode = saved.exitCode;
    for (const l of process.stdout.listeners("error"))
      if (!saved.listeners.includes(l)) process.stdout.off("error", l as () => void);
  }
}

function expectNothingRaw(text: string): void {
  const at = text.search(RAW_UNSAFE);
  if (at !== -1) {
    throw new Error(
      `raw U+${text.charCodeAt(at).toString(16).padStart(4, "0")} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`,
    );
  }
}

describe("call prints hostile responses inert and unchanged", () => {
  it("every response schema yields a valid hostile response, hostile in every free string", () => {
    for (const name of operationNames) {
      const body = hostileResponse(name);
      expect(() => decodeResponse(name, JSON.stringify(body))).not.toThrow();
      expect(JSON.stringify(body)).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    }
  });

  it.each(operationNames)("%s", async (name) => {
    const r = await runInProcess(callArgs(name));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectNothingRaw(r.stdout);
    expect(JSON.parse(r.stdout)).toEqual(hostileResponse(name));
  });

  it("the same through the spawned program", async () => {
    for (const name of ["whoami", "create_user_tag", "list_activities"] as const) {
      const r = await runCli(callArgs(name), { env: credentials });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expectNothingRaw(r.stdout);
      expect(JSON.parse(r.stdout)).toEqual(hostileResponse(name));
    }
  });

  it("an API error with a hostile message, details and field violations is one inert line", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 400, {
        code: 3,
        message: HOSTILE,
        turnkeyErrorCode: HOSTILE,
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [{ field: HOSTILE, description: `${HOSTILE} too` }],
          },
        ],
      }),
    );
    try {
      for (const name of ["whoami", "create_user_tag"]) {
        const r = await runCli(callArgs(name, s.url), { env: credentials });
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toMatch(/^tvcwatch: \w+: INVALID_ARGUMENT \(HTTP 400\): x\\x1b\]0;pwned/);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expectNothingRaw(r.stderr);
      }
    } finally {
      await s.close();
    }
  });
});
