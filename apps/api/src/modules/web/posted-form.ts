import type { Checked, FieldError } from '@shiplog/schema'
import { HttpProblem, problems } from '../../kernel/problems.ts'
import type { WebDeps } from './deps.ts'
import { answered } from './page-handler.ts'
import { pageResponse } from './responses.ts'
import type { Need, PageRequest } from './signed-in.ts'
import { layout, type PageContent } from './views/layout.ts'

/**
 * A form a page posts, declared once: who may send it, the body it stands for (the fields of the
 * API's body, from the form's), the check the API runs on that body, and how the page shows it
 * refused. Its handler gets the checked value and never checks it again.
 */
export interface FormDeclaration<T> {
  /** The scope it needs, and what it does (for the 403: "Voiding needs …"). */
  needs: Need
  /** The body it stands for, from the form's fields as typed. */
  bodyOf(form: URLSearchParams): unknown
  /** The API's check of that body, at the time it was posted. */
  check(body: unknown, receivedAt: Date): Checked<T>
  /**
   * The page again, each error beside its field, for a 422 of the check or of the handler's
   * service (an unknown environment, say); without it a 422 is a problem page.
   */
  refused?(page: PageRequest, errors: FieldError[], web: WebDeps): Promise<PageContent>
}

/** What a form's handler is given: the request, the app, and the checked value. */
export interface PostedValue<T> {
  page: PageRequest
  web: WebDeps
  value: T
  receivedAt: Date
}

/**
 * A form's route, its handler and what it declares (`.post(path, ...postedForm(form, handle))`):
 * the scope the form needs (checked with the session, signed-in.ts), then the check, then
 * `handle` with the checked value. A 422 (the check's, or one the handler's service throws)
 * shows the form again as `refused` draws it.
 */
export function postedForm<T>(
  form: FormDeclaration<T>,
  handle: (posted: PostedValue<T>) => Promise<Response | PageContent>,
) {
  const handler = ({ page, web }: { page: PageRequest; web: WebDeps }) =>
    answered(page, async () => {
      const receivedAt = new Date()
      const checked = form.check(form.bodyOf(page.form), receivedAt)
      try {
        if (!checked.ok) throw problems.validation(checked.errors)
        return await handle({ page, web, value: checked.value, receivedAt })
      } catch (error) {
        if (!form.refused || !(error instanceof HttpProblem) || error.status !== 422) throw error
        const errors = error.errors ?? [{ field: 'body', message: error.detail }]
        return pageResponse(layout(await form.refused(page, errors, web), page.viewer), 422)
      }
    })
  // The form's body is read with the session (formOf): Elysia leaves it be.
  return [handler, { signedIn: form.needs, parse: 'none' }] as const
}
