/**
 * When this process expects each of its delayed polls to run, for the poll-lateness metric. A poll picked up by
 * another worker is simply not measured here; entries are dropped when read, or all at once when the map grows
 * too big (checked every minute until `close`).
 */
export class PollSchedule {
  private readonly due = new Map<string, number>();
  private readonly sweep = setInterval(() => {
    if (this.due.size > 100_000) this.due.clear();
  }, 60_000).unref();

  expect(leadId: string, dueAt: number): void {
    this.due.set(leadId, dueAt);
  }

  /** When the lead's poll was due, if this process scheduled it; forgets it. */
  take(leadId: string): number | undefined {
    const dueAt = this.due.get(leadId);
    this.due.delete(leadId);
    return dueAt;
  }

  close(): void {
    clearInterval(this.sweep);
    this.due.clear();
  }
}
