/**
 * Smart case, as in less, ripgrep and vim: a pattern written all in lower case matches either
 * case; one with an upper-case letter matches exactly. `--grep info` finds `"info"` and `INFO`;
 * `--grep INFO` finds only `INFO`. Upper-case letters in escapes (`\S`, `\W`, `\D`, `\B`,
 * `\p{Lu}`) are regex syntax, not letters to match, and do not count.
 */
export function smartCaseRegex(source: string): RegExp {
  const letters = source.replace(/\\[pPuxck]\{[^}]*\}|\\[pPuxck][0-9A-Fa-f]*|\\./g, "");
  return new RegExp(source, /\p{Lu}/u.test(letters) ? "" : "i");
}
