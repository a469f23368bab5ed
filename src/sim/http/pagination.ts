import { invalidArgument } from "./sim-error.js";

export interface PaginationInput {
  limit?: string | undefined;
  before?: string | undefined;
  after?: string | undefined;
}

/**
 * Turnkey-style cursor pagination over a list sorted newest first: `after: id` gives the items
 * after (older than) that one, `before: id` those before (newer than) it; `limit` "1".."100",
 * default 10.
 */
export function paginate<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  options: PaginationInput = {},
): T[] {
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw invalidArgument(
      `paginationOptions.limit must be between 1 and 100, got ${options.limit}`,
      "paginationOptions.limit",
    );
  }
  let start = 0;
  let end = items.length;
  if (options.after !== undefined) {
    const at = items.findIndex((i) => idOf(i) === options.after);
    if (at < 0)
      throw invalidArgument(
        `unknown pagination cursor ${options.after}`,
        "paginationOptions.after",
      );
    start = at + 1;
  }
  if (options.before !== undefined) {
    const at = items.findIndex((i) => idOf(i) === options.before);
    if (at < 0)
      throw invalidArgument(
        `unknown pagination cursor ${options.before}`,
        "paginationOptions.before",
      );
    end = at;
    // The page nearest the cursor: the `limit` items just before it.
    if (options.after === undefined) start = Math.max(0, end - limit);
  }
  return items.slice(start, Math.min(end, start + limit));
}
