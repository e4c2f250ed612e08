import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import type { IntegrationMapping } from '../mapping.ts'
import { outcomeOfCDEvent } from './service-event.ts'

// The CDEvents spec's own examples (cdevents/spec at v0.3.0, v0.4.1 and v0.5.1, copied verbatim:
// fixtures/cdevents/SOURCE.md), each checked first against its version's JSON schemas, then read
// as a bare CDEvent, a structured CloudEvent and a binary one.

const FIXTURES = join(import.meta.dir, '../../fixtures/cdevents')
const VERSIONS = ['v0.3.0', 'v0.4.1', 'v0.5.1'] as const
const COMMIT = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'
const MAPPING: IntegrationMapping = { repository: 'acme/shop', commit: COMMIT }

const filesIn = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesIn(join(folder, entry.name)) : [join(folder, entry.name)],
  )

/** A validator holding every schema of one spec version, resolving their $refs offline. */
function validatorOf(version: string) {
  const ajv = new Ajv2020({ strict: false })
  addFormats(ajv)
  for (const file of filesIn(join(FIXTURES, version, 'schemas'))) {
    ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')))
  }
  return ajv
}

const example = (version: string, name: string) =>
  readFileSync(join(FIXTURES, version, 'examples', `${name}.json`), 'utf8')

// The example's event and the schema file that defines it.
const SCHEMA_OF: Record<string, string> = {
  service_deployed: 'servicedeployed',
  service_upgraded: 'serviceupgraded',
  service_rolledback: 'servicerolledback',
  service_removed: 'serviceremoved',
  incident_detected: 'incidentdetected',
  incident_reported: 'incidentreported',
  incident_resolved: 'incidentresolved',
  artifact_published: 'artifactpublished',
}

const modes = (text: string) => {
  const cdevent = JSON.parse(text)
  const { id, source, type, timestamp } = cdevent.context
  return {
    bare: { body: cdevent, headers: new Headers({ 'content-type': 'application/json' }) },
    structured: {
      body: {
        specversion: '1.0',
        id,
        source,
        type,
        time: timestamp,
        datacontenttype: 'application/json',
        data: cdevent,
      },
      headers: new Headers({ 'content-type': 'application/cloudevents+json' }),
    },
    binary: {
      body: cdevent,
      headers: new Headers({
        'content-type': 'application/json',
        'ce-specversion': '1.0',
        'ce-id': id,
        'ce-source': source,
        'ce-type': type,
        'ce-time': timestamp,
      }),
    },
  }
}

describe.each(VERSIONS)('CDEvents %s', (version) => {
  const ajv = validatorOf(version)

  test.each(Object.keys(SCHEMA_OF))(
    'the spec’s %s example is valid under the spec’s schema',
    (name) => {
      const schema = JSON.parse(
        readFileSync(join(FIXTURES, version, 'schemas', `${SCHEMA_OF[name]}.json`), 'utf8'),
      )
      const validate = ajv.getSchema(schema.$id)
      expect(validate).toBeDefined()
      const valid = validate?.(JSON.parse(example(version, name)))
      expect({ name, errors: valid ? [] : validate?.errors }).toEqual({ name, errors: [] })
    },
  )

  test.each(['service_deployed', 'service_upgraded', 'service_rolledback'])(
    '%s records the deployment the rules say, in every mode',
    (name) => {
      for (const [mode, delivery] of Object.entries(modes(example(version, name)))) {
        expect({ mode, outcome: outcomeOfCDEvent(delivery, MAPPING) }).toEqual({
          mode,
          outcome: {
            outcome: 'record',
            senderDeploymentId: undefined,
            deployment: {
              repositoryFullName: 'acme/shop',
              environment: 'test123',
              app: 'myapp',
              // pkg:oci/myapp@sha256%3A0b31…: the digest, shortened as registries show it.
              version: 'sha256:0b31b1c02ff4',
              commitHash: COMMIT,
              deployedAt: '2023-03-20T14:27:05.315384Z',
              author: null,
              description: null,
            },
          },
        })
      }
    },
  )

  test.each(['service_deployed', 'service_upgraded', 'service_rolledback'])(
    '%s as the spec writes it, no commit in it: recorded with its commit unknown, in every mode',
    (name) => {
      for (const [mode, delivery] of Object.entries(modes(example(version, name)))) {
        expect({ mode, outcome: outcomeOfCDEvent(delivery, { repository: 'acme/shop' }) }).toEqual({
          mode,
          outcome: {
            outcome: 'record',
            senderDeploymentId: undefined,
            commitUnknown: expect.stringContaining('no customData.commit'),
            deployment: expect.objectContaining({ app: 'myapp', commitHash: null }),
          },
        })
      }
    },
  )

  test.each([
    ['incident_detected', 'open'],
    ['incident_reported', 'open'],
    ['incident_resolved', 'resolved'],
  ] as const)(
    '%s as the spec writes it: an incident of prod1 and myApp, %s, in every mode',
    (name, state) => {
      const cdevent = JSON.parse(example(version, name))
      for (const [mode, delivery] of Object.entries(modes(example(version, name)))) {
        expect({ mode, outcome: outcomeOfCDEvent(delivery, {}) }).toEqual({
          mode,
          outcome: {
            outcome: 'incident',
            subject: {
              senderKey: `${cdevent.subject.source} incident-123`,
              environment: 'prod1',
              app: 'myApp',
              title: cdevent.subject.content.description,
              url: cdevent.subject.content.ticketURI ?? null,
            },
            startedAt: new Date(cdevent.context.timestamp).toISOString().replace('Z', '000Z'),
            state,
            at: new Date(cdevent.context.timestamp).toISOString().replace('Z', '000Z'),
          },
        })
      }
    },
  )

  test.each([
    ['service_removed', 'is not a deployment'],
    ['artifact_published', 'is not a deployment'],
  ])('%s is ignored, saying why', (name, why) => {
    for (const delivery of Object.values(modes(example(version, name)))) {
      expect(outcomeOfCDEvent(delivery, MAPPING)).toEqual({
        outcome: 'ignored',
        reason: expect.stringContaining(why),
      })
    }
  })
})

