// Flux's revisions, as its controllers write them: `main@sha1:<sha>` (Flux 2.x, RFC-0005),
// `sha1:<sha>`, `v1.2.0@sha256:<digest>` (an OCI artifact), `main/<sha>` (before Flux 0.40),
// and for a HelmRelease the chart's version (`6.5.3`, or `6.6.1+<digest's first 12>` from OCI).

/** What a revision names: a Git commit (and its branch or tag), or something else by its name. */
export type Revision =
  | { kind: 'commit'; sha: string; ref: string | undefined }
  | { kind: 'artifact'; name: string }

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/
const CURRENT = /^(?:(.+)@)?sha1:([0-9a-f]{40})$/
const LEGACY = /^(.+)\/([0-9a-f]{40})$/
const OCI = /^(.+)@(sha256|sha384|sha512):[0-9a-f]{64,128}$/

/** A revision as a commit where it names one; otherwise the readable part of it. */
export function parseRevision(text: string): Revision {
  const current = CURRENT.exec(text)
  if (current) return { kind: 'commit', sha: current[2] as string, ref: current[1] }
  const legacy = LEGACY.exec(text)
  if (legacy) return { kind: 'commit', sha: legacy[2] as string, ref: legacy[1] }
  if (SHA.test(text)) return { kind: 'commit', sha: text, ref: undefined }
  const oci = OCI.exec(text)
  if (oci) return { kind: 'artifact', name: oci[1] as string }
  return { kind: 'artifact', name: text }
}
