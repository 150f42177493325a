import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // builds dist/ once, for the test that spawns the real bin
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // the CLI's default index folder is the user cache: never the real one in tests
    env: { XDG_CACHE_HOME: join(tmpdir(), `graph-retrieve-test-cache-${process.pid}`) },
  },
});
