import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { anchorsOf, brokenLinks, linksOf, slugOf } from './doc-links.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The Markdown a reader follows: the README, docs/, and the Kubernetes guides. */
function documentation(): string[] {
  const matching = (pattern: string) =>
    [...new Bun.Glob(pattern).scanSync({ cwd: ROOT })].filter(
      (file) => !file.includes('node_modules'),
    )
  return ['README.md', ...matching('docs/*.md'), ...matching('infra/**/*.md')]
}

test('every link of the README and docs/ resolves: files, anchors, images', () => {
  const files = documentation()
  expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'infra/README.md']))
  expect(brokenLinks(ROOT, files)).toEqual([])
})

describe('anchors as GitHub makes them', () => {
  test.each([
    ['How Shiplog computes DORA', 'how-shiplog-computes-dora'],
    ['API (`apps/api/src/env.ts`)', 'api-appsapisrcenvts'],
    ['Any shell: Buildkite, CircleCI and others', 'any-shell-buildkite-circleci-and-others'],
    ['Duplicates and Idempotency-Key', 'duplicates-and-idempotency-key'],
    ['Reads on a replica', 'reads-on-a-replica'],
    ['Café, **bold** and _slanted_ [linked](x.md)', 'café-bold-and-slanted-linked'],
    ['snake_case stays', 'snake_case-stays'],
    ['Two  spaces', 'two--spaces'],
  ])('%p has the anchor #%s', (heading, slug) => {
    expect(slugOf(heading)).toBe(slug)
  })

  test('a repeated heading is numbered; a line in a fence is no heading; an HTML id counts', () => {
    const markdown = [
      '# Notes',
      '## Notes',
      '### Notes #',
      '```sh',
      '# not a heading',
      '```',
      '<a id="kept-here"></a>',
    ].join('\n')
    expect([...anchorsOf(markdown)]).toEqual(['notes', 'notes-1', 'notes-2', 'kept-here'])
  })
})

test('links are read from text, wrapped or titled, never from code', () => {
  const markdown = [
    'See [the API](docs/api.md) and [a wrapped',
    'link text](docs/dora.md#change-type "DORA").',
    '![A chart](docs/screenshots/dora.png) <https://dora.dev/guides>',
    '`[in a code span](nowhere.md)`',
    '```md',
    '[in a fence](nowhere.md)',
    '```',
    '[ref]: docs/testing.md',
  ].join('\n')
  expect(linksOf(markdown)).toEqual([
    { target: 'docs/api.md', line: 1, image: false },
    { target: 'docs/dora.md#change-type', line: 1, image: false },
    { target: 'docs/screenshots/dora.png', line: 3, image: true },
    { target: 'https://dora.dev/guides', line: 3, image: false },
    { target: 'docs/testing.md', line: 8, image: false },
  ])
})

describe('a broken link is named with its file, line and what is wrong', () => {
  let root: string

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'shiplog-links-'))
    await mkdir(join(root, 'docs', 'pictures'), { recursive: true })
    await writeFile(join(root, 'docs', 'pictures', 'chart.png'), 'not really a png')
    await writeFile(join(root, 'docs', 'other.md'), '# Other\n\n## Section one\n')
    await writeFile(
      join(root, 'docs', 'guide.md'),
      [
        '# Guide',
        '[fine](other.md#section-one) [fine too](#guide) [a folder](pictures/)',
        '[no file](missing.md) [no heading](other.md#section-two) [no anchor here](#nowhere)',
        '![fine](pictures/chart.png) ![no image](pictures/gone.png)',
        '[fine](https://example.com/a?b=c) [no host](https://) [local](http://localhost/x)',
        '[outside](../../etc/passwd) [anchor on an image](pictures/chart.png#top)',
        '[other scheme](ftp://example.com/file) [empty]()',
      ].join('\n'),
    )
  })

  afterAll(() => rm(root, { recursive: true, force: true }))

  test('each problem once, the good links passing', () => {
    const broken = (line: number, target: string, problem: string) => ({
      file: 'docs/guide.md',
      line,
      target,
      problem,
    })
    expect(brokenLinks(root, ['docs/guide.md'])).toEqual([
      broken(3, 'missing.md', 'names a file that does not exist'),
      broken(
        3,
        'other.md#section-two',
        'names #section-two, which no heading of docs/other.md has',
      ),
      broken(3, '#nowhere', 'names #nowhere, which no heading of docs/guide.md has'),
      broken(4, 'pictures/gone.png', 'names a file that does not exist'),
      broken(5, 'https://', 'is not a valid URL'),
      broken(5, 'http://localhost/x', 'has no host with a domain'),
      broken(6, '../../etc/passwd', 'points outside the repository'),
      broken(6, 'pictures/chart.png#top', 'has an anchor on a file that is not Markdown'),
      broken(7, 'ftp://example.com/file', 'uses a scheme other than http(s) or mailto'),
      broken(7, '', 'is empty'),
    ])
  })
})
