/**
 * A large file indexed in pieces (src/logs/saved/piece-index.ts) reads as one reader reads it:
 * the same lines, keys, flags (late lines too), streams and counts, whatever the pieces' edges
 * fall on (lines without a time at the start of a piece, a piece without any timed line). The
 * pieces run here on this thread, through the same functions the worker calls, and (from the
 * built modules, where the worker's module is) on a worker thread.
 */
import { closeSync, fstatSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatEvent, type StreamFormat } from "../../../src/logs/formats/stream-format.js";
import { type LogEvent, packNanos, timestampSortKey } from "../../../src/logs/model/log-line.js";
import { FileBytes } from "../../../src/logs/saved/byte-source.js";
import {
  claim,
  copiedIntoShared,
  HERE,
  type IndexedPiece,
  inShared,
  newClaims,
  newSharedIndex,
  type PieceRequest,
  type PieceRunner,
  type SharedIndex,
  THERE,
  takeBack,
  takeFront,
} from "../../../src/logs/saved/piece-protocol.js";
import { MAX_LINE_BYTES, SavedFile } from "../../../src/logs/saved/saved-file.js";
import { StreamTable } from "../../../src/logs/saved/stream-table.js";
import { freshBuild } from "../../helpers/fresh-build.js";
import { BURSTS } from "../corpus.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-pieces-"));
const fds: number[] = [];
afterAll(() => {
  for (const fd of fds) closeSync(fd);
});

const JSON_OUT: StreamFormat = { output: "json", timestamps: false, utc: true, colour: false };
const TEXT_UTC: StreamFormat = { output: "text", timestamps: true, utc: true, colour: false };

/**
 * About `count` events: a run without a time first, then lines of 5 replicas of 2 deployments
 * (a few late, a few without a time, now and then a gap), the corpus's contents and unicode.
 */
function eventsOf(
  count: number,
  untimed: readonly [number, number] = [0, 0],
  /** Lines from a third on a day older (two logs put together, the newer first). */
  olderHalf = false,
): LogEvent[] {
  const out: LogEvent[] = [];
  let ms = 1_795_000_000_000;
  const line = (i: number, timed: boolean, at: number): LogEvent => {
    const seconds = Math.floor(at / 1000);
    const nanos = (at % 1000) * 1e6 + (i % 1000);
    const burst = BURSTS[i % BURSTS.length] as readonly string[];
    return {
      kind: "line",
      replicaLabel: `replica ${(i % 5) + 1}/5`,
      ...(i % 7 === 0 ? { deploymentId: i % 2 === 0 ? "9463b1f2" : "0c7e55aa" } : {}),
      seconds: timed ? String(seconds) : undefined,
      nanos: timed ? packNanos(String(nanos)) : undefined,
      sortKey: timed ? timestampSortKey(seconds, nanos) : 0,
      content: `${burst[i % burst.length]} ${i % 11 === 0 ? "ünïcode ✓ " : ""}#${i}`,
      late: false,
    };
  };
  for (let i = 0; i < 40; i++) out.push(line(i, false, ms));
  for (let i = 40; i < count; i++) {
    ms += 3;
    if (i % 997 === 0) {
      out.push({ kind: "gap", from: ms - 1000, to: ms, reason: "no answer", sortKey: ms });
      continue;
    }
    // A long run without a time: a piece's edge may fall inside it.
    const inRun = i >= untimed[0] && i < untimed[1];
    const back = (i % 101 === 0 ? 5_000 : 0) + (olderHalf && i >= count / 3 ? 86_400_000 : 0);
    out.push(line(i, !inRun && i % 13 !== 0, ms - back));
  }
  return out;
}

function fileOf(name: string, events: readonly LogEvent[], format: StreamFormat): number {
  const path = join(dir, name);
  writeFileSync(path, `${events.map((e) => formatEvent(e, format)).join("\n")}\n`);
  const fd = openSync(path, "r");
  fds.push(fd);
  return fd;
}

