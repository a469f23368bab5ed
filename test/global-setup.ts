import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** End-to-end tests run the built program (bin/tvcwatch imports dist/); build it once first. */
export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
}
