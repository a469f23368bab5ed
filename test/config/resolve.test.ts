import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { checkServiceUrl, isLoopbackHost } from "../../src/api/url-policy.js";
import { readKeyFiles, writeKeyFiles } from "../../src/config/key-files.js";
import { resolveConfig } from "../../src/config/resolve.js";

const a = generateKeyPair();
const b = generateKeyPair();
const fresh = () => mkdtempSync(join(tmpdir(), "tvcwatch-config-"));

function writeConfig(dir: string, body: unknown, mode = 0o600): string {
  const path = join(dir, "config.json");
  writeFileSync(path, JSON.stringify(body), { mode });
  chmodSync(path, mode);
  return path;
}

describe("resolveConfig", () => {
  const home = fresh();
  const env = { XDG_CONFIG_HOME: home } as NodeJS.ProcessEnv;

  it("takes flags over environment over config file", async () => {
    const dir = fresh();
    const config = writeConfig(dir, {
      organizationId: "org-file",
      baseUrl: "https://file.example",
      apiPublicKey: a.publicKey,
      apiPrivateKey: a.privateKey,
      deploymentId: "dep-file",
      emails: ["x@example.com"],
    });
    const fromFile = await resolveConfig({ config }, env);
    expect(fromFile).toMatchObject({
      organizationId: "org-file",
      baseUrl: "https://file.example",
      deploymentId: "dep-file",
    });
    expect(fromFile.apiKey.publicKey).toBe(a.publicKey);
    expect(fromFile.emails).toEqual(["x@example.com"]);

    const withEnv = await resolveConfig(
      { config },
      {
        ...env,
        TURNKEY_ORGANIZATION_ID: "org-env",
        TURNKEY_BASE_URL: "https://env.example",
        TURNKEY_API_PUBLIC_KEY: b.publicKey,
        TURNKEY_API_PRIVATE_KEY: b.privateKey,
      },
    );
    expect(withEnv).toMatchObject({ organizationId: "org-env", baseUrl: "https://env.example" });
    expect(withEnv.apiKey.publicKey).toBe(b.publicKey);

    const withFlags = await resolveConfig(
      {
        config,
        organization: "org-flag",
        baseUrl: "https://flag.example",
        deployment: "dep-flag",
        email: ["y@example.com"],
      },
      { ...env, TURNKEY_ORGANIZATION_ID: "org-env" },
    );
    expect(withFlags).toMatchObject({
      organizationId: "org-flag",
      baseUrl: "https://flag.example",
      deploymentId: "dep-flag",
    });
    expect(withFlags.emails).toEqual(["y@example.com"]);
  });

  it("reads TVCWATCH_CONFIG and the default path only when it exists", async () => {
    const dir = fresh();
    const config = writeConfig(dir, {
      organizationId: "o",
      apiPublicKey: a.publicKey,
      apiPrivateKey: a.privateKey,
    });
    expect((await resolveConfig({}, { ...env, TVCWATCH_CONFIG: config })).organizationId).toBe("o");
    const xdg = fresh();
    mkdirSync(join(xdg, "tvcwatch"));
    writeConfig(join(xdg, "tvcwatch"), {
      organizationId: "o2",
      apiPublicKey: a.publicKey,
      apiPrivateKey: a.privateKey,
    });
    expect((await resolveConfig({}, { XDG_CONFIG_HOME: xdg })).organizationId).toBe("o2");
  });

  it("refuses a config holding a private key that others can read", async () => {
    const config = writeConfig(
      fresh(),
      { organizationId: "o", apiPublicKey: a.publicKey, apiPrivateKey: a.privateKey },
      0o644,
    );
    await expect(resolveConfig({ config }, env)).rejects.toThrow(/readable by others.*chmod 600/);
  });

  it("names the file and field of a bad config", async () => {
    const dir = fresh();
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "{ nope", { mode: 0o600 });
    await expect(resolveConfig({ config: bad }, env)).rejects.toThrow(
      /bad\.json is not valid JSON/,
    );
    const wrong = writeConfig(dir, { organizationId: "o", emails: "a@b" });
    await expect(resolveConfig({ config: wrong }, env)).rejects.toThrow(/config\.json: emails: /);
    await expect(resolveConfig({ config: join(dir, "missing.json") }, env)).rejects.toThrow(
      /does not exist/,
    );
    const typo = writeConfig(dir, { organisationId: "o" });
    await expect(resolveConfig({ config: typo }, env)).rejects.toThrow(
      /config\.json: unknown key "organisationId" \(known keys: .*organizationId/,
    );
    const list = writeConfig(dir, []);
    await expect(resolveConfig({ config: list }, env)).rejects.toThrow(
      /config\.json: \(top level\): .*object/,
    );
  });

  it("reads tkcli key files and refuses readable private keys and other curves", async () => {
    const folder = fresh();
    writeKeyFiles(folder, "ops", a);
    expect(statSync(join(folder, "ops.private")).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, "ops.public")).mode & 0o777).toBe(0o644);
    expect(JSON.parse(readFileSync(join(folder, "ops.meta"), "utf8")).public_key).toBe(a.publicKey);
    expect(readKeyFiles(folder, "ops")).toEqual(a);
    expect(
      (await resolveConfig({ organization: "o", keysFolder: folder, keyName: "ops" }, env)).apiKey,
    ).toEqual(a);
    expect(() => writeKeyFiles(folder, "ops", b)).toThrow(/already exists/);

    writeFileSync(join(folder, "plain.private"), `${a.privateKey}\n`, { mode: 0o600 });
    writeFileSync(join(folder, "plain.public"), `${a.publicKey}\n`);
    expect(readKeyFiles(folder, "plain")).toEqual(a);

    chmodSync(join(folder, "plain.private"), 0o640);
    expect(() => readKeyFiles(folder, "plain")).toThrow(/readable by others/);

    writeFileSync(join(folder, "ed.private"), `${a.privateKey}:ed25519`, { mode: 0o600 });
    writeFileSync(join(folder, "ed.public"), a.publicKey);
    expect(() => readKeyFiles(folder, "ed")).toThrow(/curve ed25519/);
  });

  it("finds the default key in $XDG_CONFIG_HOME/turnkey/keys", async () => {
    const xdg = fresh();
    mkdirSync(join(xdg, "turnkey", "keys"), { recursive: true });
    writeKeyFiles(join(xdg, "turnkey", "keys"), "default", b);
    expect((await resolveConfig({ organization: "o" }, { XDG_CONFIG_HOME: xdg })).apiKey).toEqual(
      b,
    );
  });

  it("refuses a mismatched key pair before anything is sent", async () => {
    await expect(
      resolveConfig(
        { organization: "o" },
        { ...env, TURNKEY_API_PUBLIC_KEY: b.publicKey, TURNKEY_API_PRIVATE_KEY: a.privateKey },
      ),
    ).rejects.toThrow(/does not belong/);
    await expect(
      resolveConfig({ organization: "o" }, { ...env, TURNKEY_API_PUBLIC_KEY: b.publicKey }),
    ).rejects.toThrow(/set both TURNKEY_API_PUBLIC_KEY and TURNKEY_API_PRIVATE_KEY/);
  });

  it("names every way to provide missing credentials", async () => {
    await expect(resolveConfig({}, env)).rejects.toThrow(
      /--organization.*TURNKEY_ORGANIZATION_ID.*config file/,
    );
    const err = await resolveConfig({ organization: "o" }, env).then(
      () => "",
      (e: Error) => e.message,
    );
    for (const way of [
      "TURNKEY_API_PUBLIC_KEY",
      "TURNKEY_API_PRIVATE_KEY",
      "TVC_ORG_ID, TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE",
      "--config",
      "TVCWATCH_CONFIG",
      "--key-name",
      "keys generate",
    ]) {
      expect(err).toContain(way);
    }
  });

  it("reads Turnkey's tvc CLI names after the TURNKEY_* ones, each setting on its own", async () => {
    const tvc = {
      ...env,
      TVC_ORG_ID: "org-tvc",
      TVC_API_KEY_PUBLIC: b.publicKey.toUpperCase(),
      TVC_API_KEY_PRIVATE: b.privateKey,
      TVC_API_BASE_URL: "https://tvc.example",
    };
    const fromTvc = await resolveConfig({}, tvc);
    expect(fromTvc).toMatchObject({ organizationId: "org-tvc", baseUrl: "https://tvc.example" });
    expect(fromTvc.apiKey).toEqual(b);
    // TVC_API_BASE_URL is optional, as in tvc: the default then.
    const { TVC_API_BASE_URL: _url, ...noUrl } = tvc;
    expect((await resolveConfig({}, noUrl)).baseUrl).toBe("https://api.turnkey.com");
    // Each TURNKEY_* name comes first; the TVC_* ones fill what it leaves.
    const both = await resolveConfig(
      {},
      {
        ...tvc,
        TURNKEY_ORGANIZATION_ID: "org-turnkey",
        TURNKEY_API_PUBLIC_KEY: a.publicKey,
        TURNKEY_API_PRIVATE_KEY: a.privateKey,
      },
    );
    expect(both).toMatchObject({ organizationId: "org-turnkey", baseUrl: "https://tvc.example" });
    expect(both.apiKey).toEqual(a);
    // Flags before both; the environment before the config file.
    const config = writeConfig(fresh(), {
      organizationId: "org-file",
      baseUrl: "https://file.example",
      apiPublicKey: a.publicKey,
      apiPrivateKey: a.privateKey,
    });
    const withFile = await resolveConfig({ config }, tvc);
    expect(withFile).toMatchObject({ organizationId: "org-tvc", baseUrl: "https://tvc.example" });
    expect(withFile.apiKey).toEqual(b);
    expect(
      await resolveConfig(
        { config, organization: "org-flag", baseUrl: "https://flag.example" },
        tvc,
      ),
    ).toMatchObject({ organizationId: "org-flag", baseUrl: "https://flag.example" });
  });

  it("refuses some of the three TVC_* credentials without the others, naming those missing", async () => {
    const set = {
      TVC_ORG_ID: "org-tvc",
      TVC_API_KEY_PUBLIC: b.publicKey,
      TVC_API_KEY_PRIVATE: b.privateKey,
    };
    const without = async (...names: (keyof typeof set)[]) => {
      const partial: NodeJS.ProcessEnv = { ...env, ...set };
      for (const n of names) partial[n] = n === "TVC_API_KEY_PUBLIC" ? "" : undefined;
      return resolveConfig({}, partial).then(
        () => "resolved",
        (e: Error) => e.message,
      );
    };
    const fix =
      ": set all three of TVC_ORG_ID, TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE, or none (as Turnkey's tvc CLI requires)";
    expect(await without("TVC_API_KEY_PRIVATE")).toBe(
      `TVC_API_KEY_PRIVATE is not set while TVC_ORG_ID and TVC_API_KEY_PUBLIC are${fix}`,
    );
    // An empty variable counts as unset.
    expect(await without("TVC_API_KEY_PUBLIC")).toBe(
      `TVC_API_KEY_PUBLIC is not set while TVC_ORG_ID and TVC_API_KEY_PRIVATE are${fix}`,
    );
    expect(await without("TVC_API_KEY_PUBLIC", "TVC_API_KEY_PRIVATE")).toBe(
      `TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE are not set while TVC_ORG_ID is${fix}`,
    );
    // Never the key itself in the message.
    expect(await without("TVC_ORG_ID")).not.toContain(b.privateKey);
    // A partial set is refused even where flags or TURNKEY_* would have been used, as tvc does.
    const partial = { ...env, TVC_ORG_ID: "org-tvc" };
    await expect(
      resolveConfig(
        { organization: "o" },
        { ...partial, TURNKEY_API_PUBLIC_KEY: a.publicKey, TURNKEY_API_PRIVATE_KEY: a.privateKey },
      ),
    ).rejects.toThrow(
      /^TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE are not set while TVC_ORG_ID is/,
    );
    // TVC_API_BASE_URL alone is no credential: nothing to refuse there.
    await expect(
      resolveConfig({}, { ...env, TVC_API_BASE_URL: "https://tvc.example" }),
    ).rejects.toThrow(/^no organization: .*TVC_ORG_ID/);
    // The TURNKEY_* pair keeps its own rule, named in its own words.
    await expect(
      resolveConfig({}, { ...env, ...set, TURNKEY_API_PRIVATE_KEY: a.privateKey }),
    ).rejects.toThrow(
      /^set both TURNKEY_API_PUBLIC_KEY and TURNKEY_API_PRIVATE_KEY \(only the private key is set\)$/,
    );
  });

  it("refuses plain http except to loopback", async () => {
    const ok = {
      TURNKEY_API_PUBLIC_KEY: a.publicKey,
      TURNKEY_API_PRIVATE_KEY: a.privateKey,
      ...env,
    };
    expect(
      (await resolveConfig({ organization: "o", baseUrl: "http://127.0.0.1:8787" }, ok)).baseUrl,
    ).toBe("http://127.0.0.1:8787");
    await expect(
      resolveConfig({ organization: "o", baseUrl: "http://api.turnkey.com" }, ok),
    ).rejects.toThrow(/plain http/);
    await expect(
      resolveConfig({ organization: "o", authProxyUrl: "http://10.0.0.1" }, ok),
    ).rejects.toThrow(/auth-proxy URL/);
    for (const host of ["localhost", "127.0.0.1", "127.9.8.7", "[::1]"])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["10.0.0.1", "example.com", "128.0.0.1", "::2"])
      expect(isLoopbackHost(host)).toBe(false);
    expect(() => checkServiceUrl("ftp://x", "base URL")).toThrow(/https/);
    expect(() => checkServiceUrl("not a url", "base URL")).toThrow(/not a URL/);
  });
});
