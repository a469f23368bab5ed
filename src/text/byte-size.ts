/**
 * Sizes as people type and read them: `64MiB`, `512KiB`, `1GiB`, `10MB` (decimal), `4096`
 * (bytes).
 */
const UNIT_BYTES: Readonly<Record<string, number>> = {
  b: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
};

/** Bytes of a size like `64MiB`; throws an Error with a one-line message otherwise. */
export function parseByteSize(text: string): number {
  const m = /^(\d{1,12}(?:\.\d{1,6})?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = UNIT_BYTES[(m?.[2] || "b").toLowerCase()];
  if (!m || unit === undefined) {
    throw new Error(
      `${JSON.stringify(text)} is not a size (examples: 64MiB, 512KiB, 1GiB, 4096 for bytes)`,
    );
  }
  return Math.round(Number(m[1]) * unit);
}

/** A size in binary units, as short as it stays exact to a tenth: 256 MiB, 1.5 KiB, 900 B. */
export function formatByteSize(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} B`;
}
