// Package URLs (https://github.com/package-url/purl-spec), as CDEvents name the artifact a
// service runs: `pkg:oci/checkout@sha256%3A0b31…?repository_url=ghcr.io/acme/checkout&tag=v1.4.2`.
// Only what a deployment needs is read: the name, the version, and the qualifiers.

/** The parts of a package URL that name what was deployed. */
export interface PackageUrl {
  type: string
  name: string
  version: string | undefined
  qualifiers: Record<string, string>
}

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/** A `pkg:` URL's type, name, version and qualifiers; undefined for anything else. */
export function parsePackageUrl(text: string): PackageUrl | undefined {
  if (!text.toLowerCase().startsWith('pkg:')) return undefined
  const withoutSubpath = text.slice(4).split('#')[0] ?? ''
  const [path = '', query = ''] = withoutSubpath.split('?', 2)
  const at = path.lastIndexOf('@')
  const location = at === -1 ? path : path.slice(0, at)
  const rawVersion = at === -1 ? undefined : path.slice(at + 1)
  const segments = location.replace(/^\/+/, '').split('/').filter(Boolean)
  const [type, ...rest] = segments
  const rawName = rest.at(-1)
  if (type === undefined || rawName === undefined) return undefined
  const name = decode(rawName)
  const version = rawVersion === undefined || rawVersion === '' ? undefined : decode(rawVersion)
  if (name === undefined || name === '') return undefined
  const qualifiers: Record<string, string> = {}
  for (const pair of query.split('&')) {
    const [key, value] = pair.split('=', 2)
    const decoded = value === undefined ? undefined : decode(value)
    if (key && decoded !== undefined && decoded !== '') qualifiers[key.toLowerCase()] = decoded
  }
  return { type: type.toLowerCase(), name, version, qualifiers }
}

const DIGEST = /^(sha256|sha512|sha1):([0-9a-f]{12,})$/i

/**
 * The version a person reads: the purl's `tag` qualifier, else its version, with an image
 * digest shortened to its algorithm and first 12 hex digits (`sha256:0b31b1c02ff4`), as
 * registries show it; never past `maxLength`.
 */
export function readableVersion(purl: PackageUrl, maxLength: number): string | undefined {
  const chosen = purl.qualifiers.tag ?? purl.version
  if (chosen === undefined) return undefined
  const digest = DIGEST.exec(chosen)
  const readable = digest
    ? `${digest[1]?.toLowerCase()}:${digest[2]?.slice(0, 12).toLowerCase()}`
    : chosen
  return [...readable].slice(0, maxLength).join('')
}