/**
 * The chunks shared here by the two readers a worker runs: the worker's from the back (taking
 * `backFirst` of the chunks before the other starts, as one started first would, all it can when
 * undefined), then this thread's from the front up to them; how many readers read a chunk, and
 * how many pieces were left in the shared columns. `slots`: shared columns of that many slots
 * instead of the ones given (too few: the pieces that find no room keep columns of their own).
 */
let pieceCount = 0;
let sharedPieces = 0;
let allPieces = 0;
function sharedBy(backFirst: (chunks: number) => number | undefined, slots?: number): PieceRunner {
  return async (chunks, progress, pause, given) => {
    const shared: SharedIndex | undefined = slots === undefined ? given : newSharedIndex(slots);
    const first = chunks[0] as PieceRequest;
    const source = new FileBytes(first.fd, first.size);
    const claims = newClaims(chunks.length);
    let left = backFirst(chunks.length) ?? chunks.length;
    const theirs = new Map<number, IndexedPiece>();
    SavedFile.indexChunksFromBack(
      source,
      chunks,
      (k) => left-- > 0 && claim(claims, k, THERE),
      () => {},
      (piece, k) => theirs.set(k, piece),
      shared,
    );
    const mine = await SavedFile.indexChunksInSlices(
      source,
      chunks,
      (k) => claim(claims, k, HERE),
      progress,
      pause,
      shared,
    );
    expect(mine.chunks + theirs.size).toBe(chunks.length);
    pieceCount = (mine.chunks > 0 ? 1 : 0) + (theirs.size > 0 ? 1 : 0);
    sharedPieces = [mine.piece, ...theirs.values()].filter(inShared).length;
    allPieces = 1 + theirs.size;
    return [mine.piece, ...[...theirs].sort((a, b) => a[0] - b[0]).map(([, piece]) => piece)];
  };
}
const here = sharedBy((n) => Math.floor(n / 2));

const pause = () => Promise.resolve();

/** The chunks a large file's rest is cut in, here: several in a file of a few MiB. */
const CHUNK = 512 * 1024;

async function read(fd: number, streams: StreamTable, pieces?: PieceRunner) {
  const file = SavedFile.ofFile("f", new FileBytes(fd, fstatSync(fd).size), streams);
  file.startFile();
  await file.indexRest(pause, pieces, 1, CHUNK);
  file.end();
  return file;
}

/** Every line as the index holds it, its stream by its label. */
function linesOf(file: SavedFile, streams: StreamTable) {
  const ix = file.index;
  const rows: string[] = [];
  for (let n = ix.first(); n < ix.next(); n++) {
    const s = streams.get(ix.stream(n));
    rows.push(
      [
        ix.start(n),
        ix.length(n),
        ix.key(n),
        ix.flags(n),
        s?.deploymentId,
        s?.replicaLabel,
        ix.contentStart(n),
        ix.contentTail(n),
      ].join(" "),
    );
  }
  return rows;
}

function factsOf(file: SavedFile, streams: StreamTable) {
  const read = file.read;
  const perStream: Record<string, number> = {};
  read?.perStream.forEach((n, s) => {
    const st = streams.get(s);
    perStream[`${st?.deploymentId} ${st?.replicaLabel}`] = n;
  });
  return {
    lines: read?.lines,
    gaps: read?.gaps,
    first: read?.first,
    last: read?.last,
    perStream,
    sorted: file.sorted,
    unreadable: file.unreadable,
    range: file.timeRange(),
    unread: file.unread,
    state: file.state,
  };
}

