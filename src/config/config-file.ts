/**
 * The config file's schema, and the one-line error naming what is wrong with a file that fails
 * it. ./config-file-guard.ts accepts exactly what this schema accepts without loading zod; this
 * module is loaded to word the error (and by `doctor`).
 */
import { z } from "zod";
import { stringifyForTerminal } from "../text/terminal-json.js";

const hexKey = (len: number) =>
  z.string().regex(new RegExp(`^[0-9a-fA-F]{${len}}$`), `expected ${len} hex characters`);

export const configFileSchema = z.strictObject({
  baseUrl: z.string().min(1).optional(),
  organizationId: z.string().min(1).optional(),
  apiPublicKey: hexKey(66).optional(),
  apiPrivateKey: hexKey(64).optional(),
  keyName: z.string().min(1).optional(),
  deploymentId: z.string().min(1).optional(),
  emails: z.array(z.string().min(1)).optional(),
  solanaAddresses: z.array(z.string().min(1)).optional(),
  caip2: z.string().min(1).optional(),
  authProxyUrl: z.string().min(1).optional(),
  authProxyConfigId: z.string().min(1).optional(),
  /**
   * The enclave key that signs export bundles and session tokens, when it is not Turnkey's
   * production one (a simulator's): what @turnkey/crypto calls dangerouslyOverrideSignerPublicKey.
   */
  signerPublicKey: z
    .string()
    .regex(
      /^04[0-9a-fA-F]{128}$/,
      "must be an uncompressed P-256 public key (04 and 128 hex digits)",
    )
    .optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

/** The file's contents as the schema reads them; throws a one-line Error naming the field. */
export function checkConfigFile(path: string, json: unknown): ConfigFile {
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === "unrecognized_keys") {
      const known = Object.keys(configFileSchema.shape).join(", ");
      throw new Error(
        `config file ${path}: unknown key ${issue.keys.map((k) => stringifyForTerminal(k)).join(", ")} (known keys: ${known})`,
      );
    }
    const field = issue?.path.map(String).join(".") || "(top level)";
    throw new Error(`config file ${path}: ${field}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
