/**
 * No function in src/ is longer than MAX_FUNCTION_LINES (its body, from `{` to `}`), except the
 * templates and data tables named below: a longer one is split into named pieces. Counted from
 * the syntax tree, so a nested function counts on its own and inside the one around it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));
const MAX_FUNCTION_LINES = 120;

/** `file:function` of the templates and data tables allowed to be longer, each with why. */
const LONGER: Record<string, string> = {
  "cli/commands/completion/zsh.ts:zshScript": "a template: the zsh completion script",
  "cli/commands/completion/bash.ts:bashScript": "a template: the bash completion script",
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText();
  }
  return "<anonymous>";
}

/** Every function of `path` whose body is longer than MAX_FUNCTION_LINES: `file:name (N lines)`. */
function longFunctions(path: string): { key: string; lines: number }[] {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const file = relative(SRC, path);
  const found: { key: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body && ts.isBlock(node.body)) {
      const first = source.getLineAndCharacterOfPosition(node.body.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.body.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ key: `${file}:${nameOf(node)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("function length", () => {
  const long = files(SRC).flatMap(longFunctions);

  it(`no function in src/ is over ${MAX_FUNCTION_LINES} lines but the templates and tables named`, () => {
    const over = long.filter((f) => !(f.key in LONGER)).map((f) => `${f.key} (${f.lines} lines)`);
    expect(over).toEqual([]);
  });

  it("every function named as allowed to be longer still is (the list stays true)", () => {
    expect(long.map((f) => f.key).sort()).toEqual(Object.keys(LONGER).sort());
  });
});
