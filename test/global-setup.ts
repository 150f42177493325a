/**
 * vitest globalSetup: build dist/ once per run, so the CLI test can spawn the
 * real bin (dist/cli/main.js). Quiet on success; on failure the compiler's
 * output is the error. Its teardown removes the run's default index folder
 * (vitest.config.ts points XDG_CACHE_HOME there), so a run leaves nothing
 * behind.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

export default function setup(): () => void {
  try {
    execFileSync("npm", ["run", "build", "--silent"], { cwd: REPO_ROOT, stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`test/global-setup.ts: npm run build failed (fix the compile errors below)\n${stdout}${stderr}`, { cause: error });
  }
  // the same folder vitest.config.ts names: this is its process
  return () => rmSync(join(tmpdir(), `graph-retrieve-test-cache-${process.pid}`), { recursive: true, force: true });
}
