/**
 * What a key press or an answer started, done: a component test's input is handled, React
 * commits and Ink writes the frame within a few turns of the event loop (a resolved promise, a
 * store's listener). `settle` lets the loop turn until the frames written stop changing (three
 * turns in a row the same), or at most `maxTurns`; without frames to watch, it lets `maxTurns`
 * turns go by. What takes real time (a server's answer, a follower's poll) is waited for with
 * a condition, never with a longer settle.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function settle(
  frames?: { readonly length: number; at(index: number): string | undefined },
  maxTurns = 40,
): Promise<void> {
  if (!frames) {
    for (let i = 0; i < Math.min(maxTurns, 10); i++) await turn();
    return;
  }
  let same = 0;
  let last = frames.at(-1);
  let count = frames.length;
  for (let i = 0; i < maxTurns && same < 3; i++) {
    await turn();
    const now = frames.at(-1);
    if (frames.length === count && now === last) same += 1;
    else same = 0;
    last = now;
    count = frames.length;
  }
}
