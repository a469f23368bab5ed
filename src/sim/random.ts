/** A small seeded PRNG (mulberry32) so a seed gives the same generated data every run. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** Exponentially distributed gap with the given mean, for Poisson arrivals. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  hex(bytes: number): string {
    let out = "";
    for (let i = 0; i < bytes; i++) out += this.int(0, 255).toString(16).padStart(2, "0");
    return out;
  }

  base58(length: number): string {
    const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }

  uuid(): string {
    const h = this.hex(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** A derived generator, so one feature's draws do not shift another's. */
  fork(salt: number): Random {
    return new Random((this.int(0, 0xffffffff) ^ Math.imul(salt, 0x9e3779b1)) >>> 0);
  }
}
