import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { git } from './git-repo.ts'

/**
 * Three weeks of a project with the shapes of a real one, in a git repository of its own: pull
 * requests merged with a merge commit and squash-merged, GitHub's Revert button on a
 * squash-merged pull request (`Revert "<title>" (#4)`, `Reverts acme/shop#2`, no SHA), `git
 * revert`, a revert of that revert made with GitHub's button (its subject only), a release that
 * ships a commit and its revert together, a rollback just after May's end, and a rollback after
 * which a revert is delivered again. Times are UTC; each commit's committer and author times are
 * the same.
 *
 * Commits on main (committer time):
 *   a1  05-18 08:00  Initial shop
 *   b1  05-18 11:00  Cart model        (branch cart)
 *   b2  05-18 12:00  Cart page         (branch cart)
 *   m1  05-19 09:00  Merge pull request #1 from acme/cart (Add cart)
 *   s2  05-19 10:00  Add coupons (#2)  (squash-merged: its branch's k1 is not on main)
 *   c3  05-20 06:00  Faster search
 *   r4  05-21 09:00  Revert "Add coupons" (#4), body "Reverts acme/shop#2": reverts s2
 *   c5  05-25 11:00  Bulk pricing
 *   r6  05-26 09:00  git revert of c5
 *   rr7 05-27 04:00  Revert "Revert "Bulk pricing"" (GitHub's button, no body): re-applies c5
 *   c8  05-28 09:00  Gift cards
 *   r8  05-28 10:00  git revert of c8
 *   c9  05-31 20:00  New checkout
 *   c11 06-02 09:00  Wishlist
 *   r12 06-03 09:00  git revert of c11
 *   c14 06-04 08:00  Fix wishlist
 */
export async function buildRealHistory(dir: string) {
  const repo = join(dir, 'shop')
  await git(dir, ['init', '--quiet', '-b', 'main', repo])
  const dated = (at: string) => ({
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    GIT_AUTHOR_DATE: `2026-${at}:00Z`,
    GIT_COMMITTER_DATE: `2026-${at}:00Z`,
  })
  const head = () => git(repo, ['rev-parse', 'HEAD'])
  const commit = async (file: string, at: string, message: string) => {
    await writeFile(join(repo, file), `${message}\n`)
    await git(repo, ['add', file])
    await git(repo, ['commit', '--quiet', '-m', message], dated(at))
    return head()
  }
  /** `git revert`, with the message git writes unless one is given (GitHub's button's). */
  const revert = async (sha: string, at: string, message?: string) => {
    if (message === undefined) await git(repo, ['revert', '--no-edit', sha], dated(at))
    else {
      await git(repo, ['revert', '--no-commit', sha], dated(at))
      await git(repo, ['commit', '--quiet', '-m', message], dated(at))
    }
    return head()
  }

  const a1 = await commit('shop.txt', '05-18T08:00', 'Initial shop')
  await git(repo, ['checkout', '--quiet', '-b', 'cart'])
  const b1 = await commit('cart.txt', '05-18T11:00', 'Cart model')
  const b2 = await commit('cart-page.txt', '05-18T12:00', 'Cart page')
  await git(repo, ['checkout', '--quiet', 'main'])
  const merge = 'Merge pull request #1 from acme/cart\n\nAdd cart'
  await git(repo, ['merge', '--quiet', '--no-ff', '-m', merge, 'cart'], dated('05-19T09:00'))
  const m1 = await head()
  await git(repo, ['checkout', '--quiet', '-b', 'coupons'])
  await commit('coupons.txt', '05-19T09:30', 'Coupon codes')
  await git(repo, ['checkout', '--quiet', 'main'])
  await git(repo, ['merge', '--quiet', '--squash', 'coupons'])
  await git(
    repo,
    ['commit', '--quiet', '-m', 'Add coupons (#2)\n\n* Coupon codes'],
    dated('05-19T10:00'),
  )
  const s2 = await head()
  const c3 = await commit('search.txt', '05-20T06:00', 'Faster search')
  const r4 = await revert(s2, '05-21T09:00', 'Revert "Add coupons" (#4)\n\nReverts acme/shop#2')
  const c5 = await commit('pricing.txt', '05-25T11:00', 'Bulk pricing')
  const r6 = await revert(c5, '05-26T09:00')
  const rr7 = await revert(r6, '05-27T04:00', 'Revert "Revert "Bulk pricing""')
  const c8 = await commit('gift.txt', '05-28T09:00', 'Gift cards')
  const r8 = await revert(c8, '05-28T10:00')
  const c9 = await commit('checkout.txt', '05-31T20:00', 'New checkout')
  const c11 = await commit('wishlist.txt', '06-02T09:00', 'Wishlist')
  const r12 = await revert(c11, '06-03T09:00')
  const c14 = await commit('wishlist-fix.txt', '06-04T08:00', 'Fix wishlist')
  const commits = { a1, b1, b2, m1, s2, c3, r4, c5, r6, rr7, c8, r8, c9, c11, r12, c14 }
  return { repo, commits, deployments: deploymentsOf(commits) }
}

/** One `shiplog notify`: its version, the commit it deployed, when. */
export interface Deployment {
  version: string
  commit: string
  deployedAt: string
}

/**
 * The deployments of checkout to production, oldest first, and what each is:
 *   D1  a1  05-18 10:00  initial
 *   D2  s2  05-19 12:00  forward   delivers b1, b2, m1, s2
 *   D3  c3  05-20 12:00  forward
 *   D4  r4  05-21 12:00  forward   r4 reverts s2, first delivered by D2
 *   D5  c5  05-25 12:00  forward
 *   D6  r6  05-26 12:00  forward   r6 reverts c5, first delivered by D5
 *   D7  rr7 05-27 12:00  forward   re-applies: reverts r6, itself a revert
 *   D8  r8  05-28 12:00  forward   ships c8 and its revert r8 together
 *   D9  c9  05-31 22:00  forward
 *   D10 r8  06-01 01:00  rollback  to D8: the first after D8 (D9) failed
 *   D11 c11 06-02 12:00  forward   delivers c9 again and c11
 *   D12 r12 06-03 12:00  forward   r12 reverts c11, first delivered by D11
 *   D13 c11 06-03 14:00  rollback  to D11: the first after D11 (D12) failed
 *   D14 c14 06-04 12:00  forward   delivers r12 again (first delivered by D12) and c14
 */
function deploymentsOf(c: Record<string, string>): Deployment[] {
  const plan: [string, string][] = [
    ['a1', '05-18T10:00'],
    ['s2', '05-19T12:00'],
    ['c3', '05-20T12:00'],
    ['r4', '05-21T12:00'],
    ['c5', '05-25T12:00'],
    ['r6', '05-26T12:00'],
    ['rr7', '05-27T12:00'],
    ['r8', '05-28T12:00'],
    ['c9', '05-31T22:00'],
    ['r8', '06-01T01:00'],
    ['c11', '06-02T12:00'],
    ['r12', '06-03T12:00'],
    ['c11', '06-03T14:00'],
    ['c14', '06-04T12:00'],
  ]
  return plan.map(([name, at], index) => ({
    version: `D${index + 1}`,
    commit: c[name] as string,
    deployedAt: `2026-${at}:00Z`,
  }))
}

/** `items` in an order a seeded generator (mulberry32) shuffles them into: the same every run. */
export function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const result = [...items]
  for (let index = result.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    ;[result[index], result[other]] = [result[other] as T, result[index] as T]
  }
  return result
}
