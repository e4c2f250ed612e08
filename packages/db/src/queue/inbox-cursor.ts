// How far back of the newest id taken a walk of the inbox starts. Ids are UUIDv7 of the instant
// the API received the request, and a group commit lands within milliseconds of it, so a row
// committed late (a slow commit, two API replicas) still has an id inside this window.
const WINDOW_MS = 2_000
// How often a walk starts from the first id instead: rows put back by a worker that died, and
// any committed later than the window, are taken then.
const SWEEP_MS = 10_000

/**
 * Where the next walk of the inbox starts (see `takeFromInbox`): a little before the newest id
 * taken, and from the first id at start, after a rollback and every `SWEEP_MS`. Without it a
 * snapshot held open makes every batch step over all the deleted rows it cannot see removed.
 */
export class InboxCursor {
  private newestMs: number | undefined
  private sweptAt = 0

  /** The id to start after, or undefined for a walk from the first id. */
  start(now = Date.now()): string | undefined {
    if (this.newestMs === undefined || now - this.sweptAt >= SWEEP_MS) {
      this.sweptAt = now
      return undefined
    }
    return uuidAtMs(Math.max(0, this.newestMs - WINDOW_MS))
  }

  /** Notes the ids a batch took. */
  advance(ids: string[]): void {
    for (const id of ids) {
      const ms = msOf(id)
      if (ms !== undefined && (this.newestMs === undefined || ms > this.newestMs))
        this.newestMs = ms
    }
  }

  /** A batch rolled back: its rows are back, so the next walk starts from the first id. */
  rewind(): void {
    this.newestMs = undefined
  }
}

/** The instant in a UUIDv7 (its first 48 bits), undefined for any other version. */
function msOf(id: string): number | undefined {
  if (id[14] !== '7') return undefined
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)
}

/** The lowest UUID of an instant: every UUIDv7 of that millisecond or later sorts after it. */
function uuidAtMs(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`
}
