// Answers given outside the app (a deadline's 503), which its hooks could not otherwise know of.
const answeredOutside = new WeakMap<Request, number>()

/**
 * Records that `request` was answered with `status` before the app answered it: the app's own
 * late answer, which nobody receives, is then not what gets counted and logged.
 */
export function noteAnsweredOutside(request: Request, status: number): void {
  answeredOutside.set(request, status)
}

/** What `onAfterResponse` hands a hook; only what the status needs. */
interface AfterResponse {
  request: Request
  set: { status?: number | string }
  responseValue?: unknown
}

/**
 * The status `request` was answered with, for the metrics and the request log alike: a Response a
 * handler returned carries its own; otherwise `set.status`, which the problem-details plugin sets
 * for every error it answers.
 */
export function sentStatus({ request, set, responseValue }: AfterResponse): number {
  const outside = answeredOutside.get(request)
  if (outside !== undefined) return outside
  if (responseValue instanceof Response) return responseValue.status
  return typeof set.status === 'number' ? set.status : 200
}
