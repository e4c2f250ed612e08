import {
  deploymentStatusSuccess,
  gitHubDeliveryIdOf,
  gitHubHeaders,
  gitHubSignatureOf,
} from '@shiplog/db/testing'

/** One GitHub delivery the driver posted and what came back (status 0: no HTTP answer). */
export interface DeliverySent {
  /** Its number in the series: the same for a delivery and its redeliveries. */
  n: number
  redelivery: boolean
  status: number
  /** Shiplog's id of the stored delivery, and of the first one for a duplicate. */
  delivery: string | undefined
  duplicateOf: string | undefined
}

/** Where a GitHub integration receives, with its secret, and the start of the series' times. */
export interface HookTarget {
  url: string
  secret: string
  startMs: number
}

/**
 * Posts delivery `n` of the deployment_status series as GitHub does (signed, its headers); a
 * redelivery sends the same bytes under the same X-GitHub-Delivery, as GitHub's "Redeliver" does.
 */
export async function postDelivery(
  target: HookTarget,
  n: number,
  redelivery = false,
): Promise<DeliverySent> {
  const body = deploymentStatusSuccess(n, target.startMs)
  const sent = { n, redelivery, delivery: undefined, duplicateOf: undefined }
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: gitHubHeaders(gitHubDeliveryIdOf(n), gitHubSignatureOf(target.secret, body)),
      body,
      signal: AbortSignal.timeout(15_000),
    })
    const answer = (await response.json().catch(() => ({}))) as {
      delivery?: string
      duplicateOf?: string
    }
    return {
      ...sent,
      status: response.status,
      delivery: answer.delivery,
      duplicateOf: answer.duplicateOf,
    }
  } catch {
    return { ...sent, status: 0 }
  }
}
