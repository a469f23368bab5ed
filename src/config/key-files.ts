/**
 * The API key files Turnkey's Go CLI (tkcli) writes: in `$XDG_CONFIG_HOME/turnkey/keys/` (else
 * `~/.config/turnkey/keys/`), `NAME.public` (compressed P-256 key, hex, 0644), `NAME.private`
 * (`<hex>` or `<hex>:<curve>`, 0600) and `NAME.meta` (JSON).
 */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ApiKeyPair } from "../api/stamp.js";
import { STAMP_SCHEME } from "../api/stamp.js";
import { configuredSecrets } from "../text/key-material.js";
import { writeNewFile } from "./atomic-file.js";
import {
  entryExists,
  fileKind,
  type NamedFile,
  NamedFileError,
  READ_LIMITS,
  readNamedFile,
} from "./named-file.js";

export function defaultConfigHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0
    ? env.XDG_CONFIG_HOME
    : join(homedir(), ".config");
}

export function defaultKeysFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultConfigHome(env), "turnkey", "keys");
}

/** Whether group or others may read or write a file (its permission bits). */
export function isOpenToOthers(mode: number): boolean {
  return (mode & 0o077) !== 0;
}

/**
 * Throws when a file holding a secret can be read by group or others, as ssh refuses such keys.
 * `mode` is the one the file was read with (NamedFile.mode): checked on what was read.
 */
export function assertPrivateMode(path: string, what: string, mode: number): void {
  if (isOpenToOthers(mode)) {
    throw new Error(
      `${what} ${path} is readable by others (mode ${(mode & 0o777).toString(8).padStart(4, "0")}); run: chmod 600 ${path}`,
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

/** One key file, read as every named file is; `missing` is the line said when it does not exist. */
function readKeyFile(path: string, what: string, missing: string): NamedFile {
  try {
    return readNamedFile(path, what, READ_LIMITS.key);
  } catch (err) {
    if (err instanceof NamedFileError && err.code === "ENOENT") throw new Error(missing);
    throw err;
  }
}

/**
 * The pair NAME.private and NAME.public hold. A private key file readable by others is refused
 * unless `refuseOpenMode` is false (doctor reports the mode on a line of its own).
 */
export function readKeyFiles(
  folder: string,
  name: string,
  options: { refuseOpenMode?: boolean } = {},
): ApiKeyPair {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith(".")) {
    throw new Error(
      `key name ${JSON.stringify(name)} may use only letters, digits, dot, dash and underscore`,
    );
  }
  assertFolder(folder);
  const privatePath = join(folder, `${name}.private`);
  const publicPath = join(folder, `${name}.public`);
  const privateFile = readKeyFile(privatePath, "private key file", `no key file ${privatePath}`);
  if (options.refuseOpenMode !== false)
    assertPrivateMode(privatePath, "private key file", privateFile.mode);
  // Secret by what it is (whatever its text), before anything is said about it.
  configuredSecrets.add(privateFile.text);
  const privateKey = parsePrivateKeyText(privateFile.text, privatePath);
  const publicKey = readKeyFile(
    publicPath,
    "public key file",
    `no public key file ${publicPath} beside ${privatePath}`,
  )
    .text.trim()
    .toLowerCase();
  if (!HEX.test(publicKey) || publicKey.length !== 66) {
    throw new Error(`${publicPath}: expected a compressed P-256 public key (66 hex characters)`);
  }
  return { publicKey, privateKey };
}

/** Throws one line when a keys folder that exists is not a directory. */
export function assertFolder(folder: string): void {
  if (!existsSync(folder)) return;
  const stat = statSync(folder);
  if (stat.isDirectory()) return;
  const kind = stat.isFile() ? "a file" : fileKind(stat);
  throw new Error(
    `keys folder ${folder} is ${kind}, not a folder (--keys-folder takes the folder that holds NAME.private and NAME.public)`,
  );
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
    if (entryExists(p))
      throw new Error(`${p} already exists; choose another --name (keys are never overwritten)`);
  }
  // Created exclusively (atomic-file.ts): a file or symlink that appeared in between is not
  // overwritten or followed.
  writeNewFile(privatePath, `${pair.privateKey}:p256\n`, { mode: 0o600 });
  writeNewFile(publicPath, `${pair.publicKey}\n`, { mode: 0o644 });
  const meta = {
    name,
    organizations: [] as string[],
    public_key: pair.publicKey,
    scheme: STAMP_SCHEME,
  };
  writeNewFile(metaPath, `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o644 });
  return { privatePath, publicPath };
}
