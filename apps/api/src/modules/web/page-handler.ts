import { HttpProblem } from '../../kernel/problems.ts'
import type { WebDeps } from './deps.ts'
import { pageResponse, problemPageResponse } from './responses.ts'
import type { PageRequest } from './signed-in.ts'
import { layout, type PageContent } from './views/layout.ts'

/**
 * What a signed-in page answers: its content in the layout (with who is signed in), a response
 * as it is, or a problem (404, 422…) as a page.
 */
export async function answered(
  page: PageRequest,
  work: () => Promise<Response | PageContent>,
): Promise<Response> {
  try {
    const answer = await work()
    return answer instanceof Response ? answer : pageResponse(layout(answer, page.viewer))
  } catch (error) {
    if (error instanceof HttpProblem) return problemPageResponse(error, page.viewer)
    throw error
  }
}

/**
 * A page's handler: its input, checked as the API checks it → its model, every read in one
 * snapshot (and the app's settings, for a model that needs them) → its view, pure.
 */
export const shown =
  <I, M>(
    input: (page: PageRequest) => I,
    model: (page: PageRequest, input: I, web: WebDeps) => Promise<M>,
    view: (model: M) => PageContent,
  ) =>
  ({ page, web }: { page: PageRequest; web: WebDeps }) =>
    answered(page, async () => view(await model(page, input(page), web)))

/** A handler that answers with what `work` makes (a download, a post's redirect or page). */
export const answeredBy =
  (work: (page: PageRequest, web: WebDeps) => Promise<Response | PageContent>) =>
  ({ page, web }: { page: PageRequest; web: WebDeps }) =>
    answered(page, () => work(page, web))
