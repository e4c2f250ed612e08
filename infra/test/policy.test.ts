import { describe, expect, test } from 'bun:test'
import { CONTRACT } from './lib/contract.ts'
import { kustomize } from './lib/manifests.ts'
import { POLICIES } from './lib/policy.ts'
import { WIRING } from './lib/wiring.ts'

// The same checks run on the Helm chart's output in helm.test.ts, when helm is installed.
for (const overlay of ['dev', 'production']) {
  describe(`policy and app contract: kustomize overlays/${overlay}`, () => {
    for (const [name, check] of Object.entries({ ...POLICIES, ...CONTRACT, ...WIRING })) {
      test(name, () => {
        expect(check(kustomize(overlay))).toEqual([])
      })
    }
  })
}
