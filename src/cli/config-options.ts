import { configToRetrieveOptions, loadConfig, type RetrieveOptions } from "../index.js";

/**
 * The root's config (graph-retrieve.config.json or package.json
 * "graph-retrieve") with the command-line flags on top: a flag given
 * replaces the config's value (include/exclude lists too, not appended).
 */
export async function withConfig(root: string, flags: RetrieveOptions): Promise<RetrieveOptions> {
  const loaded = await loadConfig(root);
  const given = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  return { ...configToRetrieveOptions(loaded?.config), ...given };
}
