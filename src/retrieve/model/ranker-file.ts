/**
 * The ranker's file format: a small JSON header (what the model is, its
 * features, each stage's base and calibration) and the trees' node arrays as
 * raw little-endian numbers, read as typed-array views without parsing. A
 * 1 MB JSON model took 25–50 ms to read and parse; this layout takes a few.
 *
 * Layout: "GRRANKER" · uint32 format · uint32 header bytes · header JSON ·
 * zero padding to 8 · for each stage: split float64[nodes] (an inner node's
 * threshold, a leaf's value) · roots uint32[trees + 1] (each tree's first
 * node; the last is `nodes`) · feature int16[nodes] (−1 for a leaf) ·
 * left uint16[nodes] · right uint16[nodes] (children, numbered within the
 * tree, after their parent) · zero padding to 8. Each array starts at a
 * multiple of its element size.
 */
import { UsageError } from "../../errors.js";

/** One tree as node arrays, as the trainer writes it: an inner node sends x[feature] <= threshold left; a leaf has feature −1 and a value. */
export interface RankerTree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

/** One stage, packed: all its trees' nodes in flat typed arrays. */
export interface RankerStage {
  base: number;
  /** [log-odds, probability] knots, increasing: the calibration map (piecewise linear, flat beyond the ends). */
  calibration: Array<[number, number]>;
  /** The map for a task read as an issue (read-issue.ts), fit on issue tasks alone; without it, `calibration` serves every task. */
  issueCalibration?: Array<[number, number]>;
  /** Tree t's nodes are roots[t] … roots[t + 1] − 1. */
  roots: Uint32Array;
  feature: Int16Array;
  split: Float64Array;
  left: Uint16Array;
  right: Uint16Array;
}

export interface RankerModel {
  kind: "graph-retrieve ranker";
  version: 2;
  note?: string;
  features: string[];
  relationFeatures: string[];
  stages: [RankerStage, RankerStage];
}

interface StageHeader {
  base: number;
  trees: number;
  nodes: number;
  calibration: Array<[number, number]>;
  issueCalibration?: Array<[number, number]>;
}

const MAGIC = "GRRANKER";
const FORMAT = 2;
const PREFIX = 16;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const padTo8 = (n: number): number => (n + 7) & ~7;

/** The bytes of one stage's arrays, as laid out in the file. */
function stageBytes(nodes: number, trees: number): number {
  return padTo8(nodes * 8 + (trees + 1) * 4 + nodes * (2 + 2 + 2));
}

/**
 * Pack a stage from the trainer's trees.
 *
 * @example
 * packStage(0.5, [{ feature: [0, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -1, 1] }], []);
 */
export function packStage(base: number, trees: readonly RankerTree[], calibration: Array<[number, number]>, issueCalibration?: Array<[number, number]>): RankerStage {
  const nodes = trees.reduce((n, t) => n + t.feature.length, 0);
  const stage: RankerStage = {
    base,
    calibration,
    ...(issueCalibration ? { issueCalibration } : {}),
    roots: new Uint32Array(trees.length + 1),
    feature: new Int16Array(nodes),
    split: new Float64Array(nodes),
    left: new Uint16Array(nodes),
    right: new Uint16Array(nodes),
  };
  let at = 0;
  trees.forEach((tree, t) => {
    stage.roots[t] = at;
    if (tree.feature.length > 0xffff) throw new UsageError(`ranker: a tree of ${tree.feature.length} nodes is over the format's 65,535`);
    tree.feature.forEach((f, i) => {
      const leaf = f < 0;
      stage.feature[at + i] = leaf ? -1 : f;
      stage.split[at + i] = leaf ? tree.value[i]! : tree.threshold[i]!;
      stage.left[at + i] = leaf ? 0 : tree.left[i]!;
      stage.right[at + i] = leaf ? 0 : tree.right[i]!;
    });
    at += tree.feature.length;
  });
  stage.roots[trees.length] = at;
  return stage;
}

/** The file's bytes for a model. */
export function encodeRanker(model: RankerModel): Uint8Array {
  const header = {
    kind: model.kind,
    version: model.version,
    ...(model.note !== undefined ? { note: model.note } : {}),
    features: model.features,
    relationFeatures: model.relationFeatures,
    stages: model.stages.map((s): StageHeader => ({ base: s.base, trees: s.roots.length - 1, nodes: s.split.length, calibration: s.calibration, ...(s.issueCalibration ? { issueCalibration: s.issueCalibration } : {}) })),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = padTo8(PREFIX + json.length);
  const size = model.stages.reduce((n, s) => n + stageBytes(s.split.length, s.roots.length - 1), start);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < MAGIC.length; i++) bytes[i] = MAGIC.charCodeAt(i);
  view.setUint32(8, FORMAT, true);
  view.setUint32(12, json.length, true);
  bytes.set(json, PREFIX);
  let at = start;
  for (const s of model.stages) {
    const n = s.split.length;
    s.split.forEach((v, i) => view.setFloat64(at + 8 * i, v, true));
    at += 8 * n;
    s.roots.forEach((v, i) => view.setUint32(at + 4 * i, v, true));
    at += 4 * s.roots.length;
    s.feature.forEach((v, i) => view.setInt16(at + 2 * i, v, true));
    at += 2 * n;
    s.left.forEach((v, i) => view.setUint16(at + 2 * i, v, true));
    at += 2 * n;
    s.right.forEach((v, i) => view.setUint16(at + 2 * i, v, true));
    at = padTo8(at + 2 * n);
  }
  return bytes;
}

