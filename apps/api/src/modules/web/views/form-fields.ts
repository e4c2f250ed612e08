import type { FieldError } from '@shiplog/schema'
import { type Html, html } from './html.ts'

/** A form's fields as typed, and what was wrong with them: a refused form is shown again so. */
export interface FormState {
  values: Record<string, string | undefined>
  errors: FieldError[]
}

export const emptyForm = (values: Record<string, string | undefined> = {}): FormState => ({
  values,
  errors: [],
})

/** The errors a form shows: one list at its top, each also beside its field. */
export function errorSummary(state: FormState, what: string): Html | string {
  if (state.errors.length === 0) return ''
  return html`<div class="notice error" role="alert"><p>${what}: fix ${state.errors.length === 1 ? 'this' : 'these'}, then send it again.</p><ul>${state.errors.map(
    (error) => html`<li><strong>${error.field}</strong> ${error.message}</li>`,
  )}</ul></div>`
}

/** The attributes and message of one field: marked invalid, described by its error. */
export function fieldError(state: FormState, id: string, name: string) {
  const error = state.errors.find((each) => each.field === name)
  return {
    attributes: error ? html` aria-invalid="true" aria-describedby="${id}-error"` : '',
    message: error ? html`<span class="field-error" id="${id}-error">${error.message}</span>` : '',
  }
}

/** A labelled text input that keeps what was typed and shows its error. */
export function textField(
  state: FormState,
  field: { id: string; name: string; label: string; extra?: Html },
): Html {
  const { attributes, message } = fieldError(state, field.id, field.name)
  // As typed, but for control characters, which no input holds (and which were refused).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const value = (state.values[field.name] ?? '').replace(/[\u0000-\u001f\u007f]/g, '')
  return html`<label for="${field.id}">${field.label}<input id="${field.id}" name="${field.name}" value="${value}"${attributes}${field.extra ?? ''}>${message}</label>`
}
