import { problems } from '../../plugins/problem/index.ts'

// A dashboard form holds a few short fields; anything larger is not from our pages.
const MAX_FORM_BYTES = 16 * 1024

/** The fields of a form post (application/x-www-form-urlencoded), or a 4xx problem. */
export async function formOf(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw problems.validation(
      [{ field: 'body', message: 'must be a form (application/x-www-form-urlencoded)' }],
      'Send this form from its page.',
    )
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > MAX_FORM_BYTES) throw problems.bodyTooLarge(MAX_FORM_BYTES)
  const text = await request.text().catch(() => {
    throw problems.bodyUnreadable()
  })
  if (text.length > MAX_FORM_BYTES) throw problems.bodyTooLarge(MAX_FORM_BYTES)
  return new URLSearchParams(text)
}