type Typed = Float64Array | Int16Array | Uint16Array | Uint32Array;
type TypedClass<T extends Typed> = { new (buffer: ArrayBuffer, offset: number, length: number): T; new (length: number): T; BYTES_PER_ELEMENT: number };

/** A view of `count` numbers at `offset`; on a big-endian machine, a converted copy. */
function arrayAt<T extends Typed>(Kind: TypedClass<T>, buffer: ArrayBuffer, offset: number, count: number): T {
  if (LITTLE_ENDIAN) return new Kind(buffer, offset, count);
  const view = new DataView(buffer);
  const out = new Kind(count);
  const size = Kind.BYTES_PER_ELEMENT;
  for (let i = 0; i < count; i++) {
    const at = offset + size * i;
    out[i] = size === 8 ? view.getFloat64(at, true) : size === 4 ? view.getUint32(at, true) : out instanceof Int16Array ? view.getInt16(at, true) : view.getUint16(at, true);
  }
  return out;
}

/** Every tree ends in leaves: children come after their parent, inside the tree, and split on a feature the row has. */
function wellFormed(stage: RankerStage, width: number): boolean {
  const { roots, feature, left, right } = stage;
  if (roots[0] !== 0 || roots[roots.length - 1] !== feature.length) return false;
  for (let t = 0; t + 1 < roots.length; t++) {
    const start = roots[t]!;
    const size = roots[t + 1]! - start;
    if (size <= 0) return false;
    for (let i = 0; i < size; i++) {
      const f = feature[start + i]!;
      if (f < 0) continue;
      if (f >= width || left[start + i]! <= i || right[start + i]! <= i || left[start + i]! >= size || right[start + i]! >= size) return false;
    }
  }
  return true;
}

function isStageHeader(s: unknown): s is StageHeader {
  const h = s as StageHeader;
  return !!h && Number.isFinite(h.base) && Number.isInteger(h.trees) && h.trees >= 0 && Number.isInteger(h.nodes) && h.nodes >= 0 && Array.isArray(h.calibration) && (h.issueCalibration === undefined || Array.isArray(h.issueCalibration));
}

/**
 * Read a model from its file's bytes; `source` names the file in errors.
 * The features are not checked here (see checkRankerModel).
 */
export function decodeRanker(bytes: Uint8Array, source: string): RankerModel {
  const refuse = (why: string): never => {
    throw new UsageError(`ranker: ${source} ${why} (give a model trained by npm run train)`);
  };
  if (bytes.length < PREFIX || String.fromCharCode(...bytes.subarray(0, MAGIC.length)) !== MAGIC) {
    return refuse(bytes[0] === 0x7b ? "is a JSON model of an earlier version: retrain it with npm run train" : "is no graph-retrieve ranker model");
  }
  // every array must be a view at a multiple of its size: the file's own buffer when it starts at 0, else an aligned copy
  const buffer = (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)) as ArrayBuffer;
  const view = new DataView(buffer);
  if (view.getUint32(8, true) !== FORMAT) return refuse(`is in format ${view.getUint32(8, true)}, not ${FORMAT}`);
  const length = view.getUint32(12, true);
  if (PREFIX + length > bytes.length) return refuse("is cut short");
  let header: { kind?: unknown; version?: unknown; note?: unknown; features?: unknown; relationFeatures?: unknown; stages?: unknown };
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX, PREFIX + length))) as typeof header;
  } catch {
    return refuse("has a damaged header");
  }
  if (header.kind !== "graph-retrieve ranker" || header.version !== 2 || !Array.isArray(header.stages) || header.stages.length !== 2 || !header.stages.every(isStageHeader)) {
    return refuse("is no graph-retrieve ranker model");
  }
  const stageHeaders = header.stages as StageHeader[];
  const total = stageHeaders.reduce((n, s) => n + stageBytes(s.nodes, s.trees), padTo8(PREFIX + length));
  if (total !== bytes.length) return refuse("is cut short or damaged");
  let at = padTo8(PREFIX + length);
  const stages = stageHeaders.map((h): RankerStage => {
    const split = arrayAt(Float64Array, buffer, at, h.nodes);
    at += 8 * h.nodes;
    const roots = arrayAt(Uint32Array, buffer, at, h.trees + 1);
    at += 4 * (h.trees + 1);
    const feature = arrayAt(Int16Array, buffer, at, h.nodes);
    at += 2 * h.nodes;
    const left = arrayAt(Uint16Array, buffer, at, h.nodes);
    at += 2 * h.nodes;
    const right = arrayAt(Uint16Array, buffer, at, h.nodes);
    at = padTo8(at + 2 * h.nodes);
    return { base: h.base, calibration: h.calibration, ...(h.issueCalibration ? { issueCalibration: h.issueCalibration } : {}), roots, feature, split, left, right };
  });
  const width = (Array.isArray(header.features) ? header.features.length : 0) + (Array.isArray(header.relationFeatures) ? header.relationFeatures.length : 0);
  if (!stages.every((s) => wellFormed(s, width))) return refuse("has a damaged tree");
  return {
    kind: "graph-retrieve ranker",
    version: 2,
    ...(typeof header.note === "string" ? { note: header.note } : {}),
    features: Array.isArray(header.features) ? (header.features as string[]) : [],
    relationFeatures: Array.isArray(header.relationFeatures) ? (header.relationFeatures as string[]) : [],
    stages: [stages[0]!, stages[1]!],
  };
}
