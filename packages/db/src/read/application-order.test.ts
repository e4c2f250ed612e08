import { expect, test } from 'bun:test'
import { recordDeployments } from '../queries/record-deployments.ts'
import { jobId, microsOf, toJob } from '../testing/recorded-jobs.ts'
import { twoWorkspacesPerFile } from '../testing/two-workspaces.ts'
import { applicationsInOrder } from './application-order.ts'

// applicationsInOrder keeps each workspace's ordered catalog between reads. Applications created
// after it was loaded must still be named, and land in their place.

const files = twoWorkspacesPerFile({ applicationName: 'application-order-test', maxConnections: 2 })
const { sql } = files

let deployed = 0
async function deploy(workspace: 0 | 1, repository: string, app: string) {
  deployed++
  const content = {
    workspace,
    repository,
    app,
    environment: 'production',
    version: '1.0.0',
    commitHash: 'abcdef1',
    at: microsOf('2026-05-04T12:00:00Z') + BigInt(deployed),
  }
  await sql.begin((tx) =>
    recordDeployments(tx, [toJob(jobId(deployed, 0), content, files.workspaceIds)]),
  )
  const [row] = await sql<{ id: string }[]>`
    select a.id::text from applications a join repositories r on r.id = a.repository_id
     where a.workspace_id = ${files.workspaceIds[workspace]} and r.full_name = ${repository} and a.name = ${app}`
  return row?.id as string
}

const inOrder = (workspace: 0 | 1, ids: string[]) =>
  sql.begin((tx) => applicationsInOrder(sql, tx, files.workspaceIds[workspace], ids))

test('orders by repository then name, and names applications created after the catalog was read', async () => {
  const web = await deploy(0, 'acme/shop', 'web')
  const tools = await deploy(0, 'other/tools', 'cli')
  expect(await inOrder(0, [tools, web])).toEqual([
    { id: web, app: 'web', repositoryFullName: 'acme/shop' },
    { id: tools, app: 'cli', repositoryFullName: 'other/tools' },
  ])

  // Created since: sorts between the two, in a repository of its own, and before web in its own.
  const api = await deploy(0, 'acme/shop', 'api')
  const infra = await deploy(0, 'acme/infra', 'Terraform')
  expect((await inOrder(0, [tools, web, api, infra])).map(({ app }) => app)).toEqual([
    'Terraform',
    'api',
    'web',
    'cli',
  ])
  // Only the ids asked for, and none of another workspace or none at all.
  const elsewhere = await deploy(1, 'acme/shop', 'api')
  expect((await inOrder(0, [web, elsewhere, '999999'])).map(({ id }) => id)).toEqual([web])
  expect((await inOrder(1, [elsewhere])).map(({ id }) => id)).toEqual([elsewhere])
})
