/**
 * The follow flags are written once (src/cli/follow-flags.ts): tail, watch and demo register each
 * shared row as the table says, and a command asking for a flag it does not take is told.
 */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerDemoCommand } from "../../src/cli/commands/demo/demo-command.js";
import { registerTailCommand } from "../../src/cli/commands/tail/tail-command.js";
import { registerWatchCommand } from "../../src/cli/commands/watch/watch-command.js";
import { followFlags } from "../../src/cli/follow-flags.js";

function options(name: string) {
  const program = new Command();
  registerTailCommand(program);
  registerWatchCommand(program);
  registerDemoCommand(program);
  const command = program.commands.find((c) => c.name() === name);
  return new Map((command?.options ?? []).map((o) => [o.long, o]));
}

describe("the follow flags", () => {
  it("are registered by each command as the one table writes them", () => {
    for (const command of ["tail", "watch", "demo"] as const) {
      const registered = options(command);
      const names = ["deployment", "app", "all", "maxDeployments"] as const;
      for (const row of followFlags(command, ...names)) {
        const long = row.flags.split(" ")[0] as string;
        const option = registered.get(long);
        expect(option, `${command} ${long}`).toBeDefined();
        expect(option?.flags).toBe(row.flags);
        expect(option?.description).toBe(row.description);
      }
    }
    // What differs is said in the table: --since takes the same times in each, its words differ.
    for (const command of ["tail", "watch", "demo"])
      expect(options(command).get("--since")?.flags).toBe("--since <time>");
    expect(options("watch").get("--since")?.description).toContain("default 10m");
    expect(options("demo").get("--until")?.description).toContain("refused");
    expect(options("tail").get("--interval")?.description).toBe(
      options("watch").get("--interval")?.description,
    );
  });

  it("refuses a flag a command does not take", () => {
    expect(() => followFlags("demo", "interval")).toThrow("demo takes no --interval");
    expect(() => followFlags("tail", "bell")).toThrow("tail takes no --bell");
  });
});
