/**
 * The API key files Turnkey's Go CLI (tkcli) writes: in `$XDG_CONFIG_HOME/turnkey/keys/` (else
 * `~/.config/turnkey/keys/`), `NAME.public` (compressed P-256 key, hex, 0644), `NAME.private`
 * (`<hex>` or `<hex>:<curve>`, 0600) and `NAME.meta` (JSON).
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ApiKeyPair } from "../api/stamp.js";
import { STAMP_SCHEME } from "../api/stamp.js";
import { assertRegularFile, readTextFile } from "./named-file.js";

export function defaultConfigHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0
    ? env.XDG_CONFIG_HOME
    : join(homedir(), ".config");
}

export function defaultKeysFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultConfigHome(env), "turnkey", "keys");
}

/** Throws when a file holding a secret can be read by group or others, as ssh refuses such keys. */
export function assertPrivateFileMode(path: string, what: string): void {
  assertRegularFile(path, what);
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new Error(
      `${what} ${path} is readable by others (mode ${mode.toString(8).padStart(4, "0")}); run: chmod 600 ${path}`,
    );
  }
}

const HEX = /^[0-9a-fA-F]+$/;

export function parsePrivateKeyText(text: string, path: string): string {
  const trimmed = text.trim();
  const [hex, curve, ...rest] = trimmed.split(":");
  if (rest.length > 0 || !hex) throw new Error(`${path}: expected <hex> or <hex>:p256`);
  if (curve !== undefined && curve !== "p256") {
    throw new Error(
      `${path}: the key is on curve ${curve}; tvcwatch stamps with P-256 API keys only (create one with: tvcwatch keys generate)`,
    );
  }
  if (!HEX.test(hex) || hex.length !== 64)
    throw new Error(`${path}: the private key must be 64 hex characters`);
  return hex.toLowerCase();
}

export function readKeyFiles(folder: string, name: string): ApiKeyPair {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith(".")) {
    throw new Error(
      `key name ${JSON.stringify(name)} may use only letters, digits, dot, dash and underscore`,
    );
  }
  assertFolder(folder);
  const privatePath = join(folder, `${name}.private`);
  const publicPath = join(folder, `${name}.public`);
  if (!existsSync(privatePath)) throw new Error(`no key file ${privatePath}`);
  assertPrivateFileMode(privatePath, "private key file");
  const privateKey = parsePrivateKeyText(
    readTextFile(privatePath, "private key file"),
    privatePath,
  );
  if (!existsSync(publicPath))
    throw new Error(`no public key file ${publicPath} beside ${privatePath}`);
  const publicKey = readTextFile(publicPath, "public key file").trim().toLowerCase();
  if (!HEX.test(publicKey) || publicKey.length !== 66) {
    throw new Error(`${publicPath}: expected a compressed P-256 public key (66 hex characters)`);
  }
  return { publicKey, privateKey };
}

/** Throws one line when a keys folder that exists is not a directory. */
export function assertFolder(folder: string): void {
  if (existsSync(folder) && !statSync(folder).isDirectory()) {
    throw new Error(
      `keys folder ${folder} is a file, not a folder (--keys-folder takes the folder that holds NAME.private and NAME.public)`,
    );
  }
}

/** Writes a key pair in the tkcli layout; never overwrites. Returns the paths written. */
export function writeKeyFiles(
  folder: string,
  name: string,
  pair: ApiKeyPair,
): { privatePath: string; publicPath: string } {
  const privatePath = join(folder, `${name}.private`);
  const publicPath = join(folder, `${name}.public`);
  const metaPath = join(folder, `${name}.meta`);
  for (const p of [privatePath, publicPath, metaPath]) {
    if (existsSync(p))
      throw new Error(`${p} already exists; choose another --name (keys are never overwritten)`);
  }
  // "wx": fail if the file appeared in between, rather than overwrite it.
  const flag = "wx";
  writeFileSync(privatePath, `${pair.privateKey}:p256\n`, { mode: 0o600, flag });
  writeFileSync(publicPath, `${pair.publicKey}\n`, { mode: 0o644, flag });
  const meta = {
    name,
    organizations: [] as string[],
    public_key: pair.publicKey,
    scheme: STAMP_SCHEME,
  };
  writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o644, flag });
  return { privatePath, publicPath };
}
