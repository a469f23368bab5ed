// Writes docs/keys.md from the bindings table (src/tui/keys/key-bindings.ts) and the help's
// legend, through keysPageMarkdown(): `npm run docs:keys`. The key-bindings test fails until the
// page is regenerated after the table changes.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundled = await build({
  entryPoints: [`${root}src/tui/keys/keys-page.ts`],
  bundle: true,
  write: false,
  format: "esm",
  platform: "node",
  logLevel: "warning",
});
const code = bundled.outputFiles[0]?.text ?? "";
const page = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
const target = `${root}docs/keys.md`;
writeFileSync(target, page.keysPageMarkdown());
process.stdout.write(`wrote ${target}\n`);