describe("a large file indexed in pieces", () => {
  it.each([
    ["text", TEXT_UTC, [0, 0], false],
    ["text, a run without a time across the pieces' edge", TEXT_UTC, [20_000, 40_000], false],
    ["text, the second piece without a time", TEXT_UTC, [22_000, 60_000], false],
    ["text, two logs, the newer first", TEXT_UTC, [0, 0], true],
    ["NDJSON", JSON_OUT, [0, 0], false],
    ["NDJSON, a run without a time across the pieces' edge", JSON_OUT, [20_000, 40_000], false],
    ["NDJSON, the second piece without a time", JSON_OUT, [22_000, 60_000], false],
  ] as const)(
    "%s: the same lines, keys, flags, streams and counts as one reader",
    async (name, format, runs, older) => {
      const fd = fileOf(`${name}.log`, eventsOf(60_000, runs, older), format);
      const oneStreams = new StreamTable();
      const one = await read(fd, oneStreams);
      const piecesStreams = new StreamTable();
      pieceCount = 0;
      sharedPieces = 0;
      const inPieces = await read(fd, piecesStreams, here);
      expect(pieceCount).toBe(2);
      // Both readers' lines went into the shared columns, the whole file's.
      expect(sharedPieces).toBeGreaterThan(1);
      expect(one.index.size()).toBeGreaterThan(50_000);
      expect(linesOf(inPieces, piecesStreams)).toEqual(linesOf(one, oneStreams));
      expect(factsOf(inPieces, piecesStreams)).toEqual(factsOf(one, oneStreams));
      expect(one.sorted).toBe(false);
    },
  );

  it("a piece read on this thread in slices (a pause between reads) is the piece read at once", async () => {
    const fd = fileOf("slices.log", eventsOf(200_000, [20_000, 40_000]), TEXT_UTC);
    const atOnceStreams = new StreamTable();
    const atOnce = await read(fd, atOnceStreams, here);
    let pauses = 0;
    const inSlices: PieceRunner = (requests, progress, pause) =>
      Promise.all(
        requests.map(async (r) => {
          const read = await SavedFile.indexChunksInSlices(
            new FileBytes(r.fd, r.size),
            [r],
            () => true,
            progress,
            () => {
              pauses++;
              return pause();
            },
          );
          return read.piece;
        }),
      );
    const slicedStreams = new StreamTable();
    const sliced = await read(fd, slicedStreams, inSlices);
    expect(pauses).toBeGreaterThan(0);
    expect(linesOf(sliced, slicedStreams)).toEqual(linesOf(atOnce, atOnceStreams));
    expect(factsOf(sliced, slicedStreams)).toEqual(factsOf(atOnce, atOnceStreams));
  });

  it.each<[string, number | undefined]>([
    ["the worker's reader takes every chunk but the first before this thread's starts", undefined],
    ["this thread's reader takes every chunk, the worker's starting too late", 0],
    ["the worker's reader takes one chunk", 1],
  ])("%s: the same lines and counts as one reader", async (_, backFirst) => {
    const fd = fileOf(`shared-${backFirst ?? "all"}.log`, eventsOf(60_000), TEXT_UTC);
    const oneStreams = new StreamTable();
    const one = await read(fd, oneStreams);
    const streams = new StreamTable();
    pieceCount = 0;
    const shared = await read(
      fd,
      streams,
      sharedBy(() => backFirst),
    );
    expect(pieceCount).toBe(backFirst === 0 ? 1 : 2);
    expect(linesOf(shared, streams)).toEqual(linesOf(one, oneStreams));
    expect(factsOf(shared, streams)).toEqual(factsOf(one, oneStreams));
  });

  it.each([
    ["no room for the worker's pieces after this thread's", 30_000],
    ["room for none of them", 100],
  ])(
    "shared columns with %s: those that find none keep columns of their own, the same lines as one reader",
    async (_, slots) => {
      const fd = fileOf(`tight-${slots}.log`, eventsOf(60_000, [20_000, 40_000]), TEXT_UTC);
      const oneStreams = new StreamTable();
      const one = await read(fd, oneStreams);
      const streams = new StreamTable();
      pieceCount = 0;
      sharedPieces = 0;
      const tight = await read(
        fd,
        streams,
        sharedBy((n) => Math.floor(n / 2), slots),
      );
      expect(pieceCount).toBe(2);
      if (slots > 1000) expect(sharedPieces).toBeLessThan(allPieces);
      else expect(sharedPieces).toBe(0);
      expect(linesOf(tight, streams)).toEqual(linesOf(one, oneStreams));
      expect(factsOf(tight, streams)).toEqual(factsOf(one, oneStreams));
    },
  );

  it("a piece with columns of its own just after this thread's, in front of the worker's in the shared columns: the same lines as one reader", async () => {
    const fd = fileOf("between.log", eventsOf(60_000, [20_000, 40_000]), TEXT_UTC);
    const oneStreams = new StreamTable();
    const one = await read(fd, oneStreams);
    let kept = -1;
    // This thread's lines at the start of the shared columns, the worker's from the end, and the
    // chunk between them (the worker's last) in columns of its own, one line more than the room
    // left: copied after this thread's lines, it would reach the worker's first.
    const layout: PieceRunner = async (chunks) => {
      const first = chunks[0] as PieceRequest;
      const source = new FileBytes(first.fd, first.size);
      const pieces = chunks.map((c) => SavedFile.indexPiece(source, c, () => {}));
      const sizes = pieces.map((q) => q.columns.size);
      const shared = newSharedIndex(sizes.reduce((n, size) => n + size, 0) - 1);
      const put = (piece: IndexedPiece, at: number) => copiedIntoShared(piece, shared, at);
      const out = [put(pieces[0] as IndexedPiece, 0)];
      let top = shared.columns.starts.length;
      const theirs: IndexedPiece[] = [];
      for (let k = pieces.length - 1; k >= 2; k--) {
        top -= sizes[k] as number;
        theirs.unshift(put(pieces[k] as IndexedPiece, top));
      }
      kept = pieces.length > 2 ? 1 : -1;
      return [...out, pieces[1] as IndexedPiece, ...theirs];
    };
    const streams = new StreamTable();
    const between = await read(fd, streams, layout);
    expect(kept).toBe(1);
    expect(linesOf(between, streams)).toEqual(linesOf(one, oneStreams));
    expect(factsOf(between, streams)).toEqual(factsOf(one, oneStreams));
  });

  it("the shared columns' slots: taken from the front and from the back, never twice", () => {
    const shared = newSharedIndex(100);
    expect(takeFront(shared, 0, 30)).toBe(30);
    expect(takeBack(shared, 50)).toBe(50);
    // Only what is left between them: 20 slots at the front, then none at either end.
    expect(takeFront(shared, 30, 64)).toBe(50);
    expect(takeBack(shared, 1)).toBe(-1);
    expect(takeFront(shared, 50, 64)).toBe(50);
    // The front is taken from where its reader's slots end, or not at all.
    const other = newSharedIndex(100);
    expect(takeFront(other, 10, 5)).toBe(10);
    expect(takeBack(other, 100)).toBe(0);
  });

  it("claims: each chunk taken by one reader, the first to ask", () => {
    const claims = newClaims(3);
    expect(claim(claims, 2, THERE)).toBe(true);
    expect(claim(claims, 2, HERE)).toBe(false);
    expect(claim(claims, 0, HERE)).toBe(true);
    expect(claim(claims, 0, THERE)).toBe(false);
    expect([...claims]).toEqual([HERE, 0, THERE]);
    expect(claims.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it("pieces that cannot be indexed (a worker that failed) leave the file to be read here", async () => {
    const fd = fileOf("failing.log", eventsOf(30_000), TEXT_UTC);
    const oneStreams = new StreamTable();
    const one = await read(fd, oneStreams);
    const streams = new StreamTable();
    const failed = await read(fd, streams, async () => {
      throw new Error("no worker");
    });
    expect(linesOf(failed, streams)).toEqual(linesOf(one, oneStreams));
  });
  it("the rest is cut in chunks without being read: none of it read before the pieces run", async () => {
    const fd = fileOf("uncut.log", eventsOf(60_000), TEXT_UTC);
    /** The bytes read through the file's source. */
    class Counted extends FileBytes {
      bytes = 0;
      override read(start: number, end: number): Buffer {
        const got = super.read(start, end);
        this.bytes += got.length;
        return got;
      }
    }
    const source = new Counted(fd, fstatSync(fd).size);
    const file = SavedFile.ofFile("f", source, new StreamTable());
    file.startFile();
    const before = source.bytes;
    let atRun = -1;
    let chunks = 0;
    const counting: PieceRunner = (requests, progress, pause, shared) => {
      atRun = source.bytes - before;
      chunks = requests.length;
      return here(requests, progress, pause, shared);
    };
    await file.indexRest(pause, counting, 1, CHUNK);
    file.end();
    expect(chunks).toBeGreaterThan(8);
    // The rest's first lines only (read again to size its index), no chunk's edge looked for.
    expect(atRun).toBeGreaterThanOrEqual(0);
    expect(atRun).toBeLessThan(CHUNK);
    const oneStreams = new StreamTable();
    const one = await read(fd, oneStreams);
    expect(file.index.size()).toBe(one.index.size());
  });

  it.each<[string, number | undefined]>([
    ["split between the readers", undefined],
    ["every chunk but the first read from the back", 0],
  ])(
    "a line longer than MAX_LINE_BYTES across several chunks' edges, %s: the same lines and counts as one reader",
    async (_, half) => {
      const events = eventsOf(40_000);
      const at = events.findIndex((e, k) => k >= 20_000 && e.kind === "line");
      const line = events[at] as Extract<LogEvent, { kind: "line" }>;
      events.splice(at + 1, 0, {
        ...line,
        content: `long ${"x".repeat(MAX_LINE_BYTES + 3 * CHUNK)} end`,
      });
      const fd = fileOf(`long-${half ?? "half"}.log`, events, TEXT_UTC);
      const oneStreams = new StreamTable();
      const one = await read(fd, oneStreams);
      expect(one.unread.cut).toBe(1);
      const streams = new StreamTable();
      pieceCount = 0;
      const cut = await read(
        fd,
        streams,
        sharedBy((n) => (half === undefined ? Math.floor(n / 2) : n)),
      );
      expect(pieceCount).toBe(2);
      expect(linesOf(cut, streams)).toEqual(linesOf(one, oneStreams));
      expect(factsOf(cut, streams)).toEqual(factsOf(one, oneStreams));
    },
  );
});

describe("pieces on worker threads (the built modules, where the worker's module is)", () => {
  beforeAll(() => freshBuild("dist"), 300_000);

  it("read as one reader, each worker said online once it runs", async () => {
    const built = fileURLToPath(
      new URL("../../../dist/logs/saved/piece-index.js", import.meta.url),
    );
    const { workerPieces } = (await import(
      built
    )) as typeof import("../../../src/logs/saved/piece-index.js");
    let online = 0;
    const workers = workerPieces(() => online++);
    expect(workers).toBeDefined();
    const fd = fileOf("workers.ndjson", eventsOf(60_000, [20_000, 40_000]), JSON_OUT);
    const oneStreams = new StreamTable();
    const one = await read(fd, oneStreams);
    const streams = new StreamTable();
    // The pieces come back from the runner (a worker that failed would leave them to be read here).
    let indexed = 0;
    let shared = 0;
    const run: PieceRunner = async (requests, progress, pause, into) => {
      const done = await (workers as NonNullable<typeof workers>).run(
        requests,
        progress,
        pause,
        into,
      );
      indexed = done.length;
      shared = done.filter(inShared).length;
      return done;
    };
    const inWorkers = await read(fd, streams, run);
    workers?.stop();
    // This thread's chunks as one piece, and each the worker read as one of its own (it may have
    // read none, if this thread took them all first).
    expect(indexed).toBeGreaterThan(0);
    // Their lines in the shared columns, this thread's and the worker's alike.
    expect(shared).toBe(indexed);
    expect(online).toBe(1);
    expect(linesOf(inWorkers, streams)).toEqual(linesOf(one, oneStreams));
    expect(factsOf(inWorkers, streams)).toEqual(factsOf(one, oneStreams));
  });
});
