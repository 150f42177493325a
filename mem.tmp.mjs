import fs from "node:fs";
const { buildGraph, createIndexMemory, flushIndexMemory } = await import("/work/main/dist/index.js");
const root = "/tmp/ecopy", cacheDir = "/tmp/dtest/ecopy-idx", memory = createIndexMemory(), opts = { include: ["src/**"], cacheDir, memory };
await buildGraph(root, opts); await flushIndexMemory(memory);
for (let i = 0; i < 6; i++) {
  fs.appendFileSync(root + "/src/Effect.ts", `\nexport function benchEditedM${i}() { return 42; }\n`);
  const past = Date.now() / 1000 - 3600; fs.utimesSync(root + "/src/Effect.ts", past, past - i);
  const t = performance.now(); const g = await buildGraph(root, opts); const ms = performance.now() - t;
  console.log("edit", Math.round(ms), g.stats.millis, g.cache.graphUpdated);
  await flushIndexMemory(memory);
}
