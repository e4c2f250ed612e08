import { expect, test } from 'bun:test'
import { harnessPerFile } from '../support/harness.ts'
import {
  adminKey,
  createIntegration,
  deliverGitHub,
  deliveriesOf,
  githubSuccessStatus,
} from '../support/integrations.ts'

// A GitHub deployment that reports failure after its success is a failed change: an incident
// caused by it, whichever of the two statuses arrives first. One that failed before it succeeded
// is a failed attempt.

const h = harnessPerFile()

const success = githubSuccessStatus()

function status(deploymentId: number, state: string, at: string): string {
  const example = success
  return JSON.stringify({
    ...example,
    deployment_status: { ...example.deployment_status, state, created_at: at },
    deployment: {
      ...example.deployment,
      id: deploymentId,
      payload: { version: `v${deploymentId}` },
    },
  })
}

async function incidentsCausedBy(deployment: string) {
  const id = deployment.split('/').at(-1) as string
  const rows: { title: string; startedAt: Date }[] = await h.sql`
    select title, started_at as "startedAt" from incidents where cause_deployment_id = ${id}::uuid`
  return rows.map((row) => ({ title: row.title, startedAt: row.startedAt.toISOString() }))
}

for (const order of [
  ['success', 'failure'],
  ['failure', 'success'],
]) {
  test(`failure after success, delivered ${order.join(' then ')}: one incident caused by the deployment`, async () => {
    const key = await adminKey(h)
    const integration = await createIntegration(h, key, {
      source: 'github',
      name: `order ${order}`,
    })
    const id = order[0] === 'success' ? 101 : 102
    const bodies = {
      success: status(id, 'success', '2026-11-20T10:00:00Z'),
      failure: status(id, 'failure', '2026-11-20T10:30:00Z'),
    }
    for (const state of order) {
      const response = await deliverGitHub(
        h,
        integration,
        'deployment_status',
        bodies[state as 'success'],
      )
      expect(response.status).toBe(202)
      await h.settle()
    }
    const recorded = (await deliveriesOf(h, key, integration)).find(
      (each) => each.outcome === 'recorded' && each.reason === null,
    )
    expect(await incidentsCausedBy(recorded?.deployment as string)).toEqual([
      {
        title: `GitHub reported deployment ${id} 'failure' after its success`,
        startedAt: '2026-11-20T10:30:00.000Z',
      },
    ])
    const receipt = (await (await h.get(recorded?.deployment as string)).json()) as {
      changeFailure: { signals: { kind: string }[] } | null
    }
    expect(receipt.changeFailure?.signals.map((signal) => signal.kind)).toEqual(['incident'])
  })
}

test('a failure reported before the success is a failed attempt: no incident, the reason listed', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, { source: 'github', name: 'attempt' })
  await deliverGitHub(
    h,
    integration,
    'deployment_status',
    status(103, 'error', '2026-11-20T09:00:00Z'),
  )
  await deliverGitHub(
    h,
    integration,
    'deployment_status',
    status(103, 'success', '2026-11-20T10:00:00Z'),
  )
  await h.settle()
  const listed = await deliveriesOf(h, key, integration)
  const recorded = listed.find((each) => each.outcome === 'recorded')
  expect(await incidentsCausedBy(recorded?.deployment as string)).toEqual([])
  expect(listed.find((each) => each.outcome === 'ignored')?.reason).toBe(
    "GitHub reported deployment 103 'error' before its success: a failed attempt, not a failed change",
  )
})
