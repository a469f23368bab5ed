/** Doctor's lines on the key itself: the private key file's mode, and whether the pair matches. */
import type { ApiKeyPair } from "../../../api/stamp.js";
import { assertKeyPair } from "../../../api/stamp.js";
import { isOpenToOthers } from "../../../config/key-files.js";
import type { ApiKeySource } from "../../../config/setting-sources.js";
import type { CheckResult } from "./check.js";
import { fail, pass, skip } from "./check.js";
import type { KeyInspection } from "./key-inspection.js";
import { fileMode } from "./key-inspection.js";

export function keyPairMatches(pair: ApiKeyPair): boolean {
  try {
    assertKeyPair(pair);
    return true;
  } catch {
    return false;
  }
}

function publicKeyHome(source: ApiKeySource): string {
  switch (source.kind) {
    case "key-files":
      return source.publicPath;
    case "env":
      return source.names.publicKey;
    case "config-file":
      return `apiPublicKey in config file ${source.path}`;
    case "none":
      return "the public key";
  }
}

export function keyFileModeCheck(key: KeyInspection): CheckResult {
  const title = "private key file";
  const path = key.privateKeyFile;
  if (path === undefined) {
    return key.pair
      ? skip(
          "key-file-mode",
          title,
          `the private key comes from ${key.privateKeyVariable ?? "the environment"}, not a file`,
        )
      : skip("key-file-mode", title, "no private key was found");
  }
  const mode = fileMode(path);
  if (mode === undefined) {
    return skip(
      "key-file-mode",
      title,
      `${path} is no regular file to check (the API key line says why)`,
    );
  }
  const octal = mode.toString(8).padStart(4, "0");
  return isOpenToOthers(mode)
    ? fail(
        "key-file-mode",
        title,
        `${path} is readable by others (mode ${octal}); every other command refuses it`,
        `chmod 600 ${path}`,
        { path, mode: octal },
      )
    : pass("key-file-mode", title, `${path} is mode ${octal} (only its owner can read it)`, {
        path,
        mode: octal,
      });
}

export interface KeyPairCheck {
  check: CheckResult;
  /** The pair to ask the API with: even a mismatched one, so the API says what it makes of it. */
  pair?: ApiKeyPair;
}

export function keyPairCheck(key: KeyInspection, source: ApiKeySource): KeyPairCheck {
  if (!key.pair) return { check: skip("key-pair", "key pair", "no key pair to check") };
  try {
    assertKeyPair(key.pair);
    return {
      pair: key.pair,
      check: pass("key-pair", "key pair", "the public key belongs to the private key"),
    };
  } catch (err) {
    return {
      pair: key.pair,
      check: fail(
        "key-pair",
        "key pair",
        (err as Error).message,
        `put the public key that belongs to the private key in ${publicKeyHome(source)}`,
      ),
    };
  }
}
