import fs from "node:fs";
const { buildGraph, createIndexMemory, flushIndexMemory, preloadParser } = await import("/work/main/dist/index.js");
const root = "/tmp/ecopy", cacheDir = "/tmp/dtest/ecopy-idx", memory = createIndexMemory(), opts = { include: ["src/**"], cacheDir, memory };
await buildGraph(root, opts); await flushIndexMemory(memory); await preloadParser();
const rows = [];
for (let i = 0; i < 12; i++) {
  fs.appendFileSync(root + "/src/Array.ts", `\nexport function benchEditedN${i}() { return 42; }\n`);
  const past = Date.now() / 1000 - 3600; fs.utimesSync(root + "/src/Array.ts", past, past - i);
  const c = process.cpuUsage(); const t = performance.now(); const g = await buildGraph(root, opts); const ms = performance.now() - t; const cpu = process.cpuUsage(c);
  rows.push({ wall: Math.round(ms), cpu: Math.round((cpu.user + cpu.system) / 1000), ...g.stats.millis });
  await flushIndexMemory(memory);
}
const med = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[rows.length >> 1];
console.log(Object.fromEntries(["wall", "cpu", "scan", "parse", "resolve", "graph"].map((k) => [k, med(k)])));
