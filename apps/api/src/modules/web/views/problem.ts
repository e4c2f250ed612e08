import type { FieldError } from '@shiplog/schema'
import { html } from './html.ts'
import type { PageContent } from './layout.ts'

/** A page answering a problem (404, 422…): its title, and its detail or every field error. */
export function problemPage(problem: {
  title: string
  detail: string
  errors?: FieldError[] | undefined
}): PageContent {
  return {
    title: problem.title,
    body: html`<h1>${problem.title}</h1>
<div class="notice error" role="alert">${
      problem.errors?.length
        ? html`<ul>${problem.errors.map((error) => html`<li><strong>${error.field}</strong> ${error.message}</li>`)}</ul>`
        : html`<p>${problem.detail}</p>`
    }</div>
<p><a href="/ui">Back to the overview</a></p>`,
  }
}
