import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DeadlineQueue } from "../../../src/logs/model/deadline-queue.js";

describe("DeadlineQueue", () => {
  it("gives items back soonest first, however they were put in and taken out", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constant("pop" as const)), {
          maxLength: 200,
        }),
        (steps) => {
          const q = new DeadlineQueue<number>();
          const model: number[] = [];
          for (const step of steps) {
            if (step === "pop") {
              model.sort((a, b) => a - b);
              const want = model.shift();
              expect(q.peek()).toBe(want);
              expect(q.pop()).toBe(want);
            } else {
              q.push(step, step);
              model.push(step);
            }
            expect(q.size()).toBe(model.length);
          }
          q.rebuild(model.map((m) => [m, m]));
          const rest: number[] = [];
          for (let x = q.pop(); x !== undefined; x = q.pop()) rest.push(x);
          expect(rest).toEqual([...model].sort((a, b) => a - b));
        },
      ),
    );
  });
});
