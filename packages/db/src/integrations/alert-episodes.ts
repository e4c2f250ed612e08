// An Alertmanager group's incidents, from every alert it was seen to hold: one incident per run
// of overlapping alerts. An alert is its fingerprint and start (a re-fire starts anew); it ends
// when it was seen resolved, or when the whole group was (a row with fingerprint '', its time the
// end: a resolved notification covers the alerts it truncated). A run ends when every alert in it
// has ended; an alert starting after that opens the next run. The same rows give the same runs in
// whatever order they were seen.

/** A row of alert_group_alerts, times as RFC 3339 UTC (comparable as text). */
export interface AlertRow {
  fingerprint: string
  startsAt: string
  endsAt: string | null
}

/** One run: when its first alert started, when its last one started, when all had ended. */
export interface Episode {
  startedAt: string
  lastStart: string
  /** Null while an alert of it fires. */
  resolvedAt: string | null
}

const GROUP_RESOLVED = ''

/** The later of two times written alike (RFC 3339 UTC, one width), compared as texts. */
export const latestOf = (a: string, b: string): string => [a, b].sort()[1] as string
/** The earlier of two such times. */
export const earliestOf = (a: string, b: string): string => [a, b].sort()[0] as string

/** The group's runs of alerts, in time order. */
export function alertGroupEpisodes(rows: AlertRow[]): Episode[] {
  const resolutions = rows
    .filter((row) => row.fingerprint === GROUP_RESOLVED && row.endsAt !== null)
    .map((row) => row.endsAt as string)
    .sort()
  // An alert not seen resolved ended at the group's first resolution at or after its start.
  const endOf = (alert: AlertRow) =>
    alert.endsAt ?? resolutions.find((resolved) => resolved >= alert.startsAt) ?? null
  const alerts = rows
    .filter((row) => row.fingerprint !== GROUP_RESOLVED)
    .map((row) => ({ startsAt: row.startsAt, endsAt: endOf(row) }))
    .sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0))
  const episodes: Episode[] = []
  let current: Episode | undefined
  for (const alert of alerts) {
    if (current && current.resolvedAt !== null && alert.startsAt > current.resolvedAt) {
      episodes.push(current)
      current = undefined
    }
    if (!current) {
      current = { startedAt: alert.startsAt, lastStart: alert.startsAt, resolvedAt: alert.endsAt }
      continue
    }
    current.lastStart = alert.startsAt
    current.resolvedAt =
      current.resolvedAt === null || alert.endsAt === null
        ? null
        : latestOf(alert.endsAt, current.resolvedAt)
  }
  if (current) episodes.push(current)
  return episodes
}
