import { Elysia } from 'elysia'
import { createFromForm, newKeyForm, revokeFromForm } from '../forms/keys.ts'
import { keysInput, keysModel } from '../models/keys.ts'
import { answeredBy, shown } from '../page-handler.ts'
import { postedForm } from '../posted-form.ts'
import type { SignedInPages } from '../signed-in.ts'
import { keysPage } from '../views/keys.ts'

/** `/ui/keys` (admins): the workspace's keys; create one, shown once; revoke one. */
export function keyPages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui/keys', shown(keysInput, keysModel, keysPage), {
      signedIn: { scope: 'admin', what: 'Managing API keys' },
    })
    .post('/ui/keys', ...postedForm(newKeyForm, createFromForm))
    .post('/ui/keys/:id/revoke', answeredBy(revokeFromForm), {
      signedIn: { scope: 'admin', what: 'Revoking an API key' },
      parse: 'none',
    })
}
