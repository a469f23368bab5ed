/**
 * Why @solana/kit refused a value, in words. Kit's production build (the bundled program is built
 * with NODE_ENV=production) says only `Solana error #5663021; Decode this error by running npx
 * @solana/errors decode -- …`, which a person would have to leave the tool to read. The code's own
 * name among the error codes of @solana/errors (which kit re-exports) says what it is
 * (SOLANA_ERROR__TRANSACTION__VERSION_NUMBER_NOT_SUPPORTED: `transaction version number not
 * supported`) and the error's context its values (`unsupportedVersion 127`), whatever the build.
 */
import * as solanaErrors from "@solana/errors";

const PREFIX = "SOLANA_ERROR__";
/** The most context values said, and characters of each. */
const MAX_CONTEXT = 4;
const MAX_VALUE = 64;

let codeNames: Map<number, string> | undefined;

/** Kit's error codes by number, read once from its exports. */
function nameOf(code: number): string | undefined {
  if (!codeNames) {
    codeNames = new Map();
    for (const [name, value] of Object.entries(solanaErrors)) {
      if (name.startsWith(PREFIX) && typeof value === "number" && !codeNames.has(value))
        codeNames.set(value, name);
    }
  }
  return codeNames.get(code);
}

function valueText(value: unknown): string {
  const text =
    typeof value === "string" || typeof value === "number" || typeof value === "bigint"
      ? String(value)
      : value instanceof Uint8Array
        ? `${value.length} bytes`
        : (JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? String(v) : v)) ?? "");
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

/**
 * A kit error in words (`transaction version number not supported (unsupportedVersion 127)`);
 * undefined for another error.
 */
export function solanaErrorText(err: unknown): string | undefined {
  if (!solanaErrors.isSolanaError(err)) return undefined;
  const code = err.context.__code;
  const name = nameOf(code);
  const words = name
    ? name.slice(PREFIX.length).replace(/_+/g, " ").trim().toLowerCase()
    : `Solana error ${code}`;
  const context = Object.entries(err.context as Record<string, unknown>)
    .filter(([key]) => key !== "__code")
    .slice(0, MAX_CONTEXT)
    .map(([key, value]) => `${key} ${valueText(value)}`);
  return context.length > 0 ? `${words} (${context.join(", ")})` : words;
}
