#!/usr/bin/env node
// Carry a trained model over to the features this version computes:
//
//   node scripts/learn/carry-model.mjs --from OLD.bin --out NEW.bin
//
// A model's trees name its features by their place in the list it was
// trained on; this version may compute more (a feature added since). Each
// split is moved to its feature's place in today's list (by name), so the
// carried model scores every file exactly as it did, and reads none of the
// new features. A feature of the old model that this version no longer
// computes stops it: that model must be retrained (npm run train).
// Reads dist/ (npm run build first).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "dist");

function fail(message) {
  process.stderr.write(`carry-model: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag !== "--from" && flag !== "--out") fail(`unknown option ${flag} (options: --from OLD.bin --out NEW.bin)`);
    const value = argv[++i];
    if (value === undefined) fail(`${flag} needs a file`);
    options[flag.slice(2)] = value;
  }
  if (!options.from || !options.out) fail("give --from OLD.bin and --out NEW.bin");
  return options;
}

/** The place in `now` of each of `before`'s names; fails on one `now` lacks. */
function placesOf(before, now, kind) {
  return before.map((name) => {
    const at = now.indexOf(name);
    if (at < 0) fail(`the model reads the ${kind} feature "${name}", which this version no longer computes: retrain it (npm run train)`);
    return at;
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (path.resolve(options.from) === path.resolve(options.out)) fail("--out must not be --from (the model is kept as it was)");
  const modelFile = await import(path.join(DIST, "retrieve", "model", "ranker-file.js"));
  const { BASE_FEATURES } = await import(path.join(DIST, "retrieve", "features", "base-features.js"));
  const { RELATION_FEATURES } = await import(path.join(DIST, "retrieve", "features", "relation-features.js"));
  let bytes;
  try {
    bytes = fs.readFileSync(options.from);
  } catch (error) {
    fail(`cannot read ${options.from} (${error.code ?? "unreadable"})`);
  }
  const model = modelFile.decodeRanker(new Uint8Array(bytes), options.from);
  // a row is the base features, then (stage 2) the relation features
  const places = [...placesOf(model.features, BASE_FEATURES, "base"), ...placesOf(model.relationFeatures, RELATION_FEATURES, "relation").map((i) => BASE_FEATURES.length + i)];
  const stages = model.stages.map((stage) => ({ ...stage, feature: stage.feature.map((f) => (f < 0 ? f : places[f])) }));
  const carried = { ...model, features: [...BASE_FEATURES], relationFeatures: [...RELATION_FEATURES], stages, note: `${model.note ?? "a model"}; carried to ${BASE_FEATURES.length} features, the new ones unread` };
  fs.writeFileSync(`${options.out}.tmp`, modelFile.encodeRanker(carried));
  fs.renameSync(`${options.out}.tmp`, options.out);
  process.stdout.write(`${options.out}: ${model.features.length} → ${BASE_FEATURES.length} features, ${stages[0].roots.length - 1} + ${stages[1].roots.length - 1} trees\n`);
}

main().catch((error) => fail(error?.message ?? String(error)));
