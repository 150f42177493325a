// After `tsc`: the bin of package.json gets its execute bits. tsc writes a new
// file with mode 0644, and `npx graph-retrieve` in this project (the README's
// quick start) runs dist/cli/main.js itself, through its shebang: without the
// bits, "Permission denied" on every fresh clone.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { bin } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
for (const file of Object.values(typeof bin === "string" ? { main: bin } : bin)) {
  const target = path.join(root, file);
  fs.chmodSync(target, fs.statSync(target).mode | 0o111);
}
