/**
 * The matching key of an environment, application or repository name: `Production` and
 * `production` are one environment. Folded here, in one place, rather than by the database's
 * collation, so every process and every database agrees on what "the same name" means.
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}
