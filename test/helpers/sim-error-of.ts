import { SimError } from "../../src/sim/http/sim-error.js";

/** The SimError `f` throws; fails the test when it throws nothing or something else. */
export function simErrorOf(f: () => unknown): SimError {
  try {
    f();
  } catch (e) {
    if (e instanceof SimError) return e;
    throw e;
  }
  throw new Error("expected a SimError, nothing was thrown");
}