describe('the rules at their edges', () => {
  const deployed = JSON.parse(example('v0.5.1', 'service_deployed'))
  const read = (cdevent: unknown, mapping: IntegrationMapping = MAPPING) =>
    outcomeOfCDEvent({ body: cdevent, headers: new Headers() }, mapping)

  test('a newer version of a known event is read for what is known, unknown fields kept aside', () => {
    const newer = structuredClone(deployed)
    newer.context.type = 'dev.cdevents.service.deployed.0.9.0'
    newer.subject.content.somethingNew = { nested: true }
    newer.context.futureField = 'x'
    expect(read(newer)).toMatchObject({ outcome: 'record', deployment: { app: 'myapp' } })
  })

  test('customData gives the commit and repository; the purl tag is the version', () => {
    const withData = structuredClone(deployed)
    withData.customData = { commit: COMMIT.toUpperCase(), repository: 'acme/checkout' }
    withData.subject.content.artifactId = 'pkg:oci/checkout@sha256%3Aabc0123456789def?tag=v1.4.2'
    expect(read(withData, {})).toMatchObject({
      outcome: 'record',
      deployment: {
        repositoryFullName: 'acme/checkout',
        app: 'checkout',
        version: 'v1.4.2',
        commitHash: COMMIT.toUpperCase(),
      },
    })
  })

  test('no commit anywhere: recorded with its commit unknown, not made up from the digest; no repository: said', () => {
    expect(read(deployed, { repository: 'acme/shop' })).toEqual({
      outcome: 'record',
      senderDeploymentId: undefined,
      commitUnknown: expect.stringContaining('no customData.commit'),
      deployment: expect.objectContaining({ commitHash: null, version: 'sha256:0b31b1c02ff4' }),
    })
    expect(read(deployed, { commit: COMMIT })).toEqual({
      outcome: 'ignored',
      reason: expect.stringContaining('no repository'),
    })
  })

  test('a value Go templates print for a missing key is absent: the mapping or the subject id speaks', () => {
    const templated = structuredClone(deployed)
    templated.subject.content.environment.id = '<no value>'
    templated.subject.content.artifactId = '<no value>'
    expect(
      read(templated, {
        ...MAPPING,
        environment: [{ from: 'subject.content.environment.id' }, 'staging'],
      }),
    ).toMatchObject({
      outcome: 'record',
      deployment: { environment: 'staging', app: 'mySubject123', version: null },
    })
  })

  test('anything that is not a CDEvent is ignored with the reason', () => {
    for (const body of [
      [],
      'x',
      { specversion: '1.0', data_base64: 'e30=' },
      { context: {} },
      { subject: {} },
    ]) {
      expect(read(body)).toMatchObject({ outcome: 'ignored' })
    }
    const wrongType = structuredClone(deployed)
    wrongType.context.type = 'com.example.deployed'
    expect(read(wrongType)).toEqual({
      outcome: 'ignored',
      reason: expect.stringContaining('is not a CDEvent type'),
    })
  })
})
