/**
 * A function's last result, computed again only when one of its inputs changed (compared as
 * React compares a hook's dependencies, with Object.is): the dashboard's views are rebuilt from
 * the store's version, the UI state and the size, never because something else moved.
 */
export function memoized<A extends readonly unknown[], R>(compute: (...args: A) => R) {
  let last: { args: A; value: R } | undefined;
  return (...args: A): R => {
    if (last?.args.every((a, i) => Object.is(a, args[i]))) return last.value;
    const value = compute(...args);
    last = { args, value };
    return value;
  };
}
