import { describe, expect, test } from 'bun:test'
import { isInvalid } from './text.ts'
import { checkWebUrl, commitUrl } from './web-url.ts'

describe('checkWebUrl', () => {
  test.each([
    ['https://github.com/acme/shop', 'https://github.com/acme/shop'],
    ['https://github.com/acme/shop.git', 'https://github.com/acme/shop'],
    [' https://gitlab.example.com/group/sub/app/ ', 'https://gitlab.example.com/group/sub/app'],
  ])('%p is kept as %p', (raw, kept) => {
    expect(checkWebUrl(raw)).toBe(kept)
  })

  test.each([
    'http://github.com/acme/shop',
    'https://x-access-token:ghs_secret@github.com/acme/shop',
    'https://github.com/acme/shop?tab=code',
    'https://github.com/acme/shop#readme',
    'git@github.com:acme/shop.git',
    'javascript:alert(1)',
    'https://github.com/acme/sh op',
    `https://github.com/${'a'.repeat(500)}`,
  ])('%p is refused', (raw) => {
    expect(isInvalid(checkWebUrl(raw))).toBe(true)
  })
})

describe('commitUrl', () => {
  const sha = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'
  test.each([
    ['https://github.com/acme/shop', `https://github.com/acme/shop/commit/${sha}`],
    ['https://gitea.example.com/acme/shop', `https://gitea.example.com/acme/shop/commit/${sha}`],
    ['https://gitlab.com/acme/shop', `https://gitlab.com/acme/shop/-/commit/${sha}`],
    ['https://bitbucket.org/acme/shop', `https://bitbucket.org/acme/shop/commits/${sha}`],
  ])('%p links a commit as %p', (webUrl, url) => {
    expect(commitUrl(webUrl, sha)).toBe(url)
  })
})
