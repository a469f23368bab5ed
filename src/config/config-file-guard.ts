/**
 * Whether parsed JSON is a valid config file, without zod: it accepts exactly what the schema in
 * ./config-file.ts accepts (a property test holds it to that), so that a command whose config
 * file is fine starts without loading zod; a file it refuses goes to the schema for the error.
 */
import type { ConfigFile } from "./config-file.js";

const TEXT_KEYS = [
  "baseUrl",
  "organizationId",
  "keyName",
  "deploymentId",
  "caip2",
  "authProxyUrl",
  "authProxyConfigId",
] as const;
const LIST_KEYS = ["emails", "solanaAddresses"] as const;
const PATTERNS: Record<string, RegExp> = {
  apiPublicKey: /^[0-9a-fA-F]{66}$/,
  apiPrivateKey: /^[0-9a-fA-F]{64}$/,
  signerPublicKey: /^04[0-9a-fA-F]{128}$/,
};
const KNOWN = new Set<string>([...TEXT_KEYS, ...LIST_KEYS, ...Object.keys(PATTERNS)]);

const isText = (v: unknown): boolean => typeof v === "string" && v.length > 0;

export function isConfigFile(json: unknown): json is ConfigFile {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const file = json as Record<string, unknown>;
  for (const key of Object.keys(file)) if (!KNOWN.has(key)) return false;
  for (const key of TEXT_KEYS) if (file[key] !== undefined && !isText(file[key])) return false;
  for (const key of LIST_KEYS) {
    const list = file[key];
    if (list !== undefined && !(Array.isArray(list) && list.every(isText))) return false;
  }
  for (const [key, pattern] of Object.entries(PATTERNS)) {
    const value = file[key];
    if (value !== undefined && !(typeof value === "string" && pattern.test(value))) return false;
  }
  return true;
}
