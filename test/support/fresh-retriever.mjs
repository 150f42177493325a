// A process that answers each task as a fresh run would: the built library
// (dist/, made by the test run's global setup), no index and no memory, a
// new graph for every request. The soak test asks it over IPC, so that its
// memory is not counted as the resident index's.
import { retrieve, renderJson } from "../../dist/index.js";

process.on("message", async ({ id, task, root }) => {
  try {
    process.send({ id, json: renderJson(await retrieve(task, { root })) });
  } catch (error) {
    process.send({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
