/**
 * Key material is never echoed in an error, whatever setting it was put in by mistake: a
 * P-256 private key is 64 hex characters (tkcli adds `:p256`), so any run of 32 or more hex
 * characters in a message about the configuration is replaced by its length. A public key is
 * masked too (it is long and says little in a message; its first characters are shown where
 * they help). An activity's fingerprint (`sha256:` and a digest) is no key and is shown whole:
 * it is what a person copies to approve the activity.
 */
const LONG_HEX = /(sha256:)?(?:0x)?[0-9a-fA-F]{32,}/g;

export function maskKeyMaterial(message: string): string {
  return message.replace(LONG_HEX, (run, digest?: string) =>
    digest ? run : `[${run.length} hex characters, not shown]`,
  );
}

/** The same message with key material masked, as a new Error (the stack is not needed). */
export function withoutKeyMaterial(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  return new Error(maskKeyMaterial(message));
}
