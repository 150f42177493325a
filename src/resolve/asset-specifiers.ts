/**
 * Import specifiers that name assets rather than code: the table of endings
 * and the test. The resolver's graph holds source files only, so an asset
 * import that leads to no file is expected, and the warnings count it apart.
 */

/**
 * File endings an import may name that are no code: stylesheets, fonts,
 * images, media, data and text a bundler loads. Such a specifier that does
 * not resolve to a source file is expected (the graph holds code only), so
 * the warnings count it apart from code. A table: add an ending to add a kind.
 */
export const ASSET_EXTENSIONS: ReadonlySet<string> = new Set([
  // stylesheets
  ".css", ".scss", ".sass", ".less", ".styl", ".pcss", ".postcss",
  // fonts
  ".woff", ".woff2", ".ttf", ".otf", ".eot",
  // images
  ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".ico", ".bmp", ".tif", ".tiff",
  // audio and video
  ".mp3", ".wav", ".ogg", ".flac", ".m4a", ".mp4", ".webm", ".mov",
  // data and text
  ".json", ".json5", ".jsonc", ".yaml", ".yml", ".toml", ".csv", ".tsv", ".xml", ".txt", ".md", ".html", ".htm",
  ".graphql", ".gql", ".wasm", ".glsl", ".frag", ".vert",
]);

/**
 * True when an import specifier names an asset by its ending (a bundler's
 * `?raw` / `?url` query and a `#hash` are ignored).
 *
 * @example
 * isAssetSpecifier("./fonts/inter.woff2");   // true
 * isAssetSpecifier("../styles/app.scss?inline"); // true
 * isAssetSpecifier("./tokens");              // false
 * isAssetSpecifier("lodash/fp.js");          // false
 */
export function isAssetSpecifier(specifier: string): boolean {
  const path = specifier.replace(/[?#].*$/, "").toLowerCase();
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/") && ASSET_EXTENSIONS.has(path.slice(dot));
}
