/**
 * Reads the API key pair from wherever the settings point, for doctor: a refused file mode is
 * reported on a line of its own, and the pair is still read so the checks after it can run.
 */
import { statSync } from "node:fs";
import type { ApiKeyPair } from "../../../api/stamp.js";
import { isOpenToOthers, readKeyFiles } from "../../../config/key-files.js";
import type { ApiKeySource } from "../../../config/setting-sources.js";
import type { Problem } from "./network-problem.js";

export interface KeyInspection {
  /** The pair the other commands would stamp with (possibly a mismatched one). */
  pair?: ApiKeyPair;
  /** The file holding the private key, when it is in a file. */
  privateKeyFile?: string;
  /** The environment variable holding the private key, when it is in one. */
  privateKeyVariable?: string;
  /** Why no pair could be read. */
  problem?: Problem;
}

/** The permission bits of a regular file (0o600), or undefined when it is none or cannot be read. */
export function fileMode(path: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.mode & 0o777 : undefined;
  } catch {
    return undefined;
  }
}

export function inspectApiKey(source: ApiKeySource): KeyInspection {
  switch (source.kind) {
    case "none":
      return {
        problem: {
          message: `no API key (looked in the environment, the config file and ${source.lookedFor})`,
          fix: `set TURNKEY_API_PUBLIC_KEY and TURNKEY_API_PRIVATE_KEY (or TVC_ORG_ID, TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE), put apiPublicKey and apiPrivateKey in the config file, or create key files with: tvcwatch keys generate --name ${source.name}`,
        },
      };
    case "env":
    case "config-file": {
      const where =
        source.kind === "env"
          ? { pub: source.names.publicKey, priv: source.names.privateKey }
          : { pub: `apiPublicKey in ${source.path}`, priv: `apiPrivateKey in ${source.path}` };
      if (!source.publicKey || !source.privateKey) {
        const missing = source.publicKey ? where.priv : where.pub;
        return {
          problem: {
            message: `only half of the key pair is set: ${missing} is missing`,
            fix: `set ${missing}`,
          },
        };
      }
      return {
        pair: { publicKey: source.publicKey, privateKey: source.privateKey },
        ...(source.kind === "config-file"
          ? { privateKeyFile: source.path }
          : { privateKeyVariable: source.names.privateKey }),
      };
    }
    case "key-files": {
      const privateKeyFile = source.privatePath;
      try {
        return { pair: readKeyFiles(source.folder, source.name), privateKeyFile };
      } catch (err) {
        const mode = fileMode(source.privatePath);
        if (mode !== undefined && isOpenToOthers(mode)) {
          // The mode is its own check; read the pair anyway so the rest can be checked.
          try {
            return {
              pair: readKeyFiles(source.folder, source.name, { refuseOpenMode: false }),
              privateKeyFile,
            };
          } catch (inner) {
            return {
              privateKeyFile,
              problem: { message: (inner as Error).message, fix: fixFor(source) },
            };
          }
        }
        return { problem: { message: (err as Error).message, fix: fixFor(source) } };
      }
    }
  }
}

function fixFor(source: Extract<ApiKeySource, { kind: "key-files" }>): string {
  return `check ${source.privatePath} and ${source.publicPath} (tkcli's layout), or create a pair with: tvcwatch keys generate --name ${source.name}`;
}
