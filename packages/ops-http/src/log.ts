/** Where a process's log lines go. */
export type LogLine = (line: Record<string, unknown>) => void

/** Writes one JSON object per line to stdout: the only log format, easy to ship anywhere. */
export const logLine: LogLine = (line) => {
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', ...line }))
}
