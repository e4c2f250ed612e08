import type { Checked } from '@shiplog/schema'
import { type IntegrationInput, validateIntegrationInput } from '@shiplog/schema/integration'
import { HttpProblem, problems } from '../../../kernel/problems.ts'
import {
  createWorkspaceIntegration,
  deleteWorkspaceIntegration,
  rotateWorkspaceIntegrationSecret,
} from '../../integrations/service.ts'
import type { WebDeps } from '../deps.ts'
import { integrationModel } from '../models/integration.ts'
import { integrationsModel } from '../models/integrations.ts'
import { baseUrlOf, pathId } from '../page-input.ts'
import type { FormDeclaration, PostedValue } from '../posted-form.ts'
import { redirect } from '../responses.ts'
import type { PageRequest } from '../signed-in.ts'
import { integrationPage } from '../views/integration.ts'
import { integrationSecretPage } from '../views/integration-secret.ts'
import { integrationsPage } from '../views/integrations.ts'

// The secret is not typed back into a refused form: a password box starts empty.
const FIELDS = ['source', 'name', 'mapping'] as const

/** A mapping box whose text is no JSON: the check names it, beside the body's other errors. */
class UnreadableMapping {}

/** The `POST /v1/integrations` body the create form stands for; a blank mapping is left out. */
function integrationBodyOf(form: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {
    source: form.get('source') ?? '',
    name: form.get('name') ?? '',
  }
  const secret = form.get('secret')?.trim()
  if (secret) body.secret = secret
  const mapping = form.get('mapping')?.trim()
  if (mapping) {
    try {
      body.mapping = JSON.parse(mapping)
    } catch {
      body.mapping = new UnreadableMapping()
    }
  }
  return body
}

/** The API's check of that body, and a mapping that could not be read as JSON among its errors. */
function checkIntegrationBody(body: unknown): Checked<IntegrationInput> {
  const { mapping, ...rest } = body as Record<string, unknown>
  if (!(mapping instanceof UnreadableMapping)) return validateIntegrationInput(body)
  const checked = validateIntegrationInput(rest)
  return {
    ok: false,
    errors: [
      ...(checked.ok ? [] : checked.errors),
      { field: 'mapping', message: 'must be JSON, such as {"app": "web"}, or left blank' },
    ],
  }
}

/** Creating an integration: the API's body and check; refused, the list and the form as typed. */
export const newIntegrationForm: FormDeclaration<IntegrationInput> = {
  needs: { scope: 'admin', what: 'Creating an integration' },
  bodyOf: integrationBodyOf,
  check: checkIntegrationBody,
  refused: async (page, errors, web) => {
    const values = Object.fromEntries(FIELDS.map((name) => [name, page.form.get(name) ?? '']))
    return integrationsPage(await integrationsModel(page, { form: { values, errors } }, web))
  },
}

/**
 * Creates the integration and shows its URL and secret in this answer and never again: no
 * redirect that would lose it. A name already taken is the form again, beside the name.
 */
export async function createFromForm({ page, web, value }: PostedValue<IntegrationInput>) {
  const { principal } = page
  try {
    const created = await createWorkspaceIntegration(
      web.sql,
      web.integrations,
      principal,
      principal.actor,
      value,
      baseUrlOf(page.request),
    )
    return integrationSecretPage(created, 'created')
  } catch (error) {
    if (!(error instanceof HttpProblem) || error.status !== 409) throw error
    throw problems.validation([
      {
        field: 'name',
        message: 'is taken by another integration of this workspace: choose another',
      },
    ])
  }
}

/** Rotates the secret of the integration of the page's path, and shows the new one this once. */
export async function rotateFromForm(page: PageRequest, web: WebDeps) {
  const { principal } = page
  const rotated = await rotateWorkspaceIntegrationSecret(
    web.sql,
    web.integrations,
    principal,
    principal.actor,
    pathId(page.url, 'integration'),
    baseUrlOf(page.request),
  )
  return integrationSecretPage(rotated, 'rotated')
}

/** Deleting an integration, from its page: the box that confirms it must be ticked. */
export const deleteIntegrationForm: FormDeclaration<true> = {
  needs: { scope: 'admin', what: 'Deleting an integration' },
  bodyOf: (form) => form,
  check: (form) =>
    (form as URLSearchParams).get('confirm') === 'yes'
      ? { ok: true, value: true }
      : {
          ok: false,
          errors: [
            { field: 'confirm', message: 'must be ticked: it confirms the webhook is refused' },
          ],
        },
  refused: async (page, errors, web) =>
    integrationPage(
      await integrationModel(
        page,
        { id: pathId(page.url, 'integration'), deleteForm: { values: {}, errors } },
        web,
      ),
    ),
}

/** Deletes the integration of the page's path, then lists the others saying so. */
export async function deleteFromForm({ page, web }: PostedValue<true>) {
  const { principal } = page
  const id = pathId(page.url, 'integration')
  await deleteWorkspaceIntegration(web.sql, web.integrations, principal, principal.actor, id)
  return redirect('/ui/integrations?notice=deleted')
}
