import { expect, test } from 'bun:test'
import { checkoutContext, gitProblem } from './git-checkout.ts'

const failed = (stderr: string) => ({ code: 128, stdout: '', stderr })

test('each reason git cannot read the checkout gets its own line saying what to change', () => {
  expect(gitProblem({ code: -1, stdout: '', stderr: 'spawn git ENOENT', notFound: true })).toBe(
    'git is not installed here, so no commits were sent: run this step in an image with git, or pass --no-commits',
  )
  const ownership = gitProblem(
    failed(
      "fatal: detected dubious ownership in repository at '/builds/acme/shop'\nTo add an exception…",
    ),
  )
  expect(ownership).toStartWith('git refused this checkout because another user owns it')
  // Git 2.35.2's wording of the same refusal.
  expect(gitProblem(failed("fatal: unsafe repository ('/w' is owned by someone else)"))).toBe(
    ownership,
  )
  expect(
    gitProblem(failed('fatal: not a git repository (or any of the parent directories): .git')),
  ).toStartWith('this directory is not in a git checkout, so no commits were sent')
  expect(gitProblem(failed('fatal: bad object HEAD\nmore'))).toBe(
    'git could not read this checkout (bad object HEAD), so no commits were sent',
  )
})

test('the checkout context leaves out what git cannot tell', async () => {
  const answers: Record<string, string> = {
    'rev-parse': 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3\n',
    remote: 'https://gitlab.example.com/acme/platform/shop.git\n',
  }
  const context = await checkoutContext(async ([command = '']) =>
    command in answers
      ? { code: 0, stdout: answers[command] ?? '', stderr: '' }
      : { code: 1, stdout: '', stderr: '' },
  )
  expect(context).toEqual({
    commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
    repositoryFullName: 'acme/platform/shop',
  })
})
