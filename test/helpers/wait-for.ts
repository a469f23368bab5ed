/**
 * Waiting for what a test needs instead of sleeping for a guessed while: `waitFor` checks the
 * condition every `everyMs` and resolves as soon as it holds; past `timeoutMs` it rejects naming
 * what it waited for (and what `detail` says of the state then).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  options: { timeoutMs?: number; everyMs?: number; detail?: () => string } = {},
): Promise<void> {
  const { timeoutMs = 20_000, everyMs = 50 } = options;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (performance.now() > deadline) {
      const detail = options.detail ? `: ${options.detail()}` : "";
      throw new Error(`waited ${timeoutMs} ms for ${what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
