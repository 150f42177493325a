// After `tsc`: the CLI's entry points bundled over tsc's output in dist/cli/.
//
// Node 20 loads an ES module graph file by file (resolve, read, compile, link), and the CLI reaches
// ~65 of our modules on every run: ~40 ms of a warm query's ~330 ms on effect. One bundle per entry
// (main.js, and parse-worker.js for the parse threads), with lazily imported commands split off as
// chunks, loads in about half that. Packages stay external (node_modules is resolved as before).
//
// The bundles sit where tsc's files were, two levels below package.json, like every module whose
// import.meta.url finds a file: grammars/ and data/ (../../), the parse worker (./parse-worker.js),
// the daemon's own entry (./main.js), the parse code the store header hashes (../parse/, ../util/,
// tsc's output of the same sources). The library (dist/index.js and below) is tsc's output as is.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "dist", "cli");
const CHUNK_SUFFIX = ".chunk.js";

// chunks of an earlier build (their names follow the modules they hold, which change)
if (fs.existsSync(outDir)) {
  for (const name of fs.readdirSync(outDir)) if (name.endsWith(CHUNK_SUFFIX)) fs.rmSync(path.join(outDir, name));
}

await build({
  input: {
    main: path.join(root, "src", "cli", "main.ts"),
    "parse-worker": path.join(root, "src", "parse", "parse-worker.ts"),
  },
  platform: "node",
  // packages and node: builtins: everything that is not a relative path
  external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
  logLevel: "warn",
  output: {
    dir: outDir,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: `[name]${CHUNK_SUFFIX}`,
  },
});
