/** Writes one JSON object per line to stdout: the only log format, easy to ship anywhere. */
export function logLine(line: Record<string, unknown>): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', ...line }))
}
