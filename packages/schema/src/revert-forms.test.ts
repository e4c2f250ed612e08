import { expect, test } from 'bun:test'
import { revertClaim, squashedPullRequest, withoutPullRequest } from './revert-forms.ts'

const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8'

test("git's line wins over the subject, in full or abbreviated, each SHA once, lower-cased", () => {
  const message = `Revert "x"\n\nThis reverts commit ${SHA.toUpperCase()}.\nThis reverts commit ${SHA}, reversing\nchanges made to 1234567.`
  expect(revertClaim('Revert "x"', message)).toEqual({ form: 'shas', shas: [SHA] })
  expect(revertClaim('Undo', 'This reverts commit 9fceb02.')).toEqual({
    form: 'shas',
    shas: ['9fceb02'],
  })
  // Six digits are not a SHA git abbreviates to.
  expect(revertClaim('Undo', 'This reverts commit 9fceb0.')).toBeUndefined()
})

test("GitHub's button: the title inside the quotes, a squash merge's (#M) after them left out", () => {
  expect(
    revertClaim('Revert "Add coupons" (#4)', 'Revert "Add coupons" (#4)\n\nReverts acme/shop#2'),
  ).toEqual({
    form: 'title',
    title: 'Add coupons',
    pullRequests: [2],
  })
  expect(revertClaim('Revert "Add cart"', 'Revert "Add cart"')).toEqual({
    form: 'title',
    title: 'Add cart',
    pullRequests: [],
  })
  // A revert of a revert names the revert, quotes and all.
  expect(revertClaim('Revert "Revert "Add cart"" (#9)', '')).toEqual({
    form: 'title',
    title: 'Revert "Add cart"',
    pullRequests: [],
  })
  // A title that itself ends in a squash merge's number keeps it: the subject it names had it.
  expect(revertClaim('Revert "Add cart (#3)"', '')).toMatchObject({ title: 'Add cart (#3)' })
  // Nested groups name a repository too; a mention in prose is not the button's line.
  expect(
    revertClaim(
      'Revert "x"',
      'Reverts group/sub/repo#5\nReverts acme/shop#5\nas Reverts acme/shop#6 said',
    ),
  ).toMatchObject({ pullRequests: [5] })
})

test('messages that revert nothing', () => {
  expect(revertClaim('Reverting the cache change', 'Reverting the cache change')).toBeUndefined()
  expect(revertClaim('Revert x', 'Revert x')).toBeUndefined()
  expect(revertClaim('Merge pull request #3 from acme/revert-2', 'Revert "x"')).toBeUndefined()
})

test("a squash merge's (#N)", () => {
  expect(squashedPullRequest('Add coupons (#2)')).toBe(2)
  expect(squashedPullRequest('Add coupons #2')).toBeUndefined()
  expect(withoutPullRequest('Add coupons (#2)')).toBe('Add coupons')
  expect(withoutPullRequest('Add coupons')).toBe('Add coupons')
})
