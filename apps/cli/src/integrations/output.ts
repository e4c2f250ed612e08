// What `bun run integrations` prints. Everything a sender or a delivery wrote (event names, ids,
// reasons quoting them) passes printableName first, so it cannot drive the operator's terminal.

import { printableName } from '@shiplog/schema'
import type {
  Integration,
  IntegrationDelivery,
  IntegrationWithSecret,
} from '@shiplog/schema/integration'
import { HOOK_FORMS } from '../../../api/src/modules/integrations/hook-form.ts'
import { table, utcSeconds } from '../command.ts'

/** The settings to paste into the sender's webhook form, with the secret shown this once. */
export function hookSettings(integration: IntegrationWithSecret): string {
  const form = HOOK_FORMS[integration.source]
  const ticks = integration.events.map((event) => `${form.boxes[event] ?? event} (${event})`)
  const rows: [string, string][] = [
    ['URL', integration.url],
    ['Content type', form.contentType ?? 'nothing to choose: it sends JSON'],
    [form.secret, integration.secret],
    [form.trigger, ticks.join(', ')],
  ]
  const width = Math.max(...rows.map(([label]) => label.length))
  return [
    `Add a webhook in ${form.where}, with:`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ].join('\n')
}

/** Where each field a delivery may lack is taken from, in the order tried. */
export function mappingInEffect(integration: Integration): string {
  const fields = Object.entries(integration.mappingInEffect)
  const width = Math.max(...fields.map(([field]) => field.length))
  return [
    'Mapping in effect (a quoted value is fixed, the rest are paths):',
    ...fields.map(([field, sources]) => `  ${field.padEnd(width)}  ${sources.join(', ')}`),
  ].join('\n')
}

/** The workspace's integrations, one a row, never their secrets. */
export function integrationsTable(integrations: Integration[]): string {
  return table(
    ['ID', 'SOURCE', 'NAME', 'URL', 'CREATED', 'PREVIOUS SECRET UNTIL'],
    integrations.map((integration) => [
      integration.id,
      integration.source,
      printableName(integration.name),
      integration.url,
      utcSeconds(integration.createdAt),
      utcSeconds(integration.previousSecretValidUntil),
    ]),
  )
}

/** What became of a delivery, beyond its outcome: the reason, or what it led to. */
function detailOf(delivery: IntegrationDelivery): string {
  if (delivery.reason !== null) return printableName(delivery.reason)
  if (delivery.deployment !== null) return delivery.deployment
  if (delivery.commits !== null) return `${delivery.commits} commits pushed`
  if (delivery.duplicateOf !== null) return `a repeat of ${delivery.duplicateOf}`
  return '-'
}

/** The latest deliveries, newest first. */
export function deliveriesTable(deliveries: IntegrationDelivery[]): string {
  return table(
    ['RECEIVED AT', 'EVENT', 'SENDER DELIVERY ID', 'OUTCOME', 'REASON OR LINK'],
    deliveries.map((delivery) => [
      utcSeconds(delivery.receivedAt),
      printableName(delivery.event),
      delivery.senderDeliveryId === null ? '-' : printableName(delivery.senderDeliveryId),
      delivery.outcome,
      detailOf(delivery),
    ]),
  )
}
