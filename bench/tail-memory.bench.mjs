// Memory of a long follow, in its own process so nothing else colours the RSS: 3 replicas at
// 2,000 lines/s each for 10 simulated minutes into the default 100,000-line buffer. RSS and heap
// should stay flat once the buffer is full.
import { LogFollower } from "../dist/tail/follower.js";
import { LogStore } from "../dist/tail/log-store.js";

{
  const store = new LogStore();
  let mono = 0;
  let seq = 0;
  const clock = { now: () => 1_795_000_000_000 + mono, monotonic: () => mono };
  const follower = new LogFollower({
    clock,
    fetchLogs: async () => {
      mono += 2000;
      const list = [];
      // 2 s of 3 x 2,000 lines/s, plus the 5 s overlap re-sent
      const from = Math.max(0, seq - 30_000);
      for (let i = from; i < seq + 12_000; i++) {
        const ms = 1_795_000_000_000 + i / 6;
        const seconds = Math.floor(ms / 1000);
        list.push({
          line: {
            content: `line ${i} ${"x".repeat(120)}`,
            ts: {
              seconds: String(seconds),
              nanos: String(Math.floor((ms - seconds * 1000) * 1e6)),
            },
          },
          replicaLabel: `replica ${(i % 3) + 1}/3`,
        });
      }
      seq += 12_000;
      return {
        data: { entries: list },
        meta: {
          status: 200,
          serverDate: 1_795_000_000_000 + seq / 6,
          sentAtWall: 0,
          receivedAtWall: 0,
          sentAtMonotonic: mono,
          receivedAtMonotonic: mono,
          attempts: 1,
        },
      };
    },
  });
  follower.onEvents((events) => store.append(events));
  const samples = [];
  for (let poll = 0; poll < 300; poll++) {
    await follower.pollOnce();
    if (poll % 60 === 59) {
      global.gc?.();
      samples.push(process.memoryUsage());
    }
  }
  console.log(
    `memory, 10 min at 3 x 2,000 lines/s: buffer ${store.size().toLocaleString()} lines (cap ${store.maxLines.toLocaleString()}), de-dup memory ${follower.memorySize().toLocaleString()} ids; RSS every 2 min: ${samples.map((m) => `${Math.round(m.rss / 1e6)} MB`).join(", ")}; heap used: ${samples.map((m) => `${Math.round(m.heapUsed / 1e6)} MB`).join(", ")}`,
  );
}
