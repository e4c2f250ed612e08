import { Elysia } from 'elysia'
import {
  createFromForm,
  deleteFromForm,
  deleteIntegrationForm,
  newIntegrationForm,
  rotateFromForm,
} from '../forms/integrations.ts'
import { integrationInput, integrationModel } from '../models/integration.ts'
import { integrationsInput, integrationsModel } from '../models/integrations.ts'
import { answeredBy, shown } from '../page-handler.ts'
import { postedForm } from '../posted-form.ts'
import type { SignedInPages } from '../signed-in.ts'
import { integrationPage } from '../views/integration.ts'
import { integrationsPage } from '../views/integrations.ts'

const MANAGING = { scope: 'admin', what: 'Managing integrations' } as const

/**
 * `/ui/integrations` (admins): the workspace's integrations; create one and rotate its secret
 * (each secret shown once), read one's settings and deliveries, delete one.
 */
export function integrationPages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui/integrations', shown(integrationsInput, integrationsModel, integrationsPage), {
      signedIn: MANAGING,
    })
    .post('/ui/integrations', ...postedForm(newIntegrationForm, createFromForm))
    .get('/ui/integrations/:id', shown(integrationInput, integrationModel, integrationPage), {
      signedIn: MANAGING,
    })
    .post('/ui/integrations/:id/secret', answeredBy(rotateFromForm), {
      signedIn: { scope: 'admin', what: 'Rotating an integration’s secret' },
      parse: 'none',
    })
    .post('/ui/integrations/:id/delete', ...postedForm(deleteIntegrationForm, deleteFromForm))
}
