import { createShiplogClient, type ShiplogClient } from './client.ts'
import { note, type Output } from './notify-output.ts'
import { describeRetry } from './retry-notice.ts'

/**
 * The client a command (the CLI's, the Action's) sends with: the plan's retry budget, and every
 * retry told on `output`, so a step slowed down by an outage says why instead of hanging quietly.
 */
export function commandClient(
  plan: { url: string; apiKey: string; retryForMs?: number },
  output: Output,
): ShiplogClient {
  return createShiplogClient({
    baseUrl: plan.url,
    apiKey: plan.apiKey,
    ...(plan.retryForMs === undefined ? {} : { retryForMs: plan.retryForMs }),
    onRetry: (retry) => note(output, describeRetry(retry)),
  })
}
