import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { outcomeOfFluxEvent } from './event.ts'
import { parseRevision } from './revision.ts'

// Flux events as notification-controller posts them (fixtures/flux/SOURCE.md: the docs' example
// verbatim, the others derived from the controllers' source where no capture exists upstream).
const EVENTS = join(import.meta.dir, '../../fixtures/flux/events')
const event = (path: string) => ({
  body: JSON.parse(readFileSync(join(EVENTS, path), 'utf8')),
  headers: new Headers({ 'content-type': 'application/json' }),
})
const MAPPING = { repository: 'acme/platform', environment: 'production' }

test('revisions: Flux 2 (branch@sha1:), bare sha1:, the older branch/sha, an OCI artifact, a chart', () => {
  const sha = '802723078affd3eb2a3898630261ab3ca5d6dd40'
  expect(parseRevision(`main@sha1:${sha}`)).toEqual({ kind: 'commit', sha, ref: 'main' })
  expect(parseRevision(`sha1:${sha}`)).toEqual({ kind: 'commit', sha, ref: undefined })
  expect(parseRevision(`main/${sha}`)).toEqual({ kind: 'commit', sha, ref: 'main' })
  expect(parseRevision(`v1.2.0@sha256:${'a'.repeat(64)}`)).toEqual({
    kind: 'artifact',
    name: 'v1.2.0',
  })
  expect(parseRevision('6.6.1+0cc9a8446c95')).toEqual({
    kind: 'artifact',
    name: '6.6.1+0cc9a8446c95',
  })
})

test('a Kustomization’s ReconciliationSucceeded records its revision’s commit', () => {
  expect(
    outcomeOfFluxEvent(event('derived/kustomization-reconciliationsucceeded.json'), MAPPING),
  ).toEqual({
    outcome: 'record',
    senderDeploymentId: undefined,
    deployment: {
      repositoryFullName: 'acme/platform',
      environment: 'production',
      app: 'flux-system',
      version: '802723078aff',
      commitHash: '802723078affd3eb2a3898630261ab3ca5d6dd40',
      deployedAt: '2023-08-16T10:26:43Z',
      author: null,
      description: null,
    },
  })
})

test('a key sent with its group (before notification-controller 1.5) reads as the bare one; the namespace is the environment by default', () => {
  const prefixed = event('derived/kustomization-reconciliationsucceeded.json')
  const { revision } = prefixed.body.metadata
  prefixed.body.metadata = { 'kustomize.toolkit.fluxcd.io/revision': revision }
  expect(outcomeOfFluxEvent(prefixed, { repository: 'acme/platform' })).toMatchObject({
    outcome: 'record',
    deployment: {
      environment: 'flux-system',
      commitHash: '802723078affd3eb2a3898630261ab3ca5d6dd40',
    },
  })
})

test('a HelmRelease’s chart version names no commit: recorded with it unknown, not made up; the mapping can give one', () => {
  const upgraded = event('derived/helmrelease-upgradesucceeded.json')
  expect(outcomeOfFluxEvent(upgraded, MAPPING)).toEqual({
    outcome: 'record',
    senderDeploymentId: undefined,
    commitUnknown: expect.stringContaining("revision '6.6.1+0cc9a8446c95' names no commit"),
    deployment: expect.objectContaining({ version: '6.6.1+0cc9a8446c95', commitHash: null }),
  })
  const commit = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'
  expect(outcomeOfFluxEvent(upgraded, { ...MAPPING, commit })).toMatchObject({
    outcome: 'record',
    deployment: { app: 'podinfo', version: '6.6.1+0cc9a8446c95', commitHash: commit },
  })
})

test('progress, failures and other controllers’ events are ignored, saying why', () => {
  for (const [path, why] of [
    ['derived/kustomization-progressing-changeset.json', 'is not a finished release'],
    ['derived/kustomization-healthcheckfailed.json', 'a failed rollout'],
    [
      'verbatim/nc-v1beta3-providers-generic-kustomization-validationfailed.json',
      'a failed rollout',
    ],
  ] as const) {
    expect({ path, outcome: outcomeOfFluxEvent(event(path), MAPPING) }).toEqual({
      path,
      outcome: { outcome: 'ignored', reason: expect.stringContaining(why) },
    })
  }
  expect(
    outcomeOfFluxEvent(event('derived/kustomization-reconciliationsucceeded.json'), {}),
  ).toEqual({
    outcome: 'ignored',
    reason: expect.stringContaining('no repository'),
  })
})
