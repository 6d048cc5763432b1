/**
 * The page's own time, moved by the test (Playwright's clock): a screen that waits a given time is measured in the
 * page's milliseconds, whatever the machine's load does to the wall clock (docs/testing.md, issue 46).
 */
import type { Page, Request } from 'playwright-core';

/**
 * Stops the page's timers where they are (its clock must have been installed before it loaded). Pausing names a
 * moment ahead and jumps there, firing what falls due on the way: call it before the page has timers that matter,
 * then move the clock with {@link tickPageClock} and {@link runPageClockUntil}.
 */
export async function pausePageClock(page: Page): Promise<void> {
  // A moment ahead of the page's own now: the pause may not go back in time, and on a loaded machine the call can
  // arrive after the moment it named; then again, further ahead.
  for (let aheadMs = 250; ; aheadMs *= 4) {
    try {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + aheadMs);
      return;
    } catch (error) {
      if (!/to the past/.test(String(error)) || aheadMs > 16_000) throw error;
    }
  }
}

/** Lets the page run what is queued outside its timers (React renders on message events, which the clock holds not). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(0);
      }),
  );
}

/**
 * The page's requests in flight, event streams left out (they stay open by design): what a page that waits on the
 * network is waiting for.
 */
function requestsInFlight(page: Page): { count(): number; stop(): void } {
  const open = new Set<Request>();
  const started = (request: Request) => {
    if (request.resourceType() !== 'eventsource') open.add(request);
  };
  const ended = (request: Request) => open.delete(request);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    count: () => open.size,
    stop() {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}

/**
 * Moves the paused page clock on in `sliceMs` steps until `done()` holds, and answers how much page time that
 * took (a multiple of `sliceMs`). While the page waits on the network (a route's code, an API answer), its time
 * stands still: how long the machine takes to answer is the machine's, not the page's. Fails once `maxPageMs` of
 * page time or `realMs` of wall time have passed.
 */
export async function runPageClockUntil(
  page: Page,
  done: () => Promise<boolean> | boolean,
  what: string,
  options: { sliceMs?: number; maxPageMs: number; realMs?: number },
): Promise<number> {
  const sliceMs = options.sliceMs ?? 100;
  const giveUpAt = Date.now() + (options.realMs ?? 30_000);
  const inFlight = requestsInFlight(page);
  try {
    let pageMs = 0;
    while (!(await done())) {
      if (pageMs >= options.maxPageMs || Date.now() > giveUpAt) {
        throw new Error(`${what}: not after ${pageMs} ms of page time`);
      }
      if (inFlight.count() > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await settle(page);
        continue;
      }
      await page.clock.runFor(sliceMs);
      pageMs += sliceMs;
      await settle(page);
    }
    return pageMs;
  } finally {
    inFlight.stop();
  }
}

/**
 * Moves the paused page clock on with the wall clock, in small steps, so the page runs as usual while the test
 * keeps the clock in hand; `stop()` freezes page time where it is, with no jump, for {@link runPageClockUntil}.
 * Ticking also ends when the page closes or the clock can no longer be moved: a test that fails before `stop()`
 * must not leave a loop that keeps its file's process alive (a CI run once waited 70 minutes on one).
 */
export function tickPageClock(page: Page): { stop(): Promise<void> } {
  let stopped = false;
  const ticking = (async () => {
    // Each step is the wall time since the last: on a loaded machine, where a step and the pause after it take
    // longer, page time still keeps pace with the servers' (a lender deciding after 8 s), never falling behind it.
    let last = Date.now();
    while (!stopped && !page.isClosed()) {
      const now = Date.now();
      try {
        await page.clock.runFor(Math.max(1, now - last));
      } catch (error) {
        // A navigation in flight can refuse one step; a closed page or browser refuses every one.
        if (page.isClosed() || !/navigat|context was destroyed/i.test(String(error))) return;
      }
      last = now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await ticking;
    },
  };
}
