import { printableName } from '@shiplog/schema'
import { parseCommandArgs, runCommand, UsageError, utcSeconds } from './command.ts'
import { loadIntegrationsCliEnv } from './env.ts'
import { integrationId, integrationInput, urlOrigin } from './integrations/arguments.ts'
import {
  deliveriesTable,
  hookSettings,
  integrationsTable,
  mappingInEffect,
} from './integrations/output.ts'
import { WorkspaceIntegrations } from './integrations/workspace-integrations.ts'

const USAGE = `Usage:
  bun run integrations create --workspace <slug> --source github|gitlab|cdevents|argocd|flux --name <name> [--mapping '<json>']
      connect a GitHub or GitLab webhook: prints its URL, its secret (shown once), the events to
      tick and the content type, to paste into the host's webhook form. --mapping says where the
      fields a delivery lacks come from, e.g. '{"app": [{"from": "deployment.payload.service"}, "web"]}'
  bun run integrations list --workspace <slug>
      the workspace's integrations: id, source, name, URL, created, previous secret valid until
  bun run integrations rotate --workspace <slug> <id>
      a new secret, shown once; the previous one is still accepted for
      INTEGRATION_SECRET_GRACE_SECONDS (an hour by default)
  bun run integrations delete --workspace <slug> <id>
      disconnect it: its URL answers 404 within seconds; what it recorded stays
  bun run integrations deliveries --workspace <slug> <id>
      its latest deliveries, newest first: received at, event, sender's delivery id, outcome,
      and the reason or what it recorded
  bun run integrations -h
      show this help

  The URLs are under PUBLIC_URL; without it, under --url-base <origin> (create, list, rotate),
  else http://localhost:$PORT (3000 when PORT is unset). Run this where the API runs: GitHub
  secrets are sealed with INTEGRATION_SEALING_KEY, which must be the API's own key.`

// The flags each command takes beyond --workspace: any other is refused, not ignored.
const FLAGS: Record<string, string[]> = {
  create: ['source', 'name', 'mapping', 'url-base'],
  list: ['url-base'],
  rotate: ['url-base'],
  delete: [],
  deliveries: [],
}

await runCommand(
  USAGE,
  async (argv, env) => {
    const { positionals, values } = parseCommandArgs(argv, {
      workspace: { type: 'string' },
      source: { type: 'string' },
      name: { type: 'string' },
      mapping: { type: 'string' },
      'url-base': { type: 'string' },
    })
    const [command, ...rest] = positionals
    if (command === undefined) throw new UsageError('missing command')
    const allowed = FLAGS[command]
    if (!allowed) throw new UsageError(`unknown command "${command}"`)
    const stray = Object.keys(values).find(
      (flag) => flag !== 'workspace' && !allowed.includes(flag),
    )
    if (stray) throw new UsageError(`--${stray} is not a flag of ${command}`)
    const slug = values.workspace
    if (!slug) throw new UsageError('--workspace is required: the slug of the workspace')
    const origin = urlOrigin(env, values['url-base'])
    const input = command === 'create' ? integrationInput(values) : undefined
    if (command === 'create' || command === 'list') {
      if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
    }
    const id = input || command === 'list' ? undefined : integrationId(command, rest, slug)

    const integrations = await WorkspaceIntegrations.open(env, slug, origin)
    try {
      if (input) {
        const created = await integrations.create(input)
        console.log(
          `Created ${created.source} integration "${printableName(created.name)}" (id ${created.id}) in workspace "${slug}".`,
        )
        console.log(hookSettings(created))
        console.log('Store the secret now: it is shown this once (rotate makes a new one).')
        console.log(mappingInEffect(created))
      } else if (command === 'list') {
        const listed = await integrations.list()
        console.log(
          listed.length > 0
            ? integrationsTable(listed)
            : `No integrations in workspace "${slug}" yet. Create one with: bun run integrations create --workspace ${slug} --source github|gitlab|cdevents|argocd|flux --name <name>`,
        )
      } else if (command === 'rotate') {
        const rotated = await integrations.rotate(id as string)
        console.log(`Rotated the secret of "${printableName(rotated.name)}" (id ${rotated.id}).`)
        console.log(hookSettings(rotated))
        console.log(
          rotated.previousSecretValidUntil
            ? `Store the new secret now: it is shown this once. The previous one is still accepted until ${utcSeconds(rotated.previousSecretValidUntil)}: paste this one into the webhook before then.`
            : 'Store the new secret now: it is shown this once. The previous one is no longer accepted: paste this one into the webhook now.',
        )
      } else if (command === 'delete') {
        const found = await integrations.find(id as string)
        await integrations.delete(found.id)
        console.log(
          `Deleted "${printableName(found.name)}" (id ${found.id}) of workspace "${slug}": its URL answers 404 within seconds, and what it recorded stays.`,
        )
      } else {
        const deliveries = await integrations.deliveries(id as string)
        console.log(
          deliveries.length > 0
            ? deliveriesTable(deliveries)
            : 'No deliveries yet: save the webhook (GitHub sends a ping), or wait for a push or a deployment.',
        )
      }
    } finally {
      await integrations.close()
    }
  },
  loadIntegrationsCliEnv,
)
