/**
 * Key material is never echoed in a message, whatever setting it was put in by mistake. A secret
 * is recognised by what it is, never by the shape of its text: the configured API private key's
 * value, as it was read (an environment variable, the config file, a tkcli key file), is
 * registered here once read, and every line the stderr writer prints has each registered value
 * replaced. Public keys, addresses, fingerprints, hashes and signatures are shown whole: they are
 * what a person compares before a vote (a 130-character target public key among them).
 */

/** Shorter values are no key (a P-256 private key is 64 hex characters): never registered. */
const MIN_SECRET = 16;

/** What a registered value is replaced by. */
export const MASKED_KEY = "[the API private key, not shown]";

/** The values known to be secret, matched whatever their case (hex is either). */
export class SecretValues {
  private readonly values = new Set<string>();

  /** Registers a secret value (tkcli's `:p256` suffix and surrounding space are not part of it). */
  add(value: string | undefined): void {
    if (value === undefined) return;
    const key = asciiLower(value.trim().replace(/:[a-z0-9]+$/i, ""));
    if (key.length >= MIN_SECRET) this.values.add(key);
  }

  /** `text` with every occurrence of a registered value replaced by MASKED_KEY. */
  mask(text: string): string {
    let out = text;
    for (const secret of this.values) {
      // ASCII case folding keeps every index: what is found in `folded` is cut out of `out`.
      const folded = asciiLower(out);
      let at = folded.indexOf(secret);
      if (at < 0) continue;
      let masked = "";
      let from = 0;
      while (at >= 0) {
        masked += `${out.slice(from, at)}${MASKED_KEY}`;
        from = at + secret.length;
        at = folded.indexOf(secret, from);
      }
      out = masked + out.slice(from);
    }
    return out;
  }
}

/** A-Z lowered, nothing else changed (so the length and every index stay). */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** The process's secrets: the configured API private key, registered as configuration reads it. */
export const configuredSecrets = new SecretValues();

export function maskKeyMaterial(
  message: string,
  secrets: SecretValues = configuredSecrets,
): string {
  return secrets.mask(message);
}

/** The same message with key material masked, as a new Error (the stack is not needed). */
export function withoutKeyMaterial(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  return new Error(maskKeyMaterial(message));
}
