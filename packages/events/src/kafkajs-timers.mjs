/**
 * A fix to kafkajs 2.2.4 (its last release; kafkajs issue 1751), applied where it is loaded:
 * imported for its effect by every module of this repository that creates a kafkajs client.
 * Plain JavaScript, so that the stack scripts load it without a TypeScript loader.
 *
 * Each broker connection's request queue sets its next check from an absolute time,
 * `throttledUntil - Date.now()`, with `throttledUntil = -1` when the broker never throttled us:
 * a delay of minus the epoch in ms. Node clamps it to 1 ms (Node 24 also prints
 * `TimeoutNegativeWarning`), and since each check schedules the next one, every idle connection
 * woke its process every millisecond for nothing. A check is only needed while requests wait
 * in the queue; the wait is then the throttle's end, or kafkajs' own 10 ms poll.
 */
import RequestQueue from 'kafkajs/src/network/requestQueue/index.js';

/** kafkajs' CHECK_PENDING_REQUESTS_INTERVAL (not exported). */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

const original = RequestQueue.prototype.scheduleCheckPendingRequests;
// Only the code this replaces: a kafkajs that no longer computes the delay so is left alone.
if (original.toString().includes('this.throttledUntil - Date.now()')) {
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests() {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const untilThrottleEnds = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      untilThrottleEnds > 0 ? untilThrottleEnds : CHECK_PENDING_REQUESTS_INTERVAL_MS,
    );
  };
}
