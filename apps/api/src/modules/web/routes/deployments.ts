import { Elysia } from 'elysia'
import { deploymentsCsv } from '../downloads.ts'
import { voidForm, voidFromForm } from '../forms/void-deployment.ts'
import { deploymentInput, deploymentModel } from '../models/deployment.ts'
import { deploymentsInput, deploymentsModel } from '../models/deployments.ts'
import { answeredBy, shown } from '../page-handler.ts'
import { postedForm } from '../posted-form.ts'
import type { SignedInPages } from '../signed-in.ts'
import { deploymentPage } from '../views/deployment.ts'
import { deploymentsPage } from '../views/deployments.ts'

/** `/ui/deployments`: the timeline and its CSV, one deployment's receipt, and voiding it. */
export function deploymentPages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui/deployments', shown(deploymentsInput, deploymentsModel, deploymentsPage), {
      signedIn: true,
    })
    .get('/ui/deployments.csv', answeredBy(deploymentsCsv), { signedIn: true })
    .get('/ui/deployments/:id', shown(deploymentInput, deploymentModel, deploymentPage), {
      signedIn: true,
    })
    .post('/ui/deployments/:id/void', ...postedForm(voidForm, voidFromForm))
}
