/**
 * Every duration flag has a range, refused by the flag parser in one line naming it (issue #10,
 * item 10): `tail -f --interval 30d` overflowed Node's timer to 1 ms; the dashboard took
 * `--interval 0`; a 400-digit `--since` passed the parser.
 */
import { describe, expect, it } from "vitest";
import { json, scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const credentials = {
  TURNKEY_API_PUBLIC_KEY: "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316",
  TURNKEY_API_PRIVATE_KEY: "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c",
  TURNKEY_ORGANIZATION_ID: "org-flags",
};

describe("duration flags out of range", () => {
  it.each([
    ["tail", "--interval", "30d", "250ms to 10m"],
    ["tail", "--interval", "100ms", "250ms to 10m"],
    ["tail", "--overlap", "1h", "0 to 5m"],
    ["tail", "--since", "8d", "1s to 7d"],
    ["tail", "--since", "0s", "1s to 7d"],
    ["tail", "--until", "8d", "0 to 7d"],
    ["watch", "--interval", "0", "250ms to 10m"],
    ["watch", "--since", "30d", "1s to 7d"],
    ["demo", "--since", "30d", "1s to 7d"],
  ])("%s %s %s is refused, naming the range", async (command, flag, shown, range) => {
    const value = shown === "400 nines" ? "9".repeat(400) : shown;
    // Against a port nothing listens on: nothing may be sent before the flags are checked.
    const r = await runCli(["--base-url", "http://127.0.0.1:9", command, flag, value], {
      env: credentials,
    });
    expect(r.code).toBe(2);
    const named = ["--since", "--until"].includes(flag) ? "time" : "duration";
    expect(r.stderr).toMatch(new RegExp(`^tvcwatch: error: option '${flag} <${named}>'`));
    expect(r.stderr).toContain(`expected a duration from ${range}`);
    // One short line: a pasted long value is quoted cut, not whole.
    expect(r.stderr.split("\n")[0]?.length).toBeLessThan(200);
    expect(r.stderr).not.toMatch(/TimeoutOverflowWarning|\n\s+at /);
  });

  it.each([
    ["watch", "--since", "90", "90 what? e.g. 90s or 90m"],
    ["demo", "--since", "90", "90 what? e.g. 90s or 90m"],
    ["watch", "--since", "soon", '"soon" is not a time'],
  ])("%s %s %s is refused naming what to type", async (command, flag, value, said) => {
    const r = await runCli(["--base-url", "http://127.0.0.1:9", command, flag, value], {
      env: credentials,
    });
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toContain(said);
  });

  it.each(["watch", "demo"])(
    "%s --until is refused in one line: the dashboard follows",
    async (command) => {
      const r = await runCli(["--base-url", "http://127.0.0.1:9", command, "--until", "5m"], {
        env: credentials,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "tvcwatch: --until 5m: the dashboard follows new lines; read a range with tail --since … --until …, or open FILE --until …\n",
      );
    },
  );

  it("accepts the bounds themselves", async () => {
    const asked: string[] = [];
    const server = await scriptedServer((req, res) => {
      asked.push(String((JSON.parse(req.body) as { sinceSeconds?: string }).sinceSeconds));
      json(res, 200, { entries: [] }, { date: new Date().toUTCString() });
    });
    try {
      for (const args of [
        ["--interval", "250ms", "--overlap", "0", "--since", "7d"],
        ["--interval", "10m", "--overlap", "5m", "--since", "1s"],
      ]) {
        const r = await runCli(["--base-url", server.url, "tail", "--deployment", "d", ...args], {
          env: credentials,
        });
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
      }
    } finally {
      await server.close();
    }
    expect(asked).toEqual(["604800", "1"]);
  });
});
