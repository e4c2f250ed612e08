import type { Comparison } from '@shiplog/schema'

// Markdown that means what it says wherever it is pasted: characters that would start markup in
// a subject or a name are escaped.
const escapeMarkdown = (text: string) => text.replace(/[\\`*_{}[\]()<>#+|!~-]/g, '\\$&')

const day = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

/**
 * A comparison as release notes (`Accept: text/markdown`): a heading, what each side runs, and
 * one line per commit waiting, newest first, linked to its code host when the pipeline said where.
 */
export function releaseNotes(comparison: Comparison): string {
  const { from, to, commits } = comparison
  const side = (each: Comparison['from']) =>
    each.deployment
      ? `${escapeMarkdown(each.environment)} runs ${escapeMarkdown(each.deployment.version)} (${each.deployment.commitHash === null ? 'commit unknown' : `\`${each.deployment.commitHash.slice(0, 12)}\``}, deployed ${day(each.deployment.deployedAt)})`
      : `${escapeMarkdown(each.environment)} has no deployment of it yet`
  const lines = [
    `# ${escapeMarkdown(comparison.app)}: ${escapeMarkdown(from.environment)} → ${escapeMarkdown(to.environment)}`,
    '',
    `${side(from)}; ${side(to)}.`,
    '',
    commits.length === 0
      ? `Nothing waits: ${escapeMarkdown(to.environment)} has every commit ${escapeMarkdown(from.environment)} has.`
      : `${commits.length} ${commits.length === 1 ? 'commit waits' : 'commits wait'}, in ${comparison.deployments.length} ${comparison.deployments.length === 1 ? 'deployment' : 'deployments'} of ${escapeMarkdown(from.environment)}:`,
    '',
    ...commits.map((commit) => {
      const short = `\`${commit.sha.slice(0, 12)}\``
      const sha = commit.url ? `[${short}](${commit.url})` : short
      const subject = commit.subject ? escapeMarkdown(commit.subject) : '(no subject sent)'
      const author = commit.author ? ` — ${escapeMarkdown(commit.author)}` : ''
      return `- ${subject} (${sha})${author}`
    }),
  ]
  if (comparison.reason) lines.push('', `_Incomplete: ${escapeMarkdown(comparison.reason)}_`)
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`
}
