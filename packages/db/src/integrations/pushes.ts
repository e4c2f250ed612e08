import type { Tx } from '../client.ts'
import { uuidv7 } from '../uuidv7.ts'

/** A push to a default branch, as an integration read it (`@shiplog/integrations/push`). */
export interface StoredPushInput {
  workspaceId: string
  repositoryKey: string
  before: string
  after: string
  forced: boolean
  total: number
  webUrl: string | null
  receivedAt: Date
  /** Oldest first. */
  commits: PushedCommitRow[]
}

/**
 * Stores a push and its commits, and sends every deployment of the repository whose commits were
 * unknown back to be derived again: this push may be the one they lacked.
 */
export async function storePush(tx: Tx, push: StoredPushInput): Promise<void> {
  const id = uuidv7()
  await tx`
    insert into pushes (id, workspace_id, repository_key, before_sha, after_sha, forced, listed,
                        total, web_url, received_at)
    values (${id}, ${push.workspaceId}, ${push.repositoryKey}, ${push.before}, ${push.after},
            ${push.forced}, ${push.commits.length}, ${push.total}, ${push.webUrl},
            ${push.receivedAt})`
  if (push.commits.length > 0) {
    const column = <K extends keyof StoredPushInput['commits'][number]>(key: K) =>
      push.commits.map((commit) => commit[key])
    await tx`
      insert into pushed_commits (push_id, position, workspace_id, repository_key, sha,
                                  committed_at, authored_at, subject, author, message)
      select ${id}, ordinality - 1, ${push.workspaceId}, ${push.repositoryKey}, sha,
             committed::timestamptz, authored::timestamptz, subject, author, message
        from unnest(${column('sha')}::text[], ${column('committedAt')}::text[],
                    ${column('authoredAt')}::text[], ${column('subject')}::text[],
                    ${column('author')}::text[], ${column('message')}::text[])
             with ordinality as given(sha, committed, authored, subject, author, message)`
  }
  await tx`
    update commit_chains set state = 'waiting', reason = null, updated_at = now()
     where workspace_id = ${push.workspaceId} and repository_key = ${push.repositoryKey}
       and state = 'unknown'`
}

/** The push a chain steps through at a commit, and where the commit is in its list. */
export interface PushStep {
  id: string
  before: string
  after: string
  forced: boolean
  listed: number
  total: number
  /** The commit's place in the push's list (oldest 0); `listed - 1` where the push ends at it. */
  position: number
}

/**
 * The push to step through at `sha`: one that ended at it, else one that listed it. Several may
 * (a redelivered push, a branch reset to a commit pushed before): a push that was not forced and
 * listed all its commits is preferred, so the chain is the same whichever arrived first.
 */
export async function pushStepAt(
  tx: Tx,
  workspaceId: string,
  repositoryKey: string,
  sha: string,
): Promise<PushStep | undefined> {
  const [step] = await tx<PushStep[]>`
    select * from (
      select p.id::text as id, p.before_sha as before, p.after_sha as after, p.forced, p.listed,
             p.total, p.listed - 1 as position, p.received_at
        from pushes p
       where p.workspace_id = ${workspaceId} and p.repository_key = ${repositoryKey}
         and p.after_sha = ${sha}
      union all
      select p.id::text, p.before_sha, p.after_sha, p.forced, p.listed, p.total, c.position,
             p.received_at
        from pushed_commits c join pushes p on p.id = c.push_id
       where c.workspace_id = ${workspaceId} and c.repository_key = ${repositoryKey}
         and c.sha = ${sha}) steps
     order by forced, listed < total, position = listed - 1 desc, before, id
     limit 1`
  return step
}

/** One commit of a push, as a deployment's list takes it. */
export interface PushedCommitRow {
  sha: string
  committedAt: string
  authoredAt: string
  subject: string | null
  author: string | null
  message: string
}

/** A push's commits up to `position`, newest first. */
export async function pushedCommitsUpTo(
  tx: Tx,
  pushId: string,
  position: number,
): Promise<PushedCommitRow[]> {
  return tx<PushedCommitRow[]>`
    select sha, iso_utc(committed_at) as "committedAt", iso_utc(authored_at) as "authoredAt",
           subject, author, message
      from pushed_commits
     where push_id = ${pushId}::uuid and position <= ${position}
     order by position desc`
}

/**
 * The one pushed commit of the repository a revert names: by an abbreviated SHA, or by its
 * subject (GitHub's `Revert "<subject>"`, with or without a squash merge's ` (#N)`). Undefined
 * for none or several.
 */
export async function findRevertTarget(
  tx: Tx,
  workspaceId: string,
  repositoryKey: string,
  by: { shaPrefix: string } | { subjects: string[] },
): Promise<string | undefined> {
  const found =
    'shaPrefix' in by
      ? await tx<{ sha: string }[]>`
          select distinct sha from pushed_commits
           where workspace_id = ${workspaceId} and repository_key = ${repositoryKey}
             and sha like ${`${by.shaPrefix.toLowerCase()}%`}
           limit 2`
      : await tx<{ sha: string }[]>`
          select distinct sha from pushed_commits
           where workspace_id = ${workspaceId} and repository_key = ${repositoryKey}
             and subject = any(${by.subjects}::text[])
           limit 2`
  return found.length === 1 ? found[0]?.sha : undefined
}

/** The repository's web address, as its latest push gave it. */
export async function repositoryWebUrl(
  tx: Tx,
  workspaceId: string,
  repositoryKey: string,
): Promise<string | null> {
  const [row] = await tx<{ webUrl: string | null }[]>`
    select web_url as "webUrl" from pushes
     where workspace_id = ${workspaceId} and repository_key = ${repositoryKey}
       and web_url is not null
     order by received_at desc limit 1`
  return row?.webUrl ?? null
}
