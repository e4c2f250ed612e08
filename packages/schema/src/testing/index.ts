// `@shiplog/schema/testing`: what the tests of other workspaces share with this package's own.
// Left out of the published package (`tsconfig.build.json`, `scripts/pack.ts`).
export { COMMIT_SHA, UNEXPANDED_SHA, validDeployment } from './deployment-body.ts'
