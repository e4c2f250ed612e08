import { type Static, Type } from '@sinclair/typebox'
import type { Checked } from './checked.ts'
import type { Instant } from './date-time.ts'
import { FORMATS } from './formats.ts'
import type { FieldError } from './problem.ts'
import { notAhead } from './reported-time.ts'
import { checkText, isInvalid } from './text.ts'
import { checkWebUrl } from './web-url.ts'

/** At most this many commits per deployment: `shiplog notify` caps `git log` here and says so. */
export const MAX_DEPLOYMENT_COMMITS = 5_000

/**
 * How much history a deployment carries when Shiplog knows no earlier one of its application in
 * its environment: enough that a deployment before it, recorded later (a backfill in any order),
 * finds the commits it delivered; small enough to send on every first deployment. `shiplog
 * notify` sends this many from the checkout, and integrations derive as many from pushes.
 */
export const FIRST_DEPLOYMENT_HISTORY = 1_000

const SHA_PATTERN = '^[0-9a-fA-F]{40}([0-9a-fA-F]{24})?$'
const Sha = (description: string) =>
  Type.String({ pattern: SHA_PATTERN, description: `${description}: a full SHA-1 or SHA-256` })

/** At most this many characters of a commit's subject or author name. */
export const MAX_COMMIT_TEXT = 200

/** One commit a deployment delivered, as `git log` reports it. */
export const DeploymentCommit = Type.Object(
  {
    sha: Sha('The commit'),
    committedAt: Type.String({ format: 'date-time', description: 'Committer time' }),
    authoredAt: Type.String({ format: 'date-time', description: 'Author time' }),
    reverts: Type.Array(Sha('A commit it reverts'), {
      maxItems: 100,
      description: 'Commits its message reverts ("This reverts commit <sha>"); empty for most',
    }),
    subject: Type.Optional(
      Type.String({
        maxLength: MAX_COMMIT_TEXT,
        description: 'The first line of its message (git log %s); left out when not sent',
      }),
    ),
    author: Type.Optional(
      Type.String({
        maxLength: MAX_COMMIT_TEXT,
        description: 'Its author’s name (git log %an); left out when not sent',
      }),
    ),
  },
  { $id: 'DeploymentCommit', additionalProperties: false },
)
export type DeploymentCommit = Static<typeof DeploymentCommit>

/** `PUT /v1/deployments/{id}/commits`: every commit the deployment delivered. */
export const DeploymentCommitsInput = Type.Object(
  {
    commits: Type.Array(DeploymentCommit, {
      maxItems: MAX_DEPLOYMENT_COMMITS,
      description: 'git log <previous deployment>..<this commit>, newest first or in any order',
    }),
    truncated: Type.Optional(
      Type.Boolean({ description: 'True when the pipeline sent only the newest 5,000' }),
    ),
    webUrl: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https://',
        maxLength: 500,
        description:
          'The repository’s address on its code host (https, no credentials), for links to its commits',
        examples: ['https://github.com/acme/shop'],
      }),
    ),
  },
  { $id: 'DeploymentCommitsInput', additionalProperties: false },
)
export type DeploymentCommitsInput = Static<typeof DeploymentCommitsInput>

/** The commits stored for a deployment. */
export const DeploymentCommits = Type.Object(
  {
    deploymentId: Type.String({ format: 'uuid' }),
    truncated: Type.Boolean({ description: 'The pipeline capped the list at 5,000' }),
    webUrl: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: 'The repository’s address as sent with the list; a commit is at commitUrl of it',
    }),
    commits: Type.Array(DeploymentCommit),
  },
  { $id: 'DeploymentCommits' },
)
export type DeploymentCommits = Static<typeof DeploymentCommits>

/**
 * What Shiplog keeps of a commit's subject or author: one line without control characters, at
 * most MAX_COMMIT_TEXT code points; undefined when nothing is left. The CLI and the integrations
 * both send it so.
 */
export function commitTextLine(text: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const clean = [...text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()]
  return clean.length === 0 ? undefined : clean.slice(0, MAX_COMMIT_TEXT).join('').trim()
}

/** A commit checked and normalised: lower-case SHAs, instants. */
export interface ValidCommit {
  sha: string
  committedAt: Instant
  authoredAt: Instant
  reverts: string[]
  /** Null (or left out) when not sent. */
  subject?: string | null
  author?: string | null
}

/** A commits body, checked: what `PUT /v1/deployments/{id}/commits` stores. */
export interface CommitList {
  commits: ValidCommit[]
  truncated: boolean
  webUrl: string | null
}

