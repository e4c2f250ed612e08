// Checks the links of the repository's Markdown as GitHub renders them: a relative link must
// name a file that exists, its #anchor a heading of that file, an image a file; an external link
// can only be checked for form here (there is no network in CI).
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, extname, join, relative, resolve } from 'node:path'

/** A link as written in a Markdown file. */
export interface MarkdownLink {
  target: string
  line: number
  image: boolean
}

/** A link that does not resolve, and why. */
export interface BrokenLink {
  file: string
  line: number
  target: string
  problem: string
}

const FENCED = /^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm
const blank = (text: string) => text.replace(/[^\n]/g, ' ')

/** The text of a Markdown file without fenced code blocks and code spans, lines kept in place. */
function withoutCode(markdown: string): string {
  return markdown.replace(FENCED, blank).replace(/(`+)[^\n]*?\1/g, blank)
}

/** The inline links, images, autolinks and link definitions of a Markdown text, outside code. */
export function linksOf(markdown: string): MarkdownLink[] {
  const text = withoutCode(markdown)
  const lineAt = (index: number) => text.slice(0, index).split('\n').length
  const links: MarkdownLink[] = []
  const found = (pattern: RegExp, image: (match: RegExpMatchArray) => boolean) => {
    for (const match of text.matchAll(pattern)) {
      const target = match.groups?.target ?? ''
      links.push({ target, line: lineAt(match.index ?? 0), image: image(match) })
    }
  }
  // Link text may wrap over lines and hold one level of brackets; a title may follow the target.
  found(
    /(?<bang>!?)\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*<?(?<target>[^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g,
    (match) => match.groups?.bang === '!',
  )
  found(/<(?<target>https?:\/\/[^>\s]+)>/g, () => false)
  found(/^ {0,3}\[[^\]]+\]:\s*<?(?<target>[^>\s]+)>?/gm, () => false)
  return links
}

/** The anchor GitHub gives a heading's text (github-slugger's rule). */
export function slugOf(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]|(^|\s)_+|_+(\s|$)/g, '$1$2')
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor a Markdown file has: its headings' slugs (repeats numbered) and its HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  // Headings keep their code spans (they count in the slug); a fenced `# line` is no heading.
  for (const match of markdown
    .replace(FENCED, blank)
    .matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    const slug = slugOf(match[1] ?? '')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  for (const match of markdown.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) {
    if (match[1]) anchors.add(match[1])
  }
  return anchors
}

function externalProblem(target: string): string | undefined {
  try {
    const url = new URL(target)
    return url.hostname.includes('.') ? undefined : 'has no host with a domain'
  } catch {
    return 'is not a valid URL'
  }
}

/** What is wrong with one link of `file` (an absolute path inside `root`), if anything. */
function problemOf(root: string, file: string, link: MarkdownLink): string | undefined {
  const { target } = link
  if (target === '') return 'is empty'
  if (/^https?:/i.test(target)) return externalProblem(target)
  if (/^mailto:/i.test(target))
    return /^mailto:[^@\s]+@[^@\s]+$/i.test(target) ? undefined : 'is not an address'
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'uses a scheme other than http(s) or mailto'
  const [pathPart = '', anchor] = target.split('#', 2)
  const path = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart))
  if (relative(root, path).startsWith('..')) return 'points outside the repository'
  if (!existsSync(path)) return 'names a file that does not exist'
  if (link.image && !statSync(path).isFile()) return 'is an image that is not a file'
  if (anchor === undefined) return undefined
  if (extname(path) !== '.md') return 'has an anchor on a file that is not Markdown'
  if (!anchorsOf(readFileSync(path, 'utf8')).has(decodeURIComponent(anchor))) {
    return `names #${anchor}, which no heading of ${relative(root, path)} has`
  }
  return undefined
}

/** Every link of the Markdown `files` (paths relative to `root`) that does not resolve. */
export function brokenLinks(root: string, files: string[]): BrokenLink[] {
  return files.flatMap((file) => {
    const absolute = join(root, file)
    return linksOf(readFileSync(absolute, 'utf8')).flatMap((link) => {
      const problem = problemOf(root, absolute, link)
      return problem ? [{ file, line: link.line, target: link.target, problem }] : []
    })
  })
}
