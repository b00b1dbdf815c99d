// The engine worker's one registry of cancellable jobs (protocol.js `cancellable`): a request
// whose table entry names a group runs as a job of that group; a newer job of the group cancels
// it, and cancel {target} finds it here by id. Cancellation takes effect between chunks: the
// job's code checks `job.cancelled` (throwIfCancelled) after each.
import {ErrorCodeNames, PartplayError} from '../common/errors.js';

/** The jobs in flight by id: {id, group, cancelled}. */
const jobs = new Map();

/** The group cancel without a target stops. */
const DEFAULT_GROUP = 'analysis';

/** Starts job `id` of `group`, cancelling the one of the group in flight. */
export function startJob(id, group) {
  for (const job of jobs.values()) if (job.group === group) job.cancelled = true;
  const job = {id, group, cancelled: false};
  jobs.set(id, job);
  return job;
}

export function endJob(job) {
  if (jobs.get(job.id) === job) jobs.delete(job.id);
}

/** Cancels job `target` (default: the analysis in flight); whether there was one. */
export function cancelJob(target) {
  for (const job of jobs.values()) {
    if (target === undefined ? job.group === DEFAULT_GROUP : job.id === target) {
      job.cancelled = true;
      return true;
    }
  }
  return false;
}

export function cancelledError(what = 'The analysis') {
  return new PartplayError({codeName: ErrorCodeNames.CANCELLED, message: `${what} was cancelled.`});
}

/** Throws the cancelled error once `job` is cancelled. */
export function throwIfCancelled(job) {
  if (job?.cancelled) throw cancelledError();
}
