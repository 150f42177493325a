/**
 * A task as a heading shows it: on one line, cut after
 * {@link MAX_HEADING_TASK_CHARS} characters with the length it had. A task
 * pasted from an issue can run to pages; the JSON result keeps it whole.
 *
 * @example
 * shortTask("Fix the\n token expiry bug"); // "Fix the token expiry bug"
 * shortTask("x".repeat(5000));             // "xxx…x … (5000 characters)"
 */

/** Characters of the task a heading shows. */
export const MAX_HEADING_TASK_CHARS = 160;

export function shortTask(task: string, maxChars: number = MAX_HEADING_TASK_CHARS): string {
  const line = task.replace(/\s+/g, " ").trim();
  if (line.length <= maxChars) return line;
  const cut = line.slice(0, maxChars).replace(/[\uD800-\uDBFF]$/, ""); // never half a surrogate pair
  return `${cut.trimEnd()} … (${task.length} characters)`;
}