const SHA = new RegExp(SHA_PATTERN)
const KNOWN = ['sha', 'committedAt', 'authoredAt', 'reverts', 'subject', 'author']

/**
 * Checks a commits body: every failing field named by its path (`commits[3].sha`), at most 20 of
 * them, so a list of 5,000 bad commits is not a megabyte of errors.
 */
export function validateDeploymentCommits(
  body: unknown,
  receivedAt: Date = new Date(),
): Checked<CommitList> {
  const nowMicros = BigInt(receivedAt.getTime()) * 1000n
  const errors: FieldError[] = []
  const fail = (field: string, message: string) =>
    errors.length < 20 && errors.push({ field, message })
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] }
  }
  const input = body as Record<string, unknown>
  for (const key of Object.keys(input)) {
    if (!['commits', 'truncated', 'webUrl'].includes(key)) fail(key, 'is not a known field')
  }
  if (input.truncated !== undefined && typeof input.truncated !== 'boolean') {
    fail('truncated', 'must be true or false')
  }
  const webUrl =
    input.webUrl == null
      ? null
      : typeof input.webUrl === 'string'
        ? checkWebUrl(input.webUrl)
        : undefined
  if (webUrl === undefined) fail('webUrl', 'must be a string: the repository’s https address')
  else if (isInvalid(webUrl)) fail('webUrl', webUrl.error)
  if (!Array.isArray(input.commits)) {
    fail('commits', 'is required: an array of commits')
    return { ok: false, errors }
  }
  if (input.commits.length > MAX_DEPLOYMENT_COMMITS) {
    fail(
      'commits',
      `must hold at most ${MAX_DEPLOYMENT_COMMITS} commits: send the newest, with "truncated": true`,
    )
    return { ok: false, errors }
  }
  const commits: ValidCommit[] = []
  const seen = new Set<string>()
  input.commits.forEach((raw, index) => {
    const at = `commits[${index}]`
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      fail(at, 'must be an object with sha, committedAt, authoredAt and reverts')
      return
    }
    const commit = raw as Record<string, unknown>
    for (const key of Object.keys(commit)) {
      if (!KNOWN.includes(key)) fail(`${at}.${key}`, 'is not a known field')
    }
    const sha =
      typeof commit.sha === 'string' && SHA.test(commit.sha) ? commit.sha.toLowerCase() : undefined
    if (!sha) fail(`${at}.sha`, 'must be a full commit SHA: 40 (or 64) hexadecimal digits')
    else if (seen.has(sha)) fail(`${at}.sha`, 'is listed twice')
    else seen.add(sha)
    const time = (name: 'committedAt' | 'authoredAt') => {
      const value = commit[name]
      const parsed = typeof value === 'string' ? FORMATS['date-time'](value.trim()) : undefined
      if (parsed === undefined || isInvalid(parsed)) {
        fail(`${at}.${name}`, parsed ? parsed.error : 'must be an RFC 3339 date-time with a zone')
        return undefined
      }
      // Bounded as a deployment's deployedAt is: a commit made in year 9999 would make every
      // lead time through it negative.
      const reported = notAhead(parsed, nowMicros)
      if (isInvalid(reported)) {
        fail(`${at}.${name}`, reported.error)
        return undefined
      }
      return reported
    }
    const committedAt = time('committedAt')
    const authoredAt = time('authoredAt')
    // Optional text: a blank one is as good as none.
    const line = (name: 'subject' | 'author') => {
      const value = commit[name]
      if (value === undefined || value === null) return null
      const checked = typeof value === 'string' ? checkText(value, MAX_COMMIT_TEXT) : undefined
      if (checked === undefined || isInvalid(checked)) {
        fail(`${at}.${name}`, checked ? checked.error : 'must be a string')
        return undefined
      }
      return checked === '' ? null : checked
    }
    const subject = line('subject')
    const author = line('author')
    const reverts = commit.reverts ?? []
    const validReverts =
      Array.isArray(reverts) &&
      reverts.length <= 100 &&
      reverts.every((r) => typeof r === 'string' && SHA.test(r))
    if (!validReverts) fail(`${at}.reverts`, 'must be an array of at most 100 full commit SHAs')
    if (
      sha &&
      committedAt &&
      authoredAt &&
      validReverts &&
      subject !== undefined &&
      author !== undefined
    ) {
      commits.push({
        sha,
        committedAt,
        authoredAt,
        reverts: (reverts as string[]).map((r) => r.toLowerCase()),
        subject,
        author,
      })
    }
  })
  if (errors.length > 0) return { ok: false, errors }
  const list = { commits, truncated: input.truncated === true, webUrl: webUrl as string | null }
  return { ok: true, value: list }
}
