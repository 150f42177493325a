import type { CliIo } from "./cli-io.js";

/** Nothing is drawn for work that ends sooner than this. */
export const PROGRESS_DELAY_MS = 1_000;
const REDRAW_MS = 100;
const BAR_WIDTH = 30;

export interface ProgressBar {
  update: (done: number, total: number) => void;
  /** Clear the bar (when one was drawn). */
  finish: () => void;
}

/**
 * A one-line progress bar on stderr: only when stderr is a terminal, only
 * once the work has taken a second, redrawn at most every 100 ms, and
 * erased when the work ends. Never touches stdout.
 *
 * @example
 * const bar = createProgressBar(io);
 * await buildGraph(root, { onProgress: bar.update });
 * bar.finish();
 */
export function createProgressBar(io: CliIo, now: () => number = Date.now): ProgressBar {
  const draw = io.isStderrTty ? io.progress : undefined;
  if (!draw) return { update: () => {}, finish: () => {} };
  const started = now();
  let lastDraw = 0;
  let drawn = false;
  return {
    update(done, total) {
      const at = now();
      if (at - started < PROGRESS_DELAY_MS || (at - lastDraw < REDRAW_MS && done < total)) return;
      lastDraw = at;
      drawn = true;
      const share = total > 0 ? done / total : 1;
      const filled = Math.round(share * BAR_WIDTH);
      draw(`\r\x1b[Kindexing [${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${done}/${total} files`);
    },
    finish() {
      if (drawn) draw("\r\x1b[K");
      drawn = false;
    },
  };
}
