import { useEffect, useState } from "react";

/** Wall-clock time that re-renders every `everyMs`, for ages and "updated 3s ago". */
export function useNow(everyMs: number, now: () => number = Date.now): number {
  const [t, setT] = useState(now);
  useEffect(() => {
    const timer = setInterval(() => setT(now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, now]);
  return t;
}
