// The deployment body the tests of every workspace send, through `@shiplog/schema/testing`:
// one fixture, so a field added to the contract is added to the tests' body once.

/** The commit the body names: a full SHA, lower-case, as the API stores it. */
export const COMMIT_SHA = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'

/** The literal GitHub Actions placeholder a misconfigured workflow sends as its commit. */
export const UNEXPANDED_SHA = ['$', '{{ github.sha }}'].join('')

/** A body with every required field and nothing else, as the API accepts it; override per test. */
export function validDeployment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    repositoryFullName: 'acme/shop',
    environment: 'production',
    app: 'checkout',
    version: '1.2.3',
    commitHash: COMMIT_SHA,
    ...overrides,
  }
}
