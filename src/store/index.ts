/**
 * The store stage: the persistent index (facts by content hash, import
 * targets, the assembled graph) in one folder per root, written atomically.
 *
 * @example
 * import { defaultCacheDir } from "./store/index.js";
 * defaultCacheDir("/home/me/app", { platform: process.platform, env: process.env, homedir: os.homedir() });
 */
export { CACHE_APP_NAME, defaultCacheDir, rootKey, userCacheBase } from "./cache-dir.js";
export {
  FACTS_FILE,
  GRAPH_FILE,
  INDEX_FILE,
  loadIndexStore,
  loadStoredGraph,
  loadStoredGraphSync,
  saveIndexStore,
  type IndexStore,
  type LoadedStore,
  type StoredFile,
  type StoredFolders,
  type StoredGraph,
  type StoredGraphCounts,
  type StoredSections,
} from "./index-store.js";
export { configFileNames, resolutionFingerprint, type ConfigHash, type KnownConfigs } from "./resolution-fingerprint.js";
export { addMissingStatList, STAT_LIST_FILE } from "./stat-list.js";
export { CACHE_TAG_FILE, ForeignFolderError } from "./store-folder.js";
export { createStoreHeader, type StoreHeader } from "./store-header.js";
