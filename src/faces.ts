/**
 * What the faces (cli/, mcp/) use besides the library: the resident index,
 * the parser's warm-up and stop, the index folder's claim, the history read
 * beside a build, and the CLI's word hints. Not part of the package's
 * public entry (src/index.ts), so that the library's surface shows the
 * library; the layering rules let the faces import this module and
 * src/index.ts, nothing else.
 */
export { createResidentIndex, type ResidentIndex } from "./retrieve/resident-index.js";
export { prepareIndexMemory } from "./graph/index-memory.js";
export { preloadParser, stopParseWorkers } from "./parse/parse-files.js";
export { claimStoreFolder, ForeignFolderError } from "./store/store-folder.js";
export { holdsIndex } from "./store/index-store.js";
export { closestWords } from "./util/edit-distance.js";
export { isAssetImportDiagnostic } from "./resolve/unresolved-diagnostics.js";
export { isAssetSpecifier } from "./resolve/asset-specifiers.js";
export { readHistoryBesideBuild } from "./history/beside-build.js";
