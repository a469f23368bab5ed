/**
 * Every pattern from outside goes through the one matcher (src/text/pattern.ts: RE2, linear
 * time). No other module of src/ builds a RegExp at run time, but the constants of the program
 * named below, each with why its source cannot come from outside; and none but the matcher
 * loads the engine itself. Read from the syntax tree, so a comment or a string saying
 * `new RegExp(` is not counted.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));
const MATCHER = "text/pattern.ts";

/** `file: the source argument as written` of the RegExps built from constants, each with why. */
const CONSTANT_SOURCES: Record<string, string> = {
  "text/terminal-json.ts: RAW_IN_JSON.source": "a regex literal of the same module, flagged g",
  "text/sanitize.ts: UNSAFE.source": "a regex literal of the same module, flagged g",
  "config/config-file.ts: `^[0-9a-fA-F]{${len}}$`": "a key's length, a number the schema names",
  "config/atomic-file.ts: `^\\\\.${escapeRegExp(basename(path))}\\\\.(\\\\d+)(?:\\\\.[0-9a-f]{16})?\\\\.tmp$`":
    "the file's own name with every special character escaped: a literal, then digits",
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Each RegExp built at run time in `path` (`file: first argument`), and each load of re2js. */
function runTimePatterns(path: string): { built: string[]; engine: string[] } {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const file = relative(SRC, path);
  const built: string[] = [];
  const engine: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "RegExp"
    ) {
      built.push(`${file}: ${node.arguments?.[0]?.getText(source) ?? ""}`);
    }
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === "re2js"
    ) {
      engine.push(file);
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0]?.getText(source).includes("re2js")
    ) {
      engine.push(file);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { built, engine };
}

describe("one matcher for every pattern from outside", () => {
  const found = files(SRC).map(runTimePatterns);

  it("no module but the constants named builds a RegExp at run time", () => {
    const built = found.flatMap((f) => f.built);
    expect(built.filter((b) => !(b in CONSTANT_SOURCES))).toEqual([]);
    // An entry whose RegExp is gone is taken out of the list.
    expect(Object.keys(CONSTANT_SOURCES).filter((k) => !built.includes(k))).toEqual([]);
  });

  it(`only ${MATCHER} loads the engine`, () => {
    expect(found.flatMap((f) => f.engine)).toEqual([MATCHER]);
  });
});
