// The Alertmanager receiver users merge into their alertmanager.yml (infra/alertmanager/
// shiplog.yaml) is one Alertmanager itself accepts; the live test
// (apps/api/test/integrations/alertmanager-live.test.ts) runs it.
import { expect, test } from 'bun:test'
import { REPO } from './lib/manifests.ts'

test('amtool check-config accepts the documented receiver', () => {
  const run = Bun.spawnSync(['amtool', 'check-config', `${REPO}infra/alertmanager/shiplog.yaml`])
  const said = `${run.stdout.toString()}${run.stderr.toString()}`
  expect({ code: run.exitCode, said }).toMatchObject({
    code: 0,
    said: expect.stringContaining('SUCCESS'),
  })
  expect(said).toContain('2 receivers')
})
